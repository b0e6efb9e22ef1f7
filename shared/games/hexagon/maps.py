"""The maps of Battlehexagon: which of the 61 cells are holes.

Diagrams show the board as ``show`` draws it (columns a … i left to right, each
numbered from the top; ``o`` a playable cell, ``#`` a hole).

*Klassisch*: all 61 cells.

*Dreiloch* (docs/rules.md "Maps"): holes ``e4 d5 f5``, three alternating neighbours of the
centre pointing toward Rubin's corners (58 cells)::

            o
          o   o
        o   o   o
      o   o   o   o
    o   o   o   o   o
      o   o   o   o
    o   o   #   o   o
      o   o   o   o
    o   o   o   o   o
      o   #   #   o
    o   o   o   o   o
      o   o   o   o
    o   o   o   o   o
      o   o   o   o
        o   o   o
          o   o
            o

*Krater*: the centre and its whole ring are a crater, holes ``e5`` and its six
neighbours ``d4 d5 e4 e6 f4 f5`` (54 cells)::

            o
          o   o
        o   o   o
      o   o   o   o
    o   o   o   o   o
      o   o   o   o
    o   o   #   o   o
      o   #   #   o
    o   o   #   o   o
      o   #   #   o
    o   o   #   o   o
      o   o   o   o
    o   o   o   o   o
      o   o   o   o
        o   o   o
          o   o
            o

*Burggraben*: the twelve cells at distance 2 from the centre are a moat
(``c3 c4 c5 d3 d6 e3 e7 f3 f6 g3 g4 g5``), so the castle (``e5`` and its six
neighbours) touches nothing outside and can be entered only by a jump over the
moat (49 cells).  Connected through moves (jumps), not through neighbours::

            o
          o   o
        o   o   o
      o   o   o   o
    o   o   #   o   o
      o   #   #   o
    o   #   o   #   o
      o   o   o   o
    o   #   o   #   o
      o   o   o   o
    o   #   o   #   o
      o   #   #   o
    o   o   #   o   o
      o   o   o   o
        o   o   o
          o   o
            o

*Säulen*: six pillars on the ring at distance 3, turned 60° from each other
(``b4 c2 d7 f2 g6 h3``), off the corners' neighbours (55 cells)::

            o
          o   o
        o   o   o
      o   o   #   o
    o   #   o   o   o
      o   o   o   o
    o   o   o   o   o
      o   o   o   #
    o   o   o   o   o
      #   o   o   o
    o   o   o   o   o
      o   o   o   o
    o   o   o   #   o
      o   #   o   o
        o   o   o
          o   o
            o

Krater, Burggraben and Säulen are even invariant under every 60° turn, so the
half-turn about ``e5`` (Rubin's corners onto Perle's) leaves them unchanged.

*Zufall*: :func:`random_holes` draws holes from ``random.Random(map_seed)``.  Holes
come in pairs {cell, its half-turn image} (plus maybe ``e5`` itself, its own image),
never on a corner or a corner's neighbour; a draw whose playable cells are not
connected through neighbours is thrown away and the same generator draws again, so
the same seed always gives the same map.
"""

from __future__ import annotations

import random

from shared.games.hexagon.board import (
    ALL_CELLS,
    CENTRE,
    COORDS,
    CORNERS,
    HALF_TURN,
    INDEX,
    JUMPS,
    N_CELLS,
    NAME_INDEX,
    NEIGHBOURS,
    bits,
    mask_of,
)

MAP_NAMES = ("klassisch", "dreiloch", "krater", "burggraben", "saeulen", "zufall")


def _ring(distance: int) -> list[int]:
    return [i for i, (q, r) in enumerate(COORDS) if max(abs(q), abs(r), abs(q + r)) == distance]


def _named(*names: str) -> int:
    return mask_of([NAME_INDEX[n] for n in names])


FIXED_HOLES: dict[str, int] = {
    "klassisch": 0,
    "dreiloch": _named("e4", "d5", "f5"),
    "krater": mask_of(_ring(0) + _ring(1)),
    "burggraben": mask_of(_ring(2)),
    "saeulen": mask_of([INDEX[qr] for qr in ((1, -3), (3, -2), (2, 1), (-1, 3), (-3, 2), (-2, -1))]),
}

# Corners and their neighbours stay open on every map (the start needs room to move).
PROTECTED: int = mask_of(list(CORNERS))
for _corner in CORNERS:
    PROTECTED |= NEIGHBOURS[_corner]

# One representative per half-turn pair of cells that may become a hole.
_PAIR_CANDIDATES: tuple[int, ...] = tuple(
    cell for cell in range(N_CELLS) if cell < HALF_TURN[cell] and not (PROTECTED >> cell) & 1
)


def connected(playable: int, reach: tuple[int, ...] = NEIGHBOURS) -> bool:
    """Whether every playable cell is reachable from every other through ``reach`` steps."""
    if playable == 0:
        return True
    start = playable & -playable
    seen = start
    frontier = start
    while frontier:
        grown = 0
        for cell in bits(frontier):
            grown |= reach[cell]
        frontier = grown & playable & ~seen
        seen |= frontier
    return seen == playable


MOVE_REACH: tuple[int, ...] = tuple(NEIGHBOURS[i] | JUMPS[i] for i in range(N_CELLS))


def random_holes(map_seed: int) -> int:
    """The hole bitboard of the Zufall map for ``map_seed`` (deterministic)."""
    rng = random.Random(map_seed)
    while True:
        pairs = rng.randint(2, 7)
        holes = 0
        for cell in rng.sample(_PAIR_CANDIDATES, pairs):
            holes |= (1 << cell) | (1 << HALF_TURN[cell])
        if rng.random() < 0.3:
            holes |= 1 << CENTRE
        if connected(ALL_CELLS & ~holes):
            return holes


def holes_for(map_name: str, map_seed: int | None) -> int:
    if map_name == "zufall":
        return random_holes(map_seed if map_seed is not None else 0)
    return FIXED_HOLES[map_name]
