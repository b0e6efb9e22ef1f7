"""Checking a move against the position, saying why it is illegal, and its effect.

:func:`resolve` turns move text or a move int into a legal move int for the seat, or
raises :class:`IllegalMove` with the reason in German and English (game over, not your
turn, cell not empty, hole, no own stone next to it, …).  :func:`effect` is what a
client needs to preview a move: ``{"kind", "from", "to", "turns"}``.
"""

from __future__ import annotations

from typing import Any

from shared.games.base import BadNotation, IllegalMove
from shared.games.hexagon.board import JUMPS, NAMES, NEIGHBOURS, hex_distance, names_of
from shared.games.hexagon.ending import end_of, legal
from shared.games.hexagon.moves import CLONE_FROM, PASS, clone_move, has_move, jump_move
from shared.games.hexagon.notation import parse_shape
from shared.games.hexagon.state import State


def _illegal(code: str, de: str, en: str) -> IllegalMove:
    return IllegalMove(code, de, en)


def check_turn(state: State, seat: int | None) -> None:
    if end_of(state) is not None:
        raise _illegal("game_over", "Die Partie ist vorbei", "The game is over")
    if seat is not None and seat != state.side:
        raise _illegal("not_your_turn", "Du bist nicht am Zug", "It is not your turn")


def _check_destination(state: State, to: int) -> None:
    name = NAMES[to]
    if state.setup.holes >> to & 1:
        raise _illegal("hole", f"{name} ist ein Loch", f"{name} is a hole")
    if (state.red | state.white) >> to & 1:
        raise _illegal("cell_not_empty", f"Das Feld {name} ist nicht frei", f"The cell {name} is not empty")


def _check_pass(state: State) -> int:
    if not state.setup.passes:
        raise _illegal(
            "no_pass_rule",
            "Aussetzen gibt es nur mit der Endregel Aussetzen",
            "Passing exists only under the end rule Aussetzen",
        )
    if has_move(state.me, state.empty):
        raise _illegal(
            "pass_not_allowed",
            "Aussetzen darf nur, wer keinen Zug hat",
            "You may pass only when you have no move",
        )
    return PASS


def _check_clone(state: State, to: int) -> int:
    _check_destination(state, to)
    if not NEIGHBOURS[to] & state.me:
        name = NAMES[to]
        raise _illegal(
            "no_stone_adjacent",
            f"Kein eigener Stein neben {name} (Verdoppeln geht nur auf ein Nachbarfeld)",
            f"None of your stones is next to {name} (a clone goes to a neighbouring cell)",
        )
    return clone_move(to)


def _check_jump(state: State, frm: int, to: int) -> int:
    if not state.me >> frm & 1:
        name = NAMES[frm]
        raise _illegal(
            "not_your_stone", f"Auf {name} steht kein eigener Stein", f"{name} does not hold one of your stones"
        )
    _check_destination(state, to)
    if not JUMPS[frm] >> to & 1:
        distance = hex_distance(frm, to)
        if distance == 1:
            raise _illegal(
                "jump_too_short",
                f"Zum Nachbarfeld wird verdoppelt: schreibe {NAMES[to]}",
                f"A neighbouring cell is a clone: write {NAMES[to]}",
            )
        raise _illegal(
            "jump_wrong_distance",
            f"Ein Sprung geht genau zwei Felder weit, nicht {distance}",
            f"A jump goes exactly two cells, not {distance}",
        )
    return jump_move(frm, to)


def resolve(state: State, move: Any, seat: int | None) -> int:
    """Move text or int → the legal move int, or IllegalMove / BadNotation."""
    if isinstance(move, str):
        kind, frm, to = parse_shape(move)
    elif isinstance(move, int) and not isinstance(move, bool):
        if move == PASS:
            kind, frm, to = "pass", None, None
        elif 0 <= move < 64 * 64 and (move & 63) < 61 and ((move >> 6) < 61 or (move >> 6) == CLONE_FROM):
            frm = move >> 6
            kind, to = ("clone", move & 63) if frm == CLONE_FROM else ("jump", move & 63)
        else:
            raise BadNotation("bad_move", f"Kein Zug: {move!r}", f"Not a move: {move!r}")
    else:
        raise BadNotation("bad_move", "Ein Zug ist Text oder eine Zugnummer", "A move is text or a move int")
    check_turn(state, seat)
    if kind == "pass":
        return _check_pass(state)
    if kind == "clone":
        return _check_clone(state, to)
    return _check_jump(state, frm, to)


def effect(state: State, move: int, turned: dict[int, list[str]] | None = None) -> dict[str, Any]:
    """What ``move`` changes, in cell names: kind, from, to, turned enemy stones.

    ``turned`` (target cell → names), shared across the moves of one position, names
    each target's turned stones once: a view lists every legal move, and most targets
    are reached by several jumps and a clone."""
    if move == PASS:
        return {"kind": "pass", "from": None, "to": None, "turns": []}
    frm, to = move >> 6, move & 63
    turns = turned.get(to) if turned is not None else None
    if turns is None:
        turns = names_of(NEIGHBOURS[to] & state.opp)
        if turned is not None:
            turned[to] = turns
    if frm == CLONE_FROM:
        return {"kind": "clone", "from": None, "to": NAMES[to], "turns": turns}
    return {"kind": "jump", "from": NAMES[frm], "to": NAMES[to], "turns": turns}


def legal_for(state: State, seat: int | None) -> list[int]:
    if seat is not None and seat != state.side:
        return []
    return legal(state)
