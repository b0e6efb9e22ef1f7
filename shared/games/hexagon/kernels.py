"""numba kernels on int64 bitboards: perft and move generation for searches.

Imported lazily (only perft and the computer opponents need it), compiled with
``cache=True`` so that only the very first process on a machine pays the compile.

The kernels know the geometric rules and the end by board full, no stones and no
move (Auffüllen / Aussetzen with passes); they do *not* track the 50-move rule or
repetitions — :func:`shared.games.hexagon.game.HexagonGame.perft` uses them only when
neither rule can trigger within the searched depth.

Tables are passed in as arguments (``NEIGHBOURS_NP``, ``JUMPS_NP``) instead of being
read from globals, so the same compiled code serves every map.

For a search in numba: ``gen_moves(me, opp, empty, neighbours, jumps, out)`` fills
``out`` (int64 array of at least 800 slots) with move ints (see
:mod:`shared.games.hexagon.moves`) and returns how many; ``apply_move(me, opp, move,
neighbours)`` returns ``(me, opp)`` after the move, still from the mover's side.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from shared.games.hexagon.board import JUMPS, NEIGHBOURS

NEIGHBOURS_NP = np.array(NEIGHBOURS, dtype=np.int64)
JUMPS_NP = np.array(JUMPS, dtype=np.int64)

# de Bruijn lookup for the index of the lowest set bit (numba has no ctz on int64).
_DEBRUIJN = 0x03F79D71B4CB0A89
_DEBRUIJN_TABLE = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DEBRUIJN_TABLE[((((1 << _i) * _DEBRUIJN) & 0xFFFFFFFFFFFFFFFF) >> 58)] = _i
DEBRUIJN_NP = _DEBRUIJN_TABLE


@njit(cache=True, inline="always")
def _low_index(low: int, table: np.ndarray) -> int:
    return table[((low * 0x03F79D71B4CB0A89) >> 58) & 63]


@njit(cache=True, inline="always")
def _popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True)
def _count_moves(me: int, empty: int, neighbours: np.ndarray, jumps: np.ndarray, table: np.ndarray) -> int:
    grown = 0
    total = 0
    stones = me
    while stones:
        low = stones & -stones
        cell = _low_index(low, table)
        grown |= neighbours[cell]
        total += _popcount(jumps[cell] & empty)
        stones ^= low
    return total + _popcount(grown & empty)


@njit(cache=True)
def _has_move(me: int, empty: int, neighbours: np.ndarray, jumps: np.ndarray, table: np.ndarray) -> bool:
    stones = me
    while stones:
        low = stones & -stones
        cell = _low_index(low, table)
        if (neighbours[cell] | jumps[cell]) & empty:
            return True
        stones ^= low
    return False


@njit(cache=True)
def _perft(
    me: int,
    opp: int,
    playable: int,
    passes: bool,
    depth: int,
    neighbours: np.ndarray,
    jumps: np.ndarray,
    table: np.ndarray,
) -> int:
    empty = playable & ~(me | opp)
    if empty == 0 or me == 0 or opp == 0:
        return 0
    if depth == 1:
        n = _count_moves(me, empty, neighbours, jumps, table)
        if n == 0 and passes and _has_move(opp, empty, neighbours, jumps, table):
            return 1
        return n
    total = 0
    moved = False
    grown = 0
    stones = me
    while stones:
        low = stones & -stones
        grown |= neighbours[_low_index(low, table)]
        stones ^= low
    targets = grown & empty
    while targets:
        low = targets & -targets
        turned = neighbours[_low_index(low, table)] & opp
        total += _perft(opp ^ turned, me | low | turned, playable, passes, depth - 1, neighbours, jumps, table)
        targets ^= low
        moved = True
    stones = me
    while stones:
        src = stones & -stones
        dests = jumps[_low_index(src, table)] & empty
        while dests:
            low = dests & -dests
            turned = neighbours[_low_index(low, table)] & opp
            total += _perft(
                opp ^ turned, (me ^ src) | low | turned, playable, passes, depth - 1, neighbours, jumps, table
            )
            dests ^= low
            moved = True
        stones ^= src
    if not moved and passes and _has_move(opp, empty, neighbours, jumps, table):
        total = _perft(opp, me, playable, passes, depth - 1, neighbours, jumps, table)
    return total


@njit(cache=True)
def gen_moves(me: int, empty: int, neighbours: np.ndarray, jumps: np.ndarray, out: np.ndarray) -> int:
    """Fill ``out`` with the clones and jumps of ``me`` (same order as moves.generate)."""
    table = DEBRUIJN_NP
    n = 0
    grown = 0
    stones = me
    while stones:
        low = stones & -stones
        grown |= neighbours[_low_index(low, table)]
        stones ^= low
    targets = grown & empty
    while targets:
        low = targets & -targets
        out[n] = 63 * 64 + _low_index(low, table)
        n += 1
        targets ^= low
    stones = me
    while stones:
        src = stones & -stones
        frm = _low_index(src, table)
        dests = jumps[frm] & empty
        while dests:
            low = dests & -dests
            out[n] = frm * 64 + _low_index(low, table)
            n += 1
            dests ^= low
        stones ^= src
    return n


@njit(cache=True)
def apply_move(me: int, opp: int, move: int, neighbours: np.ndarray) -> tuple[int, int]:
    """``(me, opp)`` after a clone or jump (a pass changes nothing)."""
    if move == 63 * 64 + 63:
        return me, opp
    frm = move >> 6
    to = move & 63
    turned = neighbours[to] & opp
    me = me | (1 << to) | turned
    if frm != 63:
        me = me ^ (1 << frm)
    return me, opp ^ turned


def move_list(me: int, empty: int) -> list[int]:
    """Clones and jumps of ``me`` as a Python list (same order as moves.generate)."""
    out = np.empty(800, dtype=np.int64)  # per call: safe under threads; 61 stones x 12 jumps + 61 clones < 800
    n = gen_moves(me, empty, NEIGHBOURS_NP, JUMPS_NP, out)
    return out[:n].tolist()


def perft(me: int, opp: int, playable: int, passes: bool, depth: int) -> int:
    """Leaf count from the side to move's view (no draw rules; see the module doc)."""
    if depth <= 0:
        return 1
    return int(_perft(me, opp, playable, passes, depth, NEIGHBOURS_NP, JUMPS_NP, DEBRUIJN_NP))
