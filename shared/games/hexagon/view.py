"""What goes to a client: :func:`view` (the only door) and the *Hilfe an* query.

Battlehexagon hides nothing (docs/rules.md: all public), so every seat and spectators see
the same board; only the legal moves and the help are added for the seat to move.

View layout::

    {"game": "hexagon", "seat": 0|1|None, "options": {...}, "map": "dreiloch",
     "holes": [cells], "cells": {"rubin": [cells], "perle": [cells]},
     "to_move": 0|1|None, "clock": int, "ply": int, "position": text,
     "moves": [move texts], "score": [rubin cells, perle cells],
     "legal_moves": [{"text", "effect"}, ...]   # only for the seat to move
     "help": {"clone_targets": [...], "threatened": [...]}   # only for the seat to move
     "outcome": {...} | None}
"""

from __future__ import annotations

from typing import Any

from shared.games.base import Outcome
from shared.games.hexagon.board import NAMES, NEIGHBOURS, bits, names_of
from shared.games.hexagon.ending import end_of
from shared.games.hexagon.moves import CLONE_FROM, PASS, clone_targets, reachable
from shared.games.hexagon.notation import move_text, position_text
from shared.games.hexagon.play import legal_for
from shared.games.hexagon.state import State

# Move int → (text, kind, from, to): what the legal-move list says about a move apart from
# the stones it turns, which depend on the position.  The view for the seat to move lists
# every legal move with its effect (``play.effect``) on every move of a game; looking these
# parts up instead of computing them per move halves the view's time.  Filled on first use
# (at most 61 clones, 61 × 12 jumps and the pass).
_PARTS: dict[int, tuple[str, str, str | None, str | None]] = {}


def _parts(move: int) -> tuple[str, str, str | None, str | None]:
    parts = _PARTS.get(move)
    if parts is None:
        frm, to = move >> 6, move & 63
        if move == PASS:
            parts = (move_text(move), "pass", None, None)
        elif frm == CLONE_FROM:
            parts = (move_text(move), "clone", None, NAMES[to])
        else:
            parts = (move_text(move), "jump", NAMES[frm], NAMES[to])
        _PARTS[move] = parts
    return parts


# (move, mask of the stones it turns) → its legal-move entry.  A target cell has at most six
# neighbours, so few masks recur and the entries of one position mostly exist already: a
# view's list is looked up, not built (receivers never change a view, as with ``_public``).
# Bounded by the moves (at most 61 × 13 + 1) times the masks each target meets.
_ENTRIES: dict[tuple[int, int], dict[str, Any]] = {}


def _entry(move: int, mask: int) -> dict[str, Any]:
    text, kind, frm, to = _parts(move)
    return {"text": text, "effect": {"kind": kind, "from": frm, "to": to, "turns": names_of(mask)}}


def legal_moves_with_effects(state: State, seat: int) -> list[dict[str, Any]]:
    """``[{"text", "effect"}]`` for every legal move of ``seat``: the same as
    ``{"text": move_text(m), "effect": play.effect(state, m)}`` per move."""
    opp = state.opp
    entries = _ENTRIES
    out = []
    for move in legal_for(state, seat):
        mask = 0 if move == PASS else NEIGHBOURS[move & 63] & opp
        entry = entries.get((move, mask))
        if entry is None:
            entry = entries[(move, mask)] = _entry(move, mask)
        out.append(entry)
    return out


def help_info(state: State, seat: int) -> dict[str, list[str]]:
    """For *Hilfe an*: where ``seat`` can clone now, and which of its stones the
    opponent could turn with its next move (a stone next to a cell the opponent can
    clone or jump into)."""
    mine = state.white if seat else state.red
    theirs = state.red if seat else state.white
    empty = state.empty
    danger = 0
    for cell in bits(reachable(theirs, empty)):
        danger |= NEIGHBOURS[cell]
    return {"clone_targets": names_of(clone_targets(mine, empty)), "threatened": names_of(danger & mine)}


def view(state: State, seat: int | None) -> dict[str, Any]:
    outcome = end_of(state)
    # What every seat sees alike is built once per position (both players and the
    # spectators get a view of each new position); receivers never change a view.
    public = state.cached_view
    if public is None:
        public = state.cached_view = _public(state, outcome)
    data: dict[str, Any] = {"game": "hexagon", "seat": seat, **public}
    if outcome is None and seat == state.side:
        data["legal_moves"] = legal_moves_with_effects(state, seat)
        data["help"] = help_info(state, seat)
    return data


def _public(state: State, outcome: Outcome | None) -> dict[str, Any]:
    setup = state.setup
    return {
        "options": dict(setup.options),
        "map": setup.options["map"],
        "map_seed": setup.map_seed,
        "holes": names_of(setup.holes),
        "cells": {"rubin": names_of(state.red), "perle": names_of(state.white)},
        "to_move": None if outcome is not None else state.side,
        "clock": state.clock,
        "ply": state.ply,
        "position": position_text(state.red, state.white, setup.holes, state.side, state.clock),
        "start": setup.start,
        "moves": [_parts(m)[0] for m in state.moves()],
        "score": [state.red.bit_count(), state.white.bit_count()],
        "outcome": outcome.to_dict() if outcome is not None else None,
    }
