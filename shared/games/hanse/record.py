"""The downloadable game record (plain text) and reading it back.

Layout::

    [Spiel "Battlehanse"]
    [Optionen "first=0 seals_to_win=2"]
    [Seed "12345"]
    [Ergebnis "2-1"]                      seals, "*" while running
    [Grund "Zwei Ratssiegel / Two council seals"]
    [Neumischung "17 99"]                 one per undo-reshuffle: ply and seed
    [Key "Value"]                         the caller's headers (players, date …)

    Runde 1 – beginnt Spieler 1
    # Austeilen: Markt HHHPB · Spieler 1 BBGPS/0 · Spieler 2 TTZPP/1 · Stapel … · Ratsmarken …
    1. nimm Gold ; zieht Pelz
    2. verkauf 3 Tuch ; Ratsmarke 2
    # Rundentafel: …
    3. weiter
    Runde 2 – beginnt Spieler 2

Only the numbered move texts (before ``;``) and the headers ``Optionen``, ``Seed`` and
``Neumischung`` are read back; lines starting with ``#`` and ``Runde`` are comments.
The deals, the cards drawn and the Ratsmarken values are written only once the match
is over ("after the end, everything").  The seed header alone decides every deal, so a
record of a running match belongs to the server, never to a player.
"""

from __future__ import annotations

import re

from shared.games.base import BadNotation, GameError
from shared.games.hanse.cards import GOODS, HORSE, LETTERS, NAMES_DE
from shared.games.hanse.conclusion import conclude_from_record
from shared.games.hanse.replay import replay
from shared.games.hanse.state import OVER, State, deal_round
from shared.games.record_header import escape, read_record_text

_MOVE = re.compile(r"^(\d+)\.\s+([^;#]+?)\s*(?:;.*)?$")


def _deal_line(state: State, round_no: int, starter: int) -> str:
    dealt = deal_round(state, round_no, starter)

    def hand(h: tuple[int, ...]) -> str:
        return "".join(LETTERS[k] * h[k] for k in range(GOODS)) + f"/{h[HORSE]}"

    market = "".join(LETTERS[k] * n for k, n in enumerate(dealt.market))
    deck = "".join(LETTERS[c] for c in reversed(dealt.deck))
    rats = "/".join(".".join(str(v) for v in reversed(p)) for p in dealt.rats_piles)
    return (
        f"# Austeilen / deal: Markt {market} · Spieler 1 {hand(dealt.hands[0])} · "
        f"Spieler 2 {hand(dealt.hands[1])} · Stapel {deck} · Ratsmarken {rats}"
    )


def _table_line(table: dict) -> str:
    parts = []
    for p, player in enumerate(table["players"]):
        parts.append(
            f"Spieler {p + 1}: Zinn {'+'.join(map(str, player['zinn'])) or '0'} = {player['zinn_sum']}, "
            f"Rat {'+'.join(map(str, player['rats'])) or '0'} = {player['rats_sum']}, "
            f"Stall {player['stall']} ({player['horses']} Pferde), gesamt {player['total']}"
        )
    return f"# Rundentafel {table['round']} ({table['end_de']}): " + " | ".join(parts) + f" — {table['de']}"


def write_record(state: State, headers: dict[str, str], result: str, reason: str) -> str:
    over = state.phase == OVER
    lines = [
        '[Spiel "Battlehanse"]',
        f'[Optionen "first={state.first} seals_to_win={state.seals_to_win}"]',
        f'[Seed "{state.seed}"]',
        f'[Ergebnis "{escape(result)}"]',
        f'[Grund "{escape(reason)}"]',
    ]
    lines += [f'[Neumischung "{ply} {seed}"]' for ply, seed in state.reshuffles]
    for key, value in headers.items():
        if re.fullmatch(r"\w+", str(key)) and key not in (
            "Spiel",
            "Optionen",
            "Seed",
            "Ergebnis",
            "Grund",
            "Neumischung",
        ):
            lines.append(f'[{key} "{escape(value)}"]')
    lines.append("")
    tables = {t["round"]: t for t in state.rounds}
    printed: set[int] = set()
    current = 0
    for number, (entry_round, seat, text, drawn, rats) in enumerate(state.history, start=1):
        if text == "weiter":
            if entry_round in tables and entry_round not in printed:
                lines.append(_table_line(tables[entry_round]))
                printed.add(entry_round)
        elif entry_round != current:
            current = entry_round
            lines.append(f"Runde {current} – beginnt Spieler {seat + 1}")
            if over:
                lines.append(_deal_line(state, current, seat))
        note = ""
        if over and drawn:
            note = " ; zieht " + ", ".join(NAMES_DE[c] for c in drawn)
        elif over and rats >= 0:
            note = f" ; Ratsmarke {rats}"
        lines.append(f"{number}. {text}{note}")
    for round_no in sorted(tables):
        if round_no not in printed:
            lines.append(_table_line(tables[round_no]))
    return "\n".join(lines) + "\n"


def read_record(text: str) -> State:
    """The match a record holds, replayed (and concluded when the table ended it)."""
    parts = read_record_text(
        text,
        not_text=BadNotation("bad_record", "Keine Partie-Notation.", "Not a game record."),
        bad_header=None,  # an unreadable header is an unreadable line, reported below
        comments=("#", "Runde"),
    )
    headers = parts.headers
    moves: list[str] = []
    for number, line in parts.body:
        move = _MOVE.match(line)
        if not move or int(move.group(1)) != len(moves) + 1:
            raise BadNotation(
                "bad_record", f"Zeile {number} ist unverständlich: {line!r}", f"Line {number} is unreadable: {line!r}"
            )
        moves.append(move.group(2))
    try:
        if headers.get("Spiel") != ["Battlehanse"]:
            raise ValueError("not a Battlehanse record")
        options = dict(item.split("=", 1) for item in headers["Optionen"][0].split())
        first = int(options["first"])
        seals_to_win = int(options["seals_to_win"])
        if first not in (0, 1) or not 1 <= seals_to_win <= 3:
            raise ValueError("bad options")
        seed = int(headers["Seed"][0])
        reshuffles = tuple((int(a), int(b)) for a, b in (h.split() for h in headers.get("Neumischung", [])))
    except (KeyError, ValueError, IndexError) as exc:
        raise BadNotation(
            "bad_record", f"Kopfzeilen fehlen oder sind falsch: {exc}", f"Headers missing or wrong: {exc}"
        ) from None
    try:
        replayed = replay(first, seals_to_win, seed, moves, reshuffles)
    except GameError as exc:
        raise BadNotation(
            "bad_record", f"Ungültiger Zug in der Notation: {exc.de}", f"Invalid move in the record: {exc.en}"
        ) from None
    return conclude_from_record(replayed, parts.last)
