"""Move text and position text of Battlehexagon.

**Cells** are named by column ``a``–``i`` and number from the top (``a1``–``a5``,
``e1``–``e9``, …).

**Moves**: a clone (Verdoppeln) is its destination, ``e2``; a jump (Springen) is
``from-to``, ``e1-e3``; a pass (Aussetzen) is written ``— setzt aus``.  Parsing is
lenient: case and spaces do not matter, ``x`` or ``–``/``—`` may stand for ``-`` in a
jump, and ``pass``, ``--``, ``—`` or ``setzt aus`` are read as a pass.

**Position** (FEN-like), three fields separated by spaces::

    p3r/6/7/8/r7p/8/7/6/p3r r 0

1. the board, column ``a`` to ``i`` separated by ``/``, each column top to bottom:
   ``r`` a Rubin stone, ``p`` a Perle stone, ``-`` a hole, a digit 1–9 that many
   empty cells (each column must add up to its length 5,6,7,8,9,8,7,6,5);
2. the side to move, ``r`` (Rubin) or ``p`` (Perle);
3. the clock: moves in a row without a clone so far (0–99; the 50-move rule).

The end rule is not part of the position; it comes with the options.  Nor is the
list of earlier positions: a game begun from a position counts repetitions from there.
"""

from __future__ import annotations

import re

from shared.games.base import BadNotation
from shared.games.hexagon.board import COLUMN_LENGTHS, N_CELLS, NAME_INDEX, NAMES
from shared.games.hexagon.moves import CLONE_FROM, PASS

PASS_TEXT = "— setzt aus"
_PASS_WORDS = {"— setzt aus", "-- setzt aus", "setzt aus", "pass", "--", "—", "–", "passe", "aussetzen"}
_CELL = r"([a-z])(\d{1,2})"
_CLONE_RE = re.compile(rf"^{_CELL}$")
_JUMP_RE = re.compile(rf"^{_CELL}\s*[-x–—]\s*{_CELL}$")


def move_text(move: int) -> str:
    if move == PASS:
        return PASS_TEXT
    frm, to = move >> 6, move & 63
    if frm == CLONE_FROM:
        return NAMES[to]
    return f"{NAMES[frm]}-{NAMES[to]}"


def cell_index(letter: str, number: str) -> int:
    name = f"{letter}{int(number)}"
    if name not in NAME_INDEX:
        raise BadNotation("no_such_cell", f"Kein Feld namens {name!r}", f"There is no cell {name!r}")
    return NAME_INDEX[name]


def parse_shape(text: object) -> tuple[str, int | None, int | None]:
    """Read move text into ``(kind, from, to)`` without looking at a position.

    ``kind`` is ``"clone"``, ``"jump"`` or ``"pass"``; raises :class:`BadNotation`.
    """
    if not isinstance(text, str):
        raise BadNotation("not_text", "Ein Zug muss Text sein", "A move must be text")
    cleaned = " ".join(text.strip().lower().split())
    if cleaned in _PASS_WORDS:
        return "pass", None, None
    match = _CLONE_RE.match(cleaned)
    if match:
        return "clone", None, cell_index(*match.groups())
    match = _JUMP_RE.match(cleaned)
    if match:
        a, b, c, d = match.groups()
        return "jump", cell_index(a, b), cell_index(c, d)
    raise BadNotation(
        "bad_move_text",
        f"Unlesbarer Zug {text[:40]!r} (Verdoppeln: e2, Springen: e1-e3, Aussetzen: — setzt aus)",
        f"Unreadable move {text[:40]!r} (clone: e2, jump: e1-e3, pass: — setzt aus)",
    )


def board_text(red: int, white: int, holes: int) -> str:
    columns = []
    cell = 0
    for length in COLUMN_LENGTHS:
        out = ""
        run = 0
        for _ in range(length):
            bit = 1 << cell
            symbol = "r" if red & bit else "p" if white & bit else "-" if holes & bit else ""
            if symbol:
                if run:
                    out += str(run)
                    run = 0
                out += symbol
            else:
                run += 1
            cell += 1
        if run:
            out += str(run)
        columns.append(out)
    return "/".join(columns)


def position_text(red: int, white: int, holes: int, side: int, clock: int) -> str:
    return f"{board_text(red, white, holes)} {'rp'[side]} {clock}"


def _bad_position(detail_de: str, detail_en: str) -> BadNotation:
    return BadNotation("bad_position", f"Ungültige Stellung: {detail_de}", f"Invalid position: {detail_en}")


def parse_position(text: object) -> tuple[int, int, int, int, int]:
    """Position text → ``(red, white, holes, side, clock)``; raises :class:`BadNotation`."""
    if not isinstance(text, str):
        raise _bad_position("kein Text", "not text")
    fields = text.split()
    if len(fields) != 3:
        raise _bad_position("erwartet Brett, Seite, Zähler", "expected board, side, clock")
    board, side_text, clock_text = fields
    columns = board.split("/")
    if len(columns) != len(COLUMN_LENGTHS):
        raise _bad_position("es braucht 9 Spalten a–i", "needs 9 columns a–i")
    red = white = holes = 0
    cell = 0
    for column, length in zip(columns, COLUMN_LENGTHS, strict=True):
        used = 0
        for char in column:
            if char.isdigit() and char != "0":
                used += int(char)
                cell += int(char)
                continue
            if char not in "rp-":
                raise _bad_position(f"unbekanntes Zeichen {char!r}", f"unknown character {char!r}")
            if used >= length:
                raise _bad_position(f"eine Spalte hat nur {length} Felder", f"a column has only {length} cells")
            if char == "r":
                red |= 1 << cell
            elif char == "p":
                white |= 1 << cell
            else:
                holes |= 1 << cell
            used += 1
            cell += 1
        if used != length:
            raise _bad_position(
                f"eine Spalte hat {length} Felder, nicht {used}", f"a column has {length} cells, not {used}"
            )
    if cell != N_CELLS:
        raise _bad_position("falsche Feldzahl", "wrong number of cells")
    if side_text not in ("r", "p"):
        raise _bad_position("Seite muss r oder p sein", "side must be r or p")
    if not clock_text.isdigit() or int(clock_text) > 99:
        raise _bad_position("Zähler muss 0–99 sein", "clock must be 0–99")
    return red, white, holes, "rp".index(side_text), int(clock_text)
