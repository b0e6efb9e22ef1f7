"""The Battlegeneral board: squares, lakes, neighbour and ray tables.

Squares are ints ``0..99``: ``square = (rank - 1) * 10 + file`` with file ``a`` = 0 …
``j`` = 9 and rank 1 on Red's side, so ``a1`` = 0, ``j1`` = 9, ``a10`` = 90.  The two
lakes (c5 d5 c6 d6 and g5 h5 g6 h6) are never entered; the tables below simply leave
them out, so the hot path never has to test for a lake.

Red (seat 0) sets up on ranks 1–4 (squares 0–39), Blue (seat 1) on ranks 7–10
(squares 60–99).
"""

from __future__ import annotations

FILES = "abcdefghij"
SIZE = 10
SQUARES = 100

LAKES: frozenset[int] = frozenset(
    (rank - 1) * 10 + FILES.index(f) for f, rank in (("c", 5), ("d", 5), ("c", 6), ("d", 6), ("g", 5), ("h", 5), ("g", 6), ("h", 6))
)

# (file step, rank step) for up, down, left, right: the order scouts' rays are listed in.
_DIRECTIONS = ((0, 1), (0, -1), (-1, 0), (1, 0))


def square_name(square: int) -> str:
    """``0`` → ``"a1"``."""
    return f"{FILES[square % 10]}{square // 10 + 1}"


def parse_square(text: str) -> int | None:
    """``"a1"`` → ``0``; None when the text is not a square (lakes are squares too)."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in FILES or not text[1:].isdigit():
        return None
    rank = int(text[1:])
    if not 1 <= rank <= 10 or text[1] == "0":
        return None
    return (rank - 1) * 10 + FILES.index(text[0])


def setup_half(seat: int) -> range:
    """The squares a seat sets up on: ranks 1–4 for Red, 7–10 for Blue."""
    return range(0, 40) if seat == 0 else range(60, 100)


def mirror_square(square: int) -> int:
    """Left–right mirror (file a ↔ j); the same on the board for both seats."""
    return square - square % 10 + (9 - square % 10)


def _rays(square: int) -> tuple[tuple[int, ...], ...]:
    rays = []
    file, rank = square % 10, square // 10
    for df, dr in _DIRECTIONS:
        ray = []
        f, r = file + df, rank + dr
        while 0 <= f < 10 and 0 <= r < 10 and r * 10 + f not in LAKES:
            ray.append(r * 10 + f)
            f, r = f + df, r + dr
        rays.append(tuple(ray))
    return tuple(rays)


# RAYS[sq] = four tuples of squares in a straight line from sq, stopping before the
# edge or a lake; NEIGHBOURS[sq] = the first square of each non-empty ray.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_rays(sq) for sq in range(SQUARES))
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(ray[0] for ray in rays if ray) for rays in RAYS)
NEIGHBOUR_SETS: tuple[frozenset[int], ...] = tuple(frozenset(n) for n in NEIGHBOURS)
