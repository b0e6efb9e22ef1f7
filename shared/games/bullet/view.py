"""What leaves toward a client, and the board as text.

Battlebullet hides nothing: every seat and every spectator sees the same marbles,
pushed-out counts (the gutter) and move list.  The view still is the only door toward
a client; it adds the legal moves with their effects only for the seat to move, and
the *Gefahr an* highlights (own marbles the opponent could push out next move) for
both seats.
"""

from __future__ import annotations

from typing import Any

from shared.games.bullet.board import NAME, ROWS, cell_index, cells_of, is_cell
from shared.games.bullet.effects import effect
from shared.games.bullet.movegen import TEXT, moves_for, pushable_out
from shared.games.bullet.position import format_position
from shared.games.bullet.state import SEAT_NAMES, BulletState


def own_and_enemy(state: BulletState, seat: int) -> tuple[int, int]:
    return (state.white, state.black) if seat == 0 else (state.black, state.white)


def legal_ids(state: BulletState) -> list[int]:
    """Legal move ids of the side to move; none once the game is over."""
    if state.outcome is not None:
        return []
    own, enemy = own_and_enemy(state, state.side)
    return moves_for(own, enemy)


def danger(state: BulletState, seat: int) -> list[str]:
    """Cells of ``seat``'s marbles the opponent could push off the board with one move."""
    own, enemy = own_and_enemy(state, seat)
    return [NAME[c] for c in cells_of(pushable_out(enemy, own))]


def view(state: BulletState, seat: int | None) -> dict[str, Any]:
    to_move = [] if state.outcome is not None else [state.side]
    moves = []
    if seat is not None and seat in to_move:
        moves = [{"text": TEXT[m], "effect": effect(m)} for m in legal_ids(state)]
    position = format_position(state.white, state.black, state.side, state.out, state.ply)
    limit = state.move_limit
    return {
        "game": "bullet",
        "seat": seat,
        "options": state.options,
        "to_move": to_move,
        "position": position,
        "marbles": {
            "white": [NAME[c] for c in cells_of(state.white)],
            "black": [NAME[c] for c in cells_of(state.black)],
        },
        "pushed_out": [state.out[0], state.out[1]],
        "on_board": [state.white.bit_count(), state.black.bit_count()],
        "win_target": state.win_target,
        "ply": state.ply,
        "moves_left": None if limit is None else [max(0, limit - (state.ply + 1 - s) // 2) for s in (0, 1)],
        "history": [TEXT[m] for m in state.moves],
        "start": state.start,
        "legal_moves": moves,
        "danger": [danger(state, 0), danger(state, 1)],
        "outcome": None if state.outcome is None else state.outcome.to_dict(),
    }


def render(state: BulletState) -> str:
    """Hex board, row I on top; ``O`` Weiß, ``@`` Schwarz, ``.`` empty; each row names its cells."""
    lines = []
    for r in range(9, 0, -1):
        diags = [d for d in range(1, 10) if is_cell(r, d)]
        marks = []
        for d in diags:
            bit = 1 << cell_index(r, d)
            marks.append("O" if state.white & bit else "@" if state.black & bit else ".")
        row = f"{' ' * abs(r - 5)}{ROWS[r - 1]} {' '.join(marks)}"
        lines.append(f"{row:<22}{ROWS[r - 1]}{diags[0]}-{ROWS[r - 1]}{diags[-1]}")
    if state.outcome is not None:
        status = f"Ende: {state.outcome.de} / End: {state.outcome.en}"
    else:
        de, en = SEAT_NAMES[state.side]
        status = f"{de} am Zug / {en} to move"
    lines.append(status)
    lines.append(
        f"Hinausgeschoben / pushed out: Weiß {state.out[0]}, Schwarz {state.out[1]} (Ziel/target {state.win_target})"
    )
    return "\n".join(lines)
