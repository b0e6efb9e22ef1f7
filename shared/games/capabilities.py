"""What only some games offer, declared as protocols.

A game has a capability when its engine has the methods (``isinstance(engine,
RoundPauses)``).  Code that serves any game asks that way instead of probing for a
method by name (the table's round pause does); a game's own computer player and tests
call the methods of the engine they know directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

F = TypeVar("F")  # the state a fast path works on (the engine's state, or a leaner tuple)


@runtime_checkable
class RoundPauses(Protocol):
    """A game played in rounds with a pause between them (Battlehanse's Rundentafel):
    while it lasts nobody is to move, the clocks stand still, and the one legal move
    ends it."""

    def is_round_pause(self, state: Any) -> bool: ...


@runtime_checkable
class Reshuffles(Protocol):
    """A game with unseen cards that a take-back at a computer table mixes anew, so the
    player cannot learn what comes next by taking a move back (Battlehanse)."""

    def reshuffle_unseen(self, state: Any, seed: int) -> Any: ...

    def undo_and_reshuffle(self, state: Any, seed: int) -> Any: ...


@runtime_checkable
class FastPlay(Protocol[F]):
    """Move ints and an unchecked apply for the computer opponents' searches: no text,
    no legality check, no history beyond what the end rules need."""

    def fast_moves(self, state: F) -> Sequence[int]: ...

    def fast_apply(self, state: F, move: int) -> F: ...


@runtime_checkable
class Bitboards(Protocol):
    """The board as ``(me, opp, empty, side)`` bitboards from the side to move's view
    (Battlehexagon, for the numba search kernels)."""

    def fast_board(self, state: Any) -> tuple[int, int, int, int]: ...
