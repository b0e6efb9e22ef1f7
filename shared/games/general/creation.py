"""How a state comes to be: a new game, the start of play after both setups, or a
position text (:mod:`.notation` documents the format)."""

from __future__ import annotations

from typing import Any

from shared.games.base import BadNotation
from shared.games.general.board import setup_half, square_name
from shared.games.general.moves import end_of_game, flag_outcome
from shared.games.general.notation import parse_board, to_position
from shared.games.general.pieces import ARMY, ARMY_SIZE, FLAG, NAMES
from shared.games.general.state import (
    NO_STREAK,
    PLAY,
    REVEALED,
    State,
    assign_ids,
    board_from_pos,
    new_setup_state,
    position_hash,
)


def _bad(de: str, en: str) -> BadNotation:
    return BadNotation("bad_position", de, en)


def begin_play(
    st: State,
    armies: tuple[dict[int, int], dict[int, int]],
    square_flags: dict[int, int] | None = None,
    to_move: int = 0,
    quiet: int = 0,
    ply: int = 0,
) -> State:
    """The play-phase state with ``armies`` ({square: rank} per seat) on the board."""
    pos, ranks = assign_ids(armies)
    flags = [0] * len(pos)
    square_flags = square_flags or {}
    for piece, square in enumerate(pos):
        flags[piece] = square_flags.get(square, 0) if square >= 0 else REVEALED
    new = st.copy()
    new.phase = PLAY
    new.board = board_from_pos(pos)
    new.pos = pos
    new.ranks = ranks
    new.flags = flags
    new.to_move = to_move
    new.quiet = quiet
    new.ply = ply
    new.hash = position_hash(pos, to_move)
    new.plies = None
    new.streaks = (NO_STREAK, NO_STREAK)
    new.outcome = None
    new.start = to_position(new)
    has_flag = [any(r == FLAG and p >= 0 for r, p in zip(ranks[s * 40 : s * 40 + 40], pos[s * 40 : s * 40 + 40], strict=True)) for s in (0, 1)]
    if not has_flag[0] or not has_flag[1]:
        new.outcome = flag_outcome(0 if has_flag[0] else 1)
    else:
        new.outcome = end_of_game(new)
    return new


def from_position(text: str, options: dict[str, Any]) -> State:
    """Parse a position text into a state; raises :class:`BadNotation`."""
    if not isinstance(text, str):
        raise _bad("Die Stellung muss ein Text sein", "A position must be text")
    fields = text.split()
    if len(fields) not in (4, 5):
        raise _bad(
            "Die Stellung hat 4 oder 5 Teile: Brett, Seite, Züge ohne Kampf, Zugzahl [, fertig]",
            "A position has 4 or 5 fields: board, side, quiet moves, ply [, ready]",
        )
    cells = parse_board(fields[0])
    side, quiet_text, ply_text = fields[1], fields[2], fields[3]
    if side not in ("r", "b", "-"):
        raise _bad("Seite muss r, b oder - sein", "Side must be r, b or -")
    if not quiet_text.isdigit() or not ply_text.isdigit():
        raise _bad("Zugzahlen müssen Zahlen sein", "Move counts must be numbers")
    armies: tuple[dict[int, int], dict[int, int]] = ({}, {})
    for square, (rank, owner, _flags) in cells.items():
        armies[owner][square] = rank
    for seat in (0, 1):
        for rank, count in ARMY.items():
            have = sum(1 for r in armies[seat].values() if r == rank)
            if have > count:
                colour = ("Rot", "Red") if seat == 0 else ("Blau", "Blue")
                raise _bad(
                    f"{colour[0]} hat {have} × {NAMES[rank][0]}, erlaubt sind {count}",
                    f"{colour[1]} has {have} × {NAMES[rank][1]}, at most {count} allowed",
                )
    st = new_setup_state(options, 0)
    if side == "-":
        ready_text = fields[4] if len(fields) == 5 else "-"
        if ready_text not in ("-", "r", "b", "rb"):
            raise _bad("Fertig-Feld muss -, r, b oder rb sein", "Ready field must be -, r, b or rb")
        for square, (_rank, owner, flags) in cells.items():
            if square not in setup_half(owner) or flags:
                raise _bad(
                    f"In der Aufstellung steht {square_name(square)} falsch",
                    f"In the setup phase {square_name(square)} is not allowed",
                )
        ready = ("r" in ready_text, "b" in ready_text)
        for seat in (0, 1):
            if ready[seat] and len(armies[seat]) != ARMY_SIZE:
                raise _bad("Fertig nur mit allen 40 Figuren", "Ready only with all 40 pieces")
        st.setups = armies
        st.ready = ready
        return st
    if len(fields) == 5:
        raise _bad("Das Fertig-Feld gibt es nur in der Aufstellung", "The ready field exists only in the setup phase")
    if not any(r == FLAG for r in armies[0].values()) and not any(r == FLAG for r in armies[1].values()):
        raise _bad("Beide Fahnen fehlen", "Both flags are missing")
    square_flags = {square: flags for square, (_r, _o, flags) in cells.items()}
    return begin_play(st, armies, square_flags, 0 if side == "r" else 1, int(quiet_text), int(ply_text))
