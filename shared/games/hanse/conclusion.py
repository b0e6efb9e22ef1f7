"""A match the table ended — resigned, out of time, agreed, left — rather than the rules.

docs/rules.md: "After the game, everything."  The rules' own end (the deciding Ratssiegel)
puts the state in phase ``OVER``, and then the view shows every hand, the deck order
and the Ratsmarken left in the piles, and the record writes every deal.  A match the
table ends gets the same: :func:`conclude` returns a :class:`Concluded` state, phase
``OVER``, that carries the table's outcome (whose winner need not follow from the
seals).  It is terminal: no move is legal, and nothing copies it further.  Its
JSON form is that of a match over without the table's outcome: the table keeps its
result itself, and concludes the replayed state again (``shared.table_replay``).

The record keeps the table's end in an ``[Ende "<reason> <winner>"]`` header (winner
``0``, ``1`` or ``-`` for a draw; the texts are in ``Grund``), so that reading the
record back gives the concluded state again (:func:`conclude_from_record`).
"""

from __future__ import annotations

from shared.games.base import Outcome
from shared.games.hanse.state import _FIELDS, OVER, State

END_HEADER = "Ende"


class Concluded(State):
    """A state the table ended; ``table_outcome`` is its result."""

    __slots__ = ("table_outcome",)

    table_outcome: Outcome


def conclude(state: State, outcome: Outcome) -> State:
    """``state`` ended by the table with ``outcome``; a state the rules ended stays as it is."""
    if state.phase == OVER:
        return state
    ended = Concluded.__new__(Concluded)
    for name in _FIELDS:
        setattr(ended, name, getattr(state, name))
    ended.phase = OVER
    ended.table_outcome = outcome
    return ended


def table_outcome(state: State) -> Outcome | None:
    """The table's outcome of a concluded state, else None (the rules decide)."""
    return state.table_outcome if isinstance(state, Concluded) else None


def end_header(outcome: Outcome) -> dict[str, str]:
    """The record header that says how the table ended the match."""
    winner = "-" if outcome.winner is None else str(outcome.winner)
    return {END_HEADER: f"{outcome.reason} {winner}"}


def conclude_from_record(state: State, headers: dict[str, str]) -> State:
    """The replayed ``state`` of a record, concluded when its ``headers`` say the table ended it."""
    reason, _, winner = headers.get(END_HEADER, "").partition(" ")
    if not reason or winner not in ("0", "1", "-"):
        return state
    de, _, en = headers.get("Grund", "").partition(" / ")
    return conclude(state, Outcome(None if winner == "-" else int(winner), reason, de, en or de))
