"""The board as a plain-text picture (for ``show``, records and map diagrams).

Columns run left to right (a … i), each column top to bottom; cell (q, r) sits on
text row 2r + q + 8 and text column 2(q + 4) (4(q + 4) with names), so neighbours touch diagonally the way
the hexes do on screen::

            e1
        d1      f1
    c1      e2      g1
    ...
"""

from __future__ import annotations

from shared.games.hexagon.board import COORDS, N_CELLS, NAMES


def picture(symbol_of: list[str], with_names: bool = False) -> str:
    """Lay out one short string per cell (index order) on the hex grid."""
    width = 4 if with_names else 2
    grid: dict[int, dict[int, str]] = {}
    for cell in range(N_CELLS):
        q, r = COORDS[cell]
        text = symbol_of[cell]
        if with_names:
            text = f"{NAMES[cell]}{text}"
        grid.setdefault(2 * r + q + 8, {})[(q + 4) * width] = text
    lines = []
    for row in range(17):
        line = ""
        for col, text in sorted(grid.get(row, {}).items()):
            line = line.ljust(col) + text
        lines.append(line.rstrip())
    return "\n".join(lines)
