"""Why a move is or is not allowed: turns a parsed move into a move int, or raises
:class:`IllegalMove` with the reason in German and English.

The checks here mirror :func:`.moves._generate` rule by rule; the tests assert that
both agree on every candidate move in many random positions.
"""

from __future__ import annotations

from shared.games.base import IllegalMove
from shared.games.hanse.cards import GOODS, HAND_LIMIT, HORSE, NAMES_DE, NAMES_EN, PRECIOUS
from shared.games.hanse.moves import HORSES, WEITER, exchange_move, sell_move, take_move
from shared.games.hanse.state import OVER, PAUSE, State


def _no(code: str, de: str, en: str) -> IllegalMove:
    return IllegalMove(code, de, en)


def check_seat(state: State, seat: int | None, parsed_kind: str) -> None:
    """Raise unless ``seat`` (None = whoever is to move) may make a move of this kind now."""
    if state.phase == OVER:
        raise _no("game_over", "Die Partie ist vorbei.", "The game is over.")
    if state.phase == PAUSE:
        if parsed_kind != "weiter":
            raise _no(
                "round_over",
                "Die Runde ist vorbei – erst „weiter“, dann wird neu ausgeteilt.",
                "The round is over – send 'weiter' to deal the next round.",
            )
        return
    if parsed_kind == "weiter":
        raise _no("round_running", "Die Runde läuft noch.", "The round is still running.")
    if seat is not None and seat != state.turn:
        raise _no("not_your_turn", "Du bist nicht am Zug.", "It is not your turn.")


def check_parsed(state: State, parsed: tuple, seat: int | None = None) -> int:
    """A parsed move (see :func:`.notation.parse_move_text`) → its move int, if legal."""
    check_seat(state, seat, parsed[0])
    if parsed[0] == "weiter":
        return WEITER
    market = state.market
    hand = state.hands[state.turn]
    goods_in_hand = sum(hand[:GOODS])
    if parsed[0] == "horses":
        if not market[HORSE]:
            raise _no("no_horses", "Im Markt stehen keine Packpferde.", "There are no pack horses in the market.")
        return HORSES
    if parsed[0] == "take":
        kind = parsed[1]
        if kind == HORSE:
            raise _no(
                "take_horse",
                "Packpferde holst du nur alle zusammen („pferde“).",
                "Pack horses are only taken all together ('pferde').",
            )
        if not market[kind]:
            raise _no(
                "not_in_market",
                f"{NAMES_DE[kind]} liegt nicht im Markt.",
                f"There is no {NAMES_EN[kind]} in the market.",
            )
        if goods_in_hand >= HAND_LIMIT:
            raise _no(
                "hand_full",
                "Du hast schon 7 Waren auf der Hand.",
                "You already hold 7 goods.",
            )
        return take_move(kind)
    if parsed[0] == "sell":
        kind, n = parsed[1], parsed[2]
        if kind == HORSE:
            raise _no("sell_horse", "Packpferde kann man nicht verkaufen.", "Pack horses cannot be sold.")
        if n > hand[kind]:
            raise _no(
                "not_in_hand",
                f"Du hast nicht {n} × {NAMES_DE[kind]} auf der Hand.",
                f"You do not hold {n} × {NAMES_EN[kind]}.",
            )
        if PRECIOUS[kind] and n < 2:
            raise _no(
                "precious_single",
                f"{NAMES_DE[kind]} ist eine Edelware: nur zu mindestens zweit verkaufen.",
                f"{NAMES_EN[kind].capitalize()} is precious: sell at least two at a time.",
            )
        return sell_move(kind, n)
    taken, given = parsed[1], parsed[2]
    if taken[HORSE]:
        raise _no(
            "exchange_horse", "Packpferde lassen sich nicht eintauschen.", "Pack horses cannot be taken in an exchange."
        )
    size = sum(taken)
    if size < 2:
        raise _no(
            "exchange_too_few",
            "Beim Tausch nimmst du mindestens zwei Waren aus dem Markt.",
            "An exchange takes at least two goods from the market.",
        )
    if sum(given) != size:
        raise _no(
            "exchange_unequal",
            f"Du nimmst {size} Karten und musst genauso viele zurückgeben (nicht {sum(given)}).",
            f"You take {size} cards and must give back as many (not {sum(given)}).",
        )
    for k in range(GOODS):
        if taken[k] > market[k]:
            raise _no(
                "not_in_market",
                f"Im Markt liegen nicht {taken[k]} × {NAMES_DE[k]}.",
                f"The market does not hold {taken[k]} × {NAMES_EN[k]}.",
            )
    for k in range(GOODS):
        if taken[k] and given[k]:
            raise _no(
                "exchange_same_good",
                f"Dieselbe Ware ({NAMES_DE[k]}) darf nicht genommen und zurückgegeben werden.",
                f"The same good ({NAMES_EN[k]}) may not be both taken and given.",
            )
    for k in range(GOODS):
        if given[k] > hand[k]:
            raise _no(
                "not_in_hand",
                f"Du hast nicht {given[k]} × {NAMES_DE[k]} auf der Hand.",
                f"You do not hold {given[k]} × {NAMES_EN[k]}.",
            )
    if given[HORSE] > hand[HORSE]:
        raise _no(
            "not_in_stable",
            f"In deinem Stall stehen nicht {given[HORSE]} Packpferde.",
            f"Your stable does not hold {given[HORSE]} pack horses.",
        )
    if goods_in_hand + given[HORSE] > HAND_LIMIT:
        raise _no(
            "hand_limit",
            f"Danach hättest du {goods_in_hand + given[HORSE]} Waren auf der Hand – höchstens 7.",
            f"You would then hold {goods_in_hand + given[HORSE]} goods – at most 7.",
        )
    return exchange_move(tuple(taken[:GOODS]), tuple(given[:GOODS]), given[HORSE])
