"""Move text and the position text (FEN-like) of Battlegeneral.

**Moves** (play phase): ``a4-a5`` — from square, ``-``, to square; a scout run is
written the same way (``a4-a8``).  Attacks may be written ``a4xa5``; the history and
the record annotate every fight with both ranks, attacker first:
``a4xa5 (6:4)``, ``b4xb5 (S:10)``, ``e4xe8 (2:B)``.  :func:`parse_move_text` accepts all
of these forms (``-`` or ``x``, with or without the annotation, any case).
Setup moves are described in :mod:`.setup_phase`.

**Position**: four or five fields separated by spaces::

    <board> <side> <quiet> <ply> [<ready>]

``<board>`` lists ranks 10 down to 1 separated by ``/``; within a rank files a → j.
A digit run (``1``–``10``) is that many empty squares, ``~`` is a lake square (each of
the eight must be written), and a piece is its letter — upper case Red, lower case
Blue — followed by optional marks: ``+`` has moved, ``^`` has moved more than one
square in a line (implies ``+``; written instead of it), ``*`` its rank was shown in a
fight.  Letters: ``M`` Feldmarschall (10), ``G`` General (9), ``O`` Oberst (8), ``J``
Major (7), ``H`` Hauptmann (6), ``L`` Leutnant (5), ``U`` Unteroffizier (4), ``N``
Mineur (3), ``A`` Aufklärer (2), ``S`` Spion, ``B`` Mine, ``F`` Fahne.

``<side>`` is ``r`` or ``b`` (play phase: who moves) or ``-`` (setup phase).
``<quiet>`` is the number of moves in a row without a fight, ``<ply>`` the number of
moves played.  ``<ready>`` (setup phase only): ``-``, ``r``, ``b`` or ``rb``.
Pieces missing from an army were captured (in fights, so their ranks are known).
The repetition history is not part of a position; a position starts without one.

Example: two Blitzkrieg setups facing each other, Red to move::

    abfbhnaluu/jabajnubsl/lnnabahajb/aohumghlon/2~~2~~2/2~~2~~2/NOLHGMUHOA/BJAHABANNL/LSBUNJABAJ/UULANHBFBA r 0 0

(``python -m shared.games perft general --position "…" --depth 5``: 8, 63, 707,
7914, 98086.)  A setup-phase position: ``10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/M9 - 0 0 -``.
"""

from __future__ import annotations

import re

from shared.games.base import BadNotation
from shared.games.general.board import LAKES, parse_square, square_name
from shared.games.general.pieces import FLAG, MINE, SCOUT, TOKENS, parse_rank_token
from shared.games.general.state import MOVED, PLAY, REVEALED, SCOUTED, State

LETTERS: dict[int, str] = {10: "M", 9: "G", 8: "O", 7: "J", 6: "H", 5: "L", 4: "U", 3: "N", 2: "A", 1: "S", MINE: "B", FLAG: "F"}
LETTER_TO_RANK: dict[str, int] = {letter: rank for rank, letter in LETTERS.items()}

_MOVE = re.compile(
    r"^\s*([a-j](?:10|[1-9]))\s*([-x])\s*([a-j](?:10|[1-9]))\s*(?:\(\s*(10|[1-9sSbBfF])\s*:\s*(10|[1-9sSbBfF])\s*\))?\s*$",
    re.IGNORECASE,
)


def _bad(de: str, en: str) -> BadNotation:
    return BadNotation("bad_notation", de, en)


def parse_move_text(text: str) -> tuple[int, int, tuple[int, int] | None]:
    """``"a4xa5 (6:4)"`` → (from, to, (6, 4)); the annotation is None when absent."""
    match = _MOVE.match(text) if isinstance(text, str) else None
    if match is None:
        raise _bad(
            f"Kein Zug: {text!r} (Beispiel: a4-a5)",
            f"Not a move: {text!r} (example: a4-a5)",
        )
    frm, to = parse_square(match.group(1)), parse_square(match.group(3))
    annotation = None
    if match.group(4):
        annotation = (parse_rank_token(match.group(4)), parse_rank_token(match.group(5)))
    return frm, to, annotation  # type: ignore[return-value]


