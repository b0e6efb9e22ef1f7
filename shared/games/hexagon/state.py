"""The game state: an immutable snapshot plus what the draw rules need to remember.

A :class:`State` holds the two bitboards (``red`` = Rubin, seat 0; ``white`` = Perle,
seat 1), the side to move, ``clock`` (moves in a row without a clone — jumps and passes
count; 100 of them = 50 per side is a draw), ``seen`` (the position keys since the last
clone, current one included: a clone adds a stone, so no earlier position can come
back after it), the move history as a linked list of move ints, and the
:class:`Setup` it all started from (options, seed, holes, start position), which is
shared by every state of one game.

States are never changed after construction; :func:`advance` builds the next one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.games.hexagon.board import ALL_CELLS
from shared.games.hexagon.moves import CLONE_FROM, PASS, play

DRAW_CLOCK = 100  # 50 moves per side without a clone
REPETITIONS = 3


@dataclass(frozen=True)
class Setup:
    """Everything a game starts from; a game replays from (setup, moves)."""

    options: dict[str, Any]  # normalized: map, end_rule (+ map_seed for zufall if given)
    seed: int
    map_seed: int | None  # the seed the Zufall map was drawn from (None for fixed maps)
    holes: int
    start: str | None  # the position text when the game began from one, else None
    start_red: int
    start_white: int
    start_side: int
    start_clock: int

    @property
    def playable(self) -> int:
        return ALL_CELLS & ~self.holes

    @property
    def passes(self) -> bool:
        """End rule Aussetzen: a side without a move passes instead of losing the rest."""
        return self.options["end_rule"] == "aussetzen"


def position_key(red: int, white: int, side: int) -> int:
    """One int naming stones + side to move (what the repetition rule compares)."""
    return red | (white << 61) | (side << 122)


class State:
    __slots__ = ("setup", "red", "white", "side", "clock", "seen", "trail", "ply", "cached_outcome", "cached_view")

    def __init__(
        self,
        setup: Setup,
        red: int,
        white: int,
        side: int,
        clock: int,
        seen: tuple[int, ...],
        trail: tuple | None,
        ply: int,
    ) -> None:
        self.setup = setup
        self.red = red
        self.white = white
        self.side = side
        self.clock = clock
        self.seen = seen
        self.trail = trail  # (previous trail, move) or None at the start
        self.ply = ply
        self.cached_outcome: Any = None  # filled lazily by outcome.end_of; False = running
        self.cached_view: Any = None  # the seat-independent part of view.view, filled lazily

    @property
    def me(self) -> int:
        return self.white if self.side else self.red

    @property
    def opp(self) -> int:
        return self.red if self.side else self.white

    @property
    def empty(self) -> int:
        return self.setup.playable & ~(self.red | self.white)

    def moves(self) -> list[int]:
        """The move ints played since the start, oldest first."""
        out = []
        node = self.trail
        while node is not None:
            node, move = node
            out.append(move)
        out.reverse()
        return out

    def __repr__(self) -> str:
        return f"State(red={self.red:#x}, white={self.white:#x}, side={self.side}, clock={self.clock}, ply={self.ply})"


def initial(setup: Setup) -> State:
    key = position_key(setup.start_red, setup.start_white, setup.start_side)
    return State(setup, setup.start_red, setup.start_white, setup.start_side, setup.start_clock, (key,), None, 0)


def advance(state: State, move: int) -> State:
    """The state after ``move``; no legality check (callers check first)."""
    side = state.side
    if move == PASS:
        red, white = state.red, state.white
    elif side == 0:
        red, white = play(state.red, state.white, move)
    else:
        white, red = play(state.white, state.red, move)
    other = 1 - side
    key = position_key(red, white, other)
    if move >> 6 == CLONE_FROM and move != PASS:
        clock, seen = 0, (key,)
    else:
        clock, seen = state.clock + 1, state.seen + (key,)
    return State(state.setup, red, white, other, clock, seen, (state.trail, move), state.ply + 1)
