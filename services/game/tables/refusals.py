"""Why the game service refuses a table action, in German and English.

A refusal changes nothing.  It reaches the sender as the protocol's ``error`` event
``{code, message, event}``; the engine's own refusals (``GameError``: unreadable or
illegal moves) carry their texts already and pass through unchanged.
"""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "unknown_table": ("Diese Partie gibt es nicht.", "There is no such game."),
    "table_finished": ("Die Partie ist schon beendet.", "The game is already over."),
    "spectator": ("Du schaust nur zu und kannst hier nicht spielen.", "You are watching and cannot play here."),
    "not_your_turn": ("Du bist nicht am Zug.", "It is not your turn."),
    "stale_version": ("Die Partie hat sich inzwischen geändert; hier ist der aktuelle Stand.",
                      "The game has changed meanwhile; here is the current state."),
    "round_pause_countdown": ("Die Rundentafel läuft; die nächste Runde beginnt von selbst.",
                              "The round table is showing; the next round starts by itself."),
    "computer_thinking": ("Der Computer ist am Zug.", "It is the computer's turn."),
    "no_offer": ("Es liegt kein solches Angebot vor.", "There is no such offer."),
    "own_offer": ("Das ist dein eigenes Angebot.", "That is your own offer."),
    "offer_pending": ("Dieses Angebot liegt schon vor.", "This offer is already open."),
    "takeback_not_here": ("Zurücknehmen gibt es nur in Freundschaftspartien.",
                          "Takebacks exist only in friendly games."),
    "draw_not_here": ("Remis kann man hier nicht anbieten.", "A draw cannot be offered here."),
    "nothing_to_take_back": ("Es gibt keinen Zug zum Zurücknehmen.", "There is no move to take back."),
    "undo_not_here": ("Zug zurück gibt es nur an lokalen Tischen.", "Undo exists only at local tables."),
    "bad_options": ("Diese Einstellungen gibt es nicht.", "These settings do not exist."),
    "bad_local_table": ("Diese Einstellungen passen nicht zu diesem Tisch.",
                        "These settings do not fit this table."),
    "not_found": ("Nicht gefunden.", "Not found."),
    "deal_sealed": ("Mit diesem Blatt wird heute noch gespielt: Zuschauen, Wiederholung und Notation gibt es"
                    " ab morgen.",
                    "This deal is still being played today: watching, the replay and the record are available"
                    " tomorrow."),
    "private_table": ("An diesem Tisch spielen zwei an einem Gerät; er gehört einem anderen Spieler.",
                      "Two play on one device at this table; it belongs to another player."),
    "hint_not_here": ("Einen Tipp gibt es nur in Battlehanse gegen den Computer.",
                      "Hints exist only in Battlehanse against the computer."),
    "hint_not_against_stark": ("Gegen Stark gibt es keinen Tipp – nur gegen Leicht und Mittel.",
                               "There are no hints against Stark – only against Leicht and Mittel."),
    "review_after_end": ("Den Rückblick gibt es auf der Rundentafel (gegen den Computer) und nach der Partie.",
                         "The review is available on the round table (against the computer) and after the game."),
    "review_not_yours": ("Diesen Rückblick sieht nur, wer diesen Platz gespielt hat.",
                         "Only the player of that seat can see this review."),
}


class TableRefusal(Exception):
    """A refused table action; ``current`` asks the handler to send the table's state too."""

    def __init__(self, code: str, *, current_game_id: int | None = None, de: str | None = None,
                 en: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        default_de, default_en = TEXTS.get(code, (code, code))
        self.de = de or default_de
        self.en = en or default_en
        self.current_game_id = current_game_id

    def message(self, lang: str) -> str:
        return self.en if lang == "en" else self.de