def format_move(frm: int, to: int, fight: int = 0) -> str:
    """The move's text; ``fight`` is ``attacker_rank * 16 + defender_rank`` or 0."""
    if not fight:
        return f"{square_name(frm)}-{square_name(to)}"
    return f"{square_name(frm)}x{square_name(to)} ({TOKENS[fight >> 4]}:{TOKENS[fight & 15]})"


def _piece_text(rank: int, owner: int, flags: int) -> str:
    letter = LETTERS[rank]
    text = letter if owner == 0 else letter.lower()
    if flags & SCOUTED:
        text += "^"
    elif flags & MOVED:
        text += "+"
    if flags & REVEALED:
        text += "*"
    return text


def board_text(cells: dict[int, tuple[int, int, int]]) -> str:
    """``cells``: {square: (rank, owner, flags)} → the ``<board>`` field."""
    rows = []
    for rank_index in range(9, -1, -1):
        row, empty = "", 0
        for file in range(10):
            square = rank_index * 10 + file
            if square in cells or square in LAKES:
                if empty:
                    row += str(empty)
                    empty = 0
                row += "~" if square in LAKES else _piece_text(*cells[square])
            else:
                empty += 1
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


def to_position(st: State) -> str:
    if st.phase == PLAY:
        cells = {
            square: (st.ranks[piece], piece // 40, st.flags[piece]) for piece, square in enumerate(st.pos) if square >= 0
        }
        return f"{board_text(cells)} {'rb'[st.to_move]} {st.quiet} {st.ply}"
    cells = {square: (rank, seat, 0) for seat in (0, 1) for square, rank in st.setups[seat].items()}
    ready = "".join(c for c, r in zip("rb", st.ready, strict=True) if r) or "-"
    return f"{board_text(cells)} - 0 0 {ready}"


def parse_board(text: str) -> dict[int, tuple[int, int, int]]:
    """The ``<board>`` field → {square: (rank, owner, flags)}; raises BadNotation."""
    rows = text.split("/")
    if len(rows) != 10:
        raise _bad("Die Stellung braucht 10 Reihen, getrennt durch /", "A position needs 10 ranks separated by /")
    cells: dict[int, tuple[int, int, int]] = {}
    for row_number, row in enumerate(rows):
        rank_index = 9 - row_number
        file, i = 0, 0
        while i < len(row):
            char = row[i]
            if char.isdigit():
                j = i
                while j < len(row) and row[j].isdigit():
                    j += 1
                run = int(row[i:j])
                if run < 1:
                    raise _bad(f"Ungültige Leerlauf-Zahl in Reihe {rank_index + 1}", f"Bad empty-run count in rank {rank_index + 1}")
                for _ in range(run):
                    if file < 10 and rank_index * 10 + file in LAKES:
                        raise _bad(f"See {square_name(rank_index * 10 + file)} muss als ~ stehen", f"Lake {square_name(rank_index * 10 + file)} must be written as ~")
                    file += 1
                i = j
                continue
            if file >= 10:
                break
            square = rank_index * 10 + file
            if char == "~":
                if square not in LAKES:
                    raise _bad(f"{square_name(square)} ist kein See", f"{square_name(square)} is not a lake")
                file += 1
                i += 1
                continue
            if square in LAKES:
                raise _bad(f"Auf dem See {square_name(square)} kann keine Figur stehen", f"No piece can stand on the lake {square_name(square)}")
            rank = LETTER_TO_RANK.get(char.upper())
            if rank is None:
                raise _bad(f"Unbekanntes Zeichen {char!r} in der Stellung", f"Unknown character {char!r} in the position")
            owner = 0 if char.isupper() else 1
            flags = 0
            i += 1
            while i < len(row) and row[i] in "+^*":
                flags |= {"+": MOVED, "^": MOVED | SCOUTED, "*": REVEALED}[row[i]]
                i += 1
            if rank > 10 and flags & MOVED:
                raise _bad(f"Minen und Fahne ziehen nie ({square_name(square)})", f"Mines and the flag never move ({square_name(square)})")
            if flags & SCOUTED and rank != SCOUT:
                raise _bad(f"Nur ein Aufklärer zieht mehrere Felder ({square_name(square)})", f"Only a scout moves several squares ({square_name(square)})")
            cells[square] = (rank, owner, flags)
            file += 1
        if file != 10 or i != len(row):
            raise _bad(f"Reihe {rank_index + 1} hat nicht genau 10 Felder", f"Rank {rank_index + 1} does not have exactly 10 squares")
    return cells
