"""Position text (FEN-like): ``<rows> <side> <out Weiß> <out Schwarz> <plies>``.

* ``rows``: the nine rows from I (Schwarz's side, top) down to A, separated by ``/``;
  each row lists its cells by rising diagonal, ``w`` for a Weiß marble, ``b`` for a
  Schwarz marble and a digit for that many empty cells (row lengths 5,6,7,8,9,8,7,6,5
  from I to A);
* ``side``: ``w`` or ``b``, who moves next;
* ``out Weiß`` / ``out Schwarz``: marbles each side has pushed out so far (0–14);
* ``plies``: moves played by both sides so far (counts toward the move limit).

A game started from a position counts repetitions from that position on (the text
carries no earlier history).  The standard start is
``bbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww w 0 0 0``.
"""

from __future__ import annotations

from shared.games.base import BadNotation
from shared.games.bullet.board import MARBLES_PER_SIDE, cell_index, is_cell

_ROW_CELLS = {r: [d for d in range(1, 10) if is_cell(r, d)] for r in range(1, 10)}


def format_position(white: int, black: int, side: int, out: tuple[int, int], ply: int) -> str:
    rows = []
    for r in range(9, 0, -1):
        text, empty = "", 0
        for d in _ROW_CELLS[r]:
            bit = 1 << cell_index(r, d)
            mark = "w" if white & bit else "b" if black & bit else ""
            if not mark:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += mark
        if empty:
            text += str(empty)
        rows.append(text)
    return f"{'/'.join(rows)} {'wb'[side]} {out[0]} {out[1]} {ply}"


def _bad(de: str, en: str) -> BadNotation:
    return BadNotation("bad_position", f"Ungültige Stellung: {de}", f"Invalid position: {en}")


def parse_position(text: str) -> tuple[int, int, int, tuple[int, int], int]:
    """Position text → (white, black, side, out, plies).  Raises BadNotation."""
    if not isinstance(text, str):
        raise _bad("kein Text", "not text")
    fields = text.split()
    if len(fields) != 5:
        raise _bad(
            "erwartet werden 5 Felder (Reihen, Seite, Aus Weiß, Aus Schwarz, Halbzüge)",
            "expected 5 fields (rows, side, out white, out black, plies)",
        )
    rows = fields[0].split("/")
    if len(rows) != 9:
        raise _bad("erwartet werden 9 Reihen", "expected 9 rows")
    white = black = 0
    for r, row_text in zip(range(9, 0, -1), rows, strict=True):
        diags = _ROW_CELLS[r]
        pos = 0
        for ch in row_text:
            if ch.isdigit() and ch != "0":
                pos += int(ch)
            elif ch in "wb":
                if pos >= len(diags):
                    raise _bad(f"Reihe {'ABCDEFGHI'[r - 1]} ist zu lang", f"row {'ABCDEFGHI'[r - 1]} is too long")
                bit = 1 << cell_index(r, diags[pos])
                if ch == "w":
                    white |= bit
                else:
                    black |= bit
                pos += 1
            else:
                raise _bad(f"unerwartetes Zeichen {ch!r}", f"unexpected character {ch!r}")
        if pos != len(diags):
            raise _bad(
                f"Reihe {'ABCDEFGHI'[r - 1]} hat {pos} statt {len(diags)} Felder",
                f"row {'ABCDEFGHI'[r - 1]} has {pos} cells instead of {len(diags)}",
            )
    if fields[1] not in ("w", "b"):
        raise _bad("Seite muss w oder b sein", "side must be w or b")
    numbers = []
    for field in fields[2:]:
        if not field.isdigit() or len(field) > 6:
            raise _bad(f"keine Zahl: {field!r}", f"not a number: {field!r}")
        numbers.append(int(field))
    out_white, out_black, ply = numbers
    if out_white > MARBLES_PER_SIDE or out_black > MARBLES_PER_SIDE:
        raise _bad("höchstens 14 Kugeln hinausgeschoben", "at most 14 marbles pushed out")
    if white.bit_count() > MARBLES_PER_SIDE or black.bit_count() > MARBLES_PER_SIDE:
        raise _bad("höchstens 14 Kugeln je Seite", "at most 14 marbles per side")
    return white, black, "wb".index(fields[1]), (out_white, out_black), ply
