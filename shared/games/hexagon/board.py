"""Geometry of the Battlehexagon board: 61 hex cells, their names and neighbour tables.

Cells are numbered 0..60 column by column, top to bottom: ``a1..a5`` are 0..4,
``b1..b6`` are 5..10, … ``i1..i5`` are 56..60.  A set of cells is a *bitboard*: a
Python int (or numba int64) whose bit ``i`` stands for cell ``i``; 61 bits never
touch the sign bit of an int64.

Axial coordinates (q, r) follow docs/rules.md: q = column − 4 (a = 0), |q|, |r|, |q+r| ≤ 4,
and a cell's number within its column is r − max(−4, −4−q) + 1, so ``e1`` is
(0, −4), ``e5`` the centre (0, 0) and ``e9`` is (0, 4).  The half-turn about ``e5``
maps (q, r) to (−q, −r) and so Rubin's corners onto Perle's.

Everything here is computed once at import from the coordinates, so the tables
cannot drift from the definition.
"""

from __future__ import annotations

COLUMNS = "abcdefghi"
RADIUS = 4
N_CELLS = 61
ALL_CELLS = (1 << N_CELLS) - 1

_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def _build_cells() -> list[tuple[int, int]]:
    cells = []
    for q in range(-RADIUS, RADIUS + 1):
        for r in range(max(-RADIUS, -RADIUS - q), min(RADIUS, RADIUS - q) + 1):
            cells.append((q, r))
    return cells


COORDS: tuple[tuple[int, int], ...] = tuple(_build_cells())
INDEX: dict[tuple[int, int], int] = {qr: i for i, qr in enumerate(COORDS)}
NAMES: tuple[str, ...] = tuple(f"{COLUMNS[q + RADIUS]}{r - max(-RADIUS, -RADIUS - q) + 1}" for q, r in COORDS)
NAME_INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
COLUMN_LENGTHS: tuple[int, ...] = tuple(sum(1 for q, _ in COORDS if q == col - RADIUS) for col in range(2 * RADIUS + 1))


def hex_distance(a: int, b: int) -> int:
    """Steps between two cells on an unbounded hex grid."""
    (q1, r1), (q2, r2) = COORDS[a], COORDS[b]
    dq, dr = q1 - q2, r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


def _mask_at_distance(cell: int, distance: int) -> int:
    mask = 0
    for other in range(N_CELLS):
        if hex_distance(cell, other) == distance:
            mask |= 1 << other
    return mask


# NEIGHBOURS[i]: bitboard of the (up to 6) cells adjacent to i; JUMPS[i]: the (up to 12)
# cells at distance exactly 2.  Holes are not removed here: a map masks them at use.
NEIGHBOURS: tuple[int, ...] = tuple(_mask_at_distance(i, 1) for i in range(N_CELLS))
JUMPS: tuple[int, ...] = tuple(_mask_at_distance(i, 2) for i in range(N_CELLS))
HALF_TURN: tuple[int, ...] = tuple(INDEX[(-q, -r)] for q, r in COORDS)

CORNERS: tuple[int, ...] = tuple(NAME_INDEX[n] for n in ("a1", "a5", "e1", "e9", "i1", "i5"))
RUBIN_START = tuple(NAME_INDEX[n] for n in ("e1", "i5", "a5"))
PERLE_START = tuple(NAME_INDEX[n] for n in ("i1", "e9", "a1"))
CENTRE = NAME_INDEX["e5"]


def bits(mask: int) -> list[int]:
    """The cell indices set in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cells: list[int] | tuple[int, ...]) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def half_turn_mask(mask: int) -> int:
    """The bitboard rotated by 180° about e5."""
    out = 0
    for cell in bits(mask):
        out |= 1 << HALF_TURN[cell]
    return out


def names_of(mask: int) -> list[str]:
    return [NAMES[i] for i in bits(mask)]
