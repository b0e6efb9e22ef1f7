"""What a move changes, as JSON for a client (preview, arrows, highlights).

``{"marbles": [cells], "dir": "NE", "kind": "inline"|"broadside",
"moves": [[from, to_or_null], ...], "push": n, "out": bool}``

``marbles`` are the own marbles selected (ascending); ``moves`` lists every marble
that moves, own ones first, then pushed enemy ones (``null`` = pushed off the board
into the gutter); ``push`` is the number of enemy marbles pushed (orange arrow),
``out`` whether one leaves the board (red arrow).  A single marble counts as
``inline``.  Directions: see :mod:`.board`.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from shared.games.bullet.board import DIR_NAMES, NAME, SHIFTS
from shared.games.bullet.movegen import BROADSIDE, DIRECTION, GROUP, PUSHED, PUSHES_OUT


@cache
def _effect_json(move: int) -> str:
    group, direction = GROUP[move], DIRECTION[move]
    shift = SHIFTS[direction]
    moves: list[list[str | None]] = [[NAME[c], NAME[c + shift]] for c in group]
    if PUSHED[move]:
        lead = max(group, key=lambda c: c * shift)  # the marble furthest along the direction
        for k in range(1, PUSHED[move] + 1):
            cell = lead + k * shift
            dest = cell + shift
            moves.append([NAME[cell], NAME.get(dest)])
    return json.dumps(
        {
            "marbles": [NAME[c] for c in group],
            "dir": DIR_NAMES[direction],
            "kind": "broadside" if BROADSIDE[move] else "inline",
            "moves": moves,
            "push": PUSHED[move],
            "out": bool(PUSHES_OUT[move]),
        }
    )


def effect(move: int) -> dict[str, Any]:
    """A fresh effect dict for the move id (callers may change it freely)."""
    return json.loads(_effect_json(move))
