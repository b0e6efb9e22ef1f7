"""The Battlebullet board: 61 cells, six directions, the three start layouts.

Cells use standard Abalone notation: rows ``A``–``I`` counted from Weiß's side,
diagonals ``1``–``9``.  Row ``r`` (A = 1 … I = 9) holds the diagonals ``d`` with
``|r - d| <= 4``: A1–A5, B1–B6, …, E1–E9, F2–F9, …, I5–I9.

Internally a cell is an index into an 11 × 11 grid, ``index = 11 * r + d``, with one
ring of padding cells around the board.  A board side is a bitboard: a Python int
with bit ``index`` set for every marble.  One step in a direction is a fixed shift of
the index, and because every real cell is surrounded by padding, one step from a
real cell always lands inside the grid (on a real cell or on padding = off board);
shifting whole bitboards therefore moves all marbles at once without wrapping.

Directions, as the board is drawn with Weiß at the bottom (row A) and the rows
horizontal (B1 up-left of A1, B2 up-right of A1):

======  ==========  ======
name    (Δrow, Δd)  shift
======  ==========  ======
``E``   (0, +1)     +1
``NE``  (+1, +1)    +12
``NW``  (+1, 0)     +11
``W``   (0, -1)     -1
``SW``  (-1, -1)    -12
``SE``  (-1, 0)     -11
======  ==========  ======

Direction ``i`` and ``(i + 3) % 6`` are opposite; directions 0–2 are the three line
axes.
"""

from __future__ import annotations

ROWS = "ABCDEFGHI"
WIDTH = 11
GRID_BITS = WIDTH * WIDTH
ALL = (1 << GRID_BITS) - 1

DIR_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
DIR_DELTAS = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))
SHIFTS = tuple(dr * WIDTH + dd for dr, dd in DIR_DELTAS)
AXES = (0, 1, 2)  # E, NE, NW: every line of marbles lies along one of them


def cell_index(row: int, diag: int) -> int:
    """Grid index of (row, diagonal), both 1-based."""
    return row * WIDTH + diag


def is_cell(row: int, diag: int) -> bool:
    """Whether (row, diagonal) is one of the 61 board cells."""
    return 1 <= row <= 9 and 1 <= diag <= 9 and abs(row - diag) <= 4


CELLS: tuple[int, ...] = tuple(cell_index(r, d) for r in range(1, 10) for d in range(1, 10) if is_cell(r, d))
VALID = sum(1 << c for c in CELLS)
OFF = ALL & ~VALID  # padding ring: "off the board" as seen from a real cell
NAME: dict[int, str] = {
    cell_index(r, d): f"{ROWS[r - 1]}{d}" for r in range(1, 10) for d in range(1, 10) if is_cell(r, d)
}
INDEX: dict[str, int] = {name: idx for idx, name in NAME.items()}


def step(cell: int, direction: int) -> int | None:
    """The neighbour of ``cell`` in ``direction``, or None off the board."""
    target = cell + SHIFTS[direction]
    return target if target in NAME else None


def mask_of(cells: list[int] | tuple[int, ...]) -> int:
    bits = 0
    for cell in cells:
        bits |= 1 << cell
    return bits


def cells_of(bits: int) -> list[int]:
    """The set bits of a bitboard, ascending (= by row, then diagonal)."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _names(spec: str) -> int:
    """``"A1-A5 C3-C5 B2"`` → bitboard (ranges run along one row)."""
    bits = 0
    for part in spec.split():
        if "-" in part:
            first, last = part.split("-")
            row = first[0]
            for d in range(int(first[1:]), int(last[1:]) + 1):
                bits |= 1 << INDEX[f"{row}{d}"]
        else:
            bits |= 1 << INDEX[part]
    return bits


# docs/rules.md, Battlebullet "Start": (Weiß, Schwarz) per layout.
LAYOUTS: dict[str, tuple[int, int]] = {
    "standard": (_names("A1-A5 B1-B6 C3-C5"), _names("I5-I9 H4-H9 G5-G7")),
    "belgisch": (
        _names("A1 A2 B1 B2 B3 C2 C3 G7 G8 H7 H8 H9 I8 I9"),
        _names("A4 A5 B4 B5 B6 C5 C6 G4 G5 H4 H5 H6 I5 I6"),
    ),
    "deutsch": (
        _names("B1 B2 C1 C2 C3 D2 D3 F7 F8 G7 G8 G9 H8 H9"),
        _names("B5 B6 C5 C6 C7 D6 D7 F3 F4 G3 G4 G5 H4 H5"),
    ),
}
MARBLES_PER_SIDE = 14
