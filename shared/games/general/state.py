"""The Battlegeneral state: one object, never changed after it is built.

Pieces have stable ids ``0..79``: Red ``0..39``, Blue ``40..79``.  Ids are handed
out when play begins, in square order (a1, b1, … j10) per army, so an id says
nothing about a rank; pieces missing from a position (already captured) get the ids
after those on the board.

Fields (all plain ints, lists and tuples so a copy is cheap):

* ``board`` — 100 cells, ``0`` empty (lakes are always 0), else ``piece id + 1``.
* ``pos`` — square of each piece id, ``-1`` once captured.
* ``ranks`` — rank code of each piece id (fixed for the whole game).
* ``flags`` — per piece id: ``MOVED`` (ever moved), ``SCOUTED`` (moved more than one
  square in a line), ``REVEALED`` (rank shown in a fight).
* ``to_move`` (0/1), ``quiet`` (moves in a row without a fight), ``ply`` (moves
  played in the play phase), ``hash`` (Zobrist key of pieces on squares and the side
  to move, for the more-squares rule).
* ``plies`` — the play moves as a linked list, newest first:
  ``(mover, piece, from, to, fight, hash_after, parent)``; ``fight`` is 0 for a quiet
  move, else ``attacker_rank * 16 + defender_rank``.
* ``streaks`` — per seat ``(piece, from, to, count)`` of its last move and how many of
  its moves in a row went back and forth between those two squares (two-squares rule).
* setup phase: ``setups`` (per seat {square: rank}), ``ready`` (per seat),
  ``setup_log`` ((seat, text) in order); ``phase`` is ``SETUP`` or ``PLAY``.
* ``start`` — the position text when play began (both setups; for the record).
* ``options``, ``seed``, ``outcome``.
"""

from __future__ import annotations

import random
from typing import Any

from shared.games.base import Outcome
from shared.games.general.pieces import ARMY

SETUP, PLAY = 0, 1
MOVED, SCOUTED, REVEALED = 1, 2, 4
PIECES = 80

# Zobrist keys: a fixed table from a fixed seed (not global randomness: the same on
# every machine and run), so position keys stored in a state stay valid after JSON.
_zobrist_random = random.Random(0x6E6E7261)
ZOBRIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(_zobrist_random.getrandbits(62) for _ in range(100)) for _ in range(PIECES)
)
BLUE_TO_MOVE_KEY = _zobrist_random.getrandbits(62)


class State:
    """An immutable Battlegeneral state (see the module docstring for the fields)."""

    __slots__ = (
        "options",
        "seed",
        "phase",
        "setups",
        "ready",
        "setup_log",
        "board",
        "pos",
        "ranks",
        "flags",
        "to_move",
        "quiet",
        "ply",
        "hash",
        "plies",
        "streaks",
        "start",
        "outcome",
    )

    options: dict[str, Any]
    seed: int
    phase: int
    setups: tuple[dict[int, int], dict[int, int]]
    ready: tuple[bool, bool]
    setup_log: tuple[tuple[int, str], ...]
    board: list[int]
    pos: list[int]
    ranks: tuple[int, ...]
    flags: list[int]
    to_move: int
    quiet: int
    ply: int
    hash: int
    plies: tuple | None
    streaks: tuple[tuple[int, int, int, int], tuple[int, int, int, int]]
    start: str
    outcome: Outcome | None

    def copy(self) -> State:
        """A shallow copy; callers replace (never mutate) the containers they change."""
        other = State.__new__(State)
        for name in State.__slots__:
            setattr(other, name, getattr(self, name))
        return other


NO_STREAK = (-1, -1, -1, 0)


def new_setup_state(options: dict[str, Any], seed: int) -> State:
    """The state before anyone placed a piece."""
    st = State.__new__(State)
    st.options = dict(options)
    st.seed = seed
    st.phase = SETUP
    st.setups = ({}, {})
    st.ready = (False, False)
    st.setup_log = ()
    st.board = [0] * 100
    st.pos = [-1] * PIECES
    st.ranks = (0,) * PIECES
    st.flags = [0] * PIECES
    st.to_move = 0
    st.quiet = 0
    st.ply = 0
    st.hash = 0
    st.plies = None
    st.streaks = (NO_STREAK, NO_STREAK)
    st.start = ""
    st.outcome = None
    return st


def assign_ids(armies: tuple[dict[int, int], dict[int, int]]) -> tuple[list[int], tuple[int, ...]]:
    """Ids in square order per army, then the missing (captured) pieces: (pos, ranks)."""
    pos = [-1] * PIECES
    ranks = [0] * PIECES
    for seat in (0, 1):
        next_id = seat * 40
        missing = dict(ARMY)
        for square in sorted(armies[seat]):
            rank = armies[seat][square]
            pos[next_id] = square
            ranks[next_id] = rank
            missing[rank] -= 1
            next_id += 1
        for rank, count in sorted(missing.items(), reverse=True):
            for _ in range(count):
                ranks[next_id] = rank
                next_id += 1
    return pos, tuple(ranks)


def position_hash(pos: list[int], to_move: int) -> int:
    key = BLUE_TO_MOVE_KEY if to_move else 0
    for piece, square in enumerate(pos):
        if square >= 0:
            key ^= ZOBRIST[piece][square]
    return key


def board_from_pos(pos: list[int]) -> list[int]:
    board = [0] * 100
    for piece, square in enumerate(pos):
        if square >= 0:
            board[square] = piece + 1
    return board


def ply_records(st: State) -> list[tuple[int, int, int, int, int, int]]:
    """The play moves oldest first as (mover, piece, from, to, fight, hash_after)."""
    out = []
    node = st.plies
    while node is not None:
        out.append(node[:6])
        node = node[6]
    out.reverse()
    return out
