"""Move notation: ``<marbles>-<where they land>``.

A move names the marbles that move and the cells they move to, each as the two ends
of a line (or one cell for a single marble):

* ``A1-B2``        one marble from A1 to B2;
* ``A1A3-A2A4``    the line A1, A2, A3 moves one cell east (in line, the front
  marble lands on A4, pushing whatever the rules allow);
* ``C3C4-D3D4``    the pair C3, C4 moves sideways to D3, D4 (broadside).

The ends name the whole line: ``A1A3`` is A1, A2, A3.  Both halves are read as sets,
so the ends may be named in either order (``A3A1-A4A2`` is the same move).  The
canonical form, used in the move list and the record, names the lower cell (earlier
row, then lower diagonal) first.  Pushes need no marker: which enemy marbles move
follows from the position.  Case and spaces are ignored when reading.
"""

from __future__ import annotations

import re

from shared.games.base import BadNotation, IllegalMove
from shared.games.bullet.board import INDEX, NAME, SHIFTS

_MOVE_RE = re.compile(r"^([A-I][1-9])([A-I][1-9])?-([A-I][1-9])([A-I][1-9])?$")
_LINE_STEPS = {k * s: s for s in SHIFTS for k in (1, 2)}


def _cell(name: str) -> int:
    if name not in INDEX:
        raise BadNotation("bad_cell", f"Kein Feld des Bretts: {name}", f"Not a cell of the board: {name}")
    return INDEX[name]


def _line(first: str, last: str | None) -> tuple[int, ...]:
    a = _cell(first)
    if last is None:
        return (a,)
    b = _cell(last)
    step = _LINE_STEPS.get(b - a)
    if step is None:
        raise IllegalMove(
            "not_a_line",
            f"{first} und {last} begrenzen keine Reihe aus zwei oder drei Kugeln",
            f"{first} and {last} do not bound a line of two or three marbles",
        )
    return tuple(sorted(range(a, b + step, step)))


def read_move(text: str) -> tuple[tuple[int, ...], int]:
    """Text → (moving cells ascending, direction).  Raises BadNotation / IllegalMove."""
    if not isinstance(text, str):
        raise BadNotation("bad_move_text", "Kein Zug in Textform", "A move must be text")
    cleaned = "".join(text.split()).upper()
    match = _MOVE_RE.match(cleaned)
    if match is None:
        raise BadNotation(
            "bad_move_text",
            f"Unlesbarer Zug: {text!r} (Beispiel: A1A3-B1B3)",
            f"Unreadable move: {text!r} (example: A1A3-B1B3)",
        )
    source = _line(match.group(1), match.group(2))
    target = _line(match.group(3), match.group(4))
    if len(source) != len(target):
        raise IllegalMove(
            "count_mismatch",
            "Es müssen so viele Zielfelder wie Kugeln genannt sein",
            "The move must name as many target cells as marbles",
        )
    wanted = set(target)
    for direction, shift in enumerate(SHIFTS):
        if {c + shift for c in source} == wanted:
            return source, direction
    raise IllegalMove(
        "not_one_step",
        "Die Kugeln rücken genau ein Feld in eine gemeinsame Richtung",
        "The marbles move exactly one cell in one common direction",
    )


def cell_names(cells: tuple[int, ...] | list[int]) -> list[str]:
    return [NAME[c] for c in cells]
