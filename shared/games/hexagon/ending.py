"""When a game of Battlehexagon ends, who won, and which moves are legal until then.

Checked in this order (the first that holds decides):

1. ``brett_voll`` — no empty playable cell;
2. ``keine_steine`` — one side has no stone;
3. the side to move has no clone or jump:
   under Auffüllen ``keine_zuege`` — every empty cell counts for the opponent;
   under Aussetzen it passes, unless the opponent cannot move either:
   ``keine_zuege_beide`` — the game ends with the cells as they are;
4. ``fuenfzig_zuege`` — 100 moves in a row (50 per side) without a clone, passes
   included: draw;
5. ``wiederholung`` — the same stones with the same side to move for the third time: draw.

For 1–3 more cells wins and equal cells is a draw; the score is (Rubin, Perle) cells.
"""

from __future__ import annotations

from enum import StrEnum

from shared.games.base import Outcome
from shared.games.hexagon.moves import PASS, generate, has_move
from shared.games.hexagon.state import DRAW_CLOCK, REPETITIONS, State


class HexagonReason(StrEnum):
    """How the rules end a game of Battlehexagon (the codes of the list above)."""

    BOARD_FULL = "brett_voll"
    NO_STONES = "keine_steine"
    NO_MOVE = "keine_zuege"
    NEITHER_MOVES = "keine_zuege_beide"
    FIFTY_MOVES = "fuenfzig_zuege"
    REPETITION = "wiederholung"


REASONS: dict[HexagonReason, tuple[str, str]] = {
    HexagonReason.BOARD_FULL: ("Brett voll", "Board full"),
    HexagonReason.NO_STONES: ("Keine Steine mehr", "No stones left"),
    HexagonReason.NO_MOVE: ("Kein Zug mehr (Auffüllen)", "No move left (fill up)"),
    HexagonReason.NEITHER_MOVES: ("Keine Seite kann mehr ziehen", "Neither side can move"),
    HexagonReason.FIFTY_MOVES: ("50-Züge-Regel", "50-move rule"),
    HexagonReason.REPETITION: ("Dreifache Wiederholung", "Threefold repetition"),
}


def _decided(reason: HexagonReason, red_cells: int, white_cells: int) -> Outcome:
    winner = 0 if red_cells > white_cells else 1 if white_cells > red_cells else None
    de, en = REASONS[reason]
    return Outcome(winner, reason, de, en, (float(red_cells), float(white_cells)))


def _drawn(reason: HexagonReason, state: State) -> Outcome:
    de, en = REASONS[reason]
    return Outcome(None, reason, de, en, (float(state.red.bit_count()), float(state.white.bit_count())))


def _compute(state: State) -> Outcome | None:
    red, white = state.red, state.white
    empty = state.empty
    if empty == 0:
        return _decided(HexagonReason.BOARD_FULL, red.bit_count(), white.bit_count())
    if red == 0 or white == 0:
        return _decided(HexagonReason.NO_STONES, red.bit_count(), white.bit_count())
    if not has_move(state.me, empty):
        if not state.setup.passes:
            filled = empty.bit_count()
            if state.side == 0:
                return _decided(HexagonReason.NO_MOVE, red.bit_count(), white.bit_count() + filled)
            return _decided(HexagonReason.NO_MOVE, red.bit_count() + filled, white.bit_count())
        if not has_move(state.opp, empty):
            return _decided(HexagonReason.NEITHER_MOVES, red.bit_count(), white.bit_count())
    if state.clock >= DRAW_CLOCK:
        return _drawn(HexagonReason.FIFTY_MOVES, state)
    if state.seen.count(state.seen[-1]) >= REPETITIONS:
        return _drawn(HexagonReason.REPETITION, state)
    return None


def end_of(state: State) -> Outcome | None:
    """The outcome, or None while the game runs (cached on the state)."""
    cached = state.cached_outcome
    if cached is None:
        result = _compute(state)
        state.cached_outcome = result if result is not None else False
        return result
    return cached or None


def legal(state: State) -> list[int]:
    """Every legal move int in ``state``: clones, jumps, or the lone pass; [] when over."""
    if end_of(state) is not None:
        return []
    moves = generate(state.me, state.empty)
    if not moves:
        return [PASS]  # not over and no move: only possible under Aussetzen
    return moves
