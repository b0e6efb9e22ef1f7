"""Moves on bitboards: the hot path in plain Python ints.

A move is an int ``from_cell * 64 + to_cell``:

* clone (Verdoppeln) to cell t: ``CLONE_FROM * 64 + t`` with ``CLONE_FROM = 63`` — all
  clones to one destination give the same position, so they are one move;
* jump (Springen) from f to t: ``f * 64 + t`` (f, t in 0..60, distance exactly 2);
* pass (Aussetzen): ``PASS`` = ``63 * 64 + 63``.

``me``/``opp`` are the bitboards of the side to move and its opponent, ``empty`` the
playable empty cells (holes are never empty).  Moves come out in a fixed order:
clones by destination, then jumps by (from, to).
"""

from __future__ import annotations

from shared.games.hexagon.board import JUMPS, N_CELLS, NEIGHBOURS

CLONE_FROM = 63
PASS = 63 * 64 + 63
REACH: tuple[int, ...] = tuple(NEIGHBOURS[i] | JUMPS[i] for i in range(N_CELLS))


def clone_move(to: int) -> int:
    return CLONE_FROM * 64 + to


def jump_move(frm: int, to: int) -> int:
    return frm * 64 + to


def is_clone(move: int) -> bool:
    return move >> 6 == CLONE_FROM and move != PASS


def clone_targets(me: int, empty: int) -> int:
    """Empty cells next to one of ``me``'s stones."""
    grown = 0
    while me:
        low = me & -me
        grown |= NEIGHBOURS[low.bit_length() - 1]
        me ^= low
    return grown & empty


def reachable(me: int, empty: int) -> int:
    """Empty cells that ``me`` can clone or jump into."""
    grown = 0
    while me:
        low = me & -me
        grown |= REACH[low.bit_length() - 1]
        me ^= low
    return grown & empty


def has_move(me: int, empty: int) -> bool:
    """Whether ``me`` has any clone or jump (a pass is not counted)."""
    while me:
        low = me & -me
        if REACH[low.bit_length() - 1] & empty:
            return True
        me ^= low
    return False


def generate(me: int, empty: int) -> list[int]:
    """All clones and jumps of ``me`` (no pass), in the fixed order."""
    moves = []
    targets = clone_targets(me, empty)
    while targets:
        low = targets & -targets
        moves.append(CLONE_FROM * 64 + low.bit_length() - 1)
        targets ^= low
    stones = me
    while stones:
        low = stones & -stones
        frm = low.bit_length() - 1
        base = frm * 64
        dests = JUMPS[frm] & empty
        while dests:
            d = dests & -dests
            moves.append(base + d.bit_length() - 1)
            dests ^= d
        stones ^= low
    return moves


def count(me: int, empty: int) -> int:
    """Number of clones and jumps of ``me`` (no pass), without listing them."""
    total = clone_targets(me, empty).bit_count()
    while me:
        low = me & -me
        total += (JUMPS[low.bit_length() - 1] & empty).bit_count()
        me ^= low
    return total


def play(me: int, opp: int, move: int) -> tuple[int, int]:
    """``(me, opp)`` after ``move`` (clone or jump; the caller handles PASS)."""
    frm, to = move >> 6, move & 63
    turned = NEIGHBOURS[to] & opp
    me |= (1 << to) | turned
    if frm != CLONE_FROM:
        me ^= 1 << frm
    return me, opp ^ turned
