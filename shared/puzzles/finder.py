"""Finding Aufgaben in positions: one move clearly best, the forced line, too easy, duplicates.

Pure: the search is passed in.  A search answers ``values(state, effort)`` — every
legal move of the side to move with its value for that side, best first (ties in a
fixed order), at a fixed effort (a depth or a sample count, never a clock), so the
same state and effort give the same answer on every machine.

A position is a puzzle when one move is *clearly best*: at the review effort and
again at the deeper check effort the best move is the same and leads the second best
by at least the game's gap.  A position with a single legal move is too easy.  The
line is extended while it stays forced: after the solver's move the computer answers
with its best reply (``reply``), and if the solver's next move is again clearly best
at both efforts the reply and that move join the line (up to ``max_solver_moves``).
A later move may be judged by a smaller gap (``follow_gap``) than the first: still
clearly the only good move, by less than the first's margin.  The line always ends
with a solver's move.

The rating (:func:`initial_rating`) comes from the effort the solution needs: the
first rung of the game's effort ladder at which the search already finds the first
solution move clearly best (by the gap), a step per further solver move, and a little
per legal move (the width the search and the solver have to look through).  It is
centred on a new player's rating (:data:`shared.glicko2.START_RATING`, 1500): a puzzle
whose first move needs the middle rung, with one solver move and
:data:`TYPICAL_CHOICES` legal moves, starts there; a newcomer meets middling puzzles
first, the easy ones sit below and the deep or long ones above.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from shared.glicko2 import START_RATING

Values = list[tuple[str, float]]
Search = Callable[[Any, int], Values]
Reply = Callable[[Any], str]
Judge = Callable[[Any], "tuple[str, Values] | None"]

# A ladder of two efforts gives rungs 0 (the shallower finds it), 1 and 2 (only the review and
# check efforts find it); the middle one is the players' start.
MIDDLE_RUNG = 1
TYPICAL_CHOICES = 20
RATING_PER_RUNG = 200.0  # each deeper rung of the ladder the first move needs
RATING_PER_MOVE = 150.0  # each further solver move of the line
RATING_PER_CHOICE = 2.0  # each legal move at the start, up to MAX_CHOICES
MAX_CHOICES = 60


@dataclass(frozen=True)
class Efforts:
    review: int  # the review effort (depth or samples)
    deep: int  # the check effort, deeper than review
    ladder: tuple[int, ...]  # rising efforts for the rating, the last one at most ``deep``
    gap: float  # the best move leads the second best by at least this much
    max_solver_moves: int = 3
    follow_gap: float | None = None  # the gap for the line's later solver moves (None: ``gap``)

    def gap_at(self, follow: bool) -> float:
        return self.gap if not follow or self.follow_gap is None else self.follow_gap


def clear_best(values: Values, gap: float) -> str | None:
    """The best move if it leads the second by at least ``gap``; None when unclear or
    when there is only one move (too easy)."""
    if len(values) < 2:
        return None
    (best, first), (_second, runner_up) = values[0], values[1]
    return best if first - runner_up >= gap else None


def judge(state: Any, search: Search, efforts: Efforts, follow: bool = False) -> tuple[str, Values] | None:
    """The clearly best move at both efforts and the deep values, else None (``follow``: a
    later solver move of the line, judged by the follow gap)."""
    gap = efforts.gap_at(follow)
    review = search(state, efforts.review)
    best = clear_best(review, gap)
    if best is None:
        return None
    deep = search(state, efforts.deep)
    if clear_best(deep, gap) != best:
        return None
    return best, deep


@dataclass(frozen=True)
class Line:
    moves: list[str]  # solver, reply, solver, ...: odd length
    values: list[Values]  # the deep values at each solver move


def forced_line(game: Any, state: Any, judge_: Judge, reply: Reply, max_solver_moves: int,
                follow: Judge | None = None) -> Line | None:
    """The solver's forced line from ``state`` (see the module docstring), or None when
    the first move is not clearly best.  ``judge_(state)``: the clearly best move and
    its values, or None (:func:`judge` with the game's search and efforts); ``follow``:
    the same for the later solver moves (default ``judge_``)."""
    follow = follow or judge_
    judged = judge_(state)
    if judged is None:
        return None
    moves, values = [judged[0]], [judged[1]]
    current = game.apply(state, judged[0])
    while len(values) < max_solver_moves and game.outcome(current) is None:
        answer = reply(current)
        after = game.apply(current, answer)
        if game.outcome(after) is not None:
            break
        nxt = follow(after)
        if nxt is None:
            break
        moves += [answer, nxt[0]]
        values.append(nxt[1])
        current = game.apply(after, nxt[0])
    return Line(moves, values)


def rung_needed(state: Any, search: Search, efforts: Efforts, move: str) -> int:
    """The index of the first ladder effort at which ``move`` is clearly best
    (len(ladder) when none is: only the review and check efforts find it)."""
    for index, effort in enumerate(efforts.ladder):
        if clear_best(search(state, effort), efforts.gap) == move:
            return index
    return len(efforts.ladder)


def initial_rating(rung: int, solver_moves: int, choices: int) -> float:
    """The rating a new puzzle starts with (see the module docstring)."""
    return (START_RATING + RATING_PER_RUNG * (rung - MIDDLE_RUNG) + RATING_PER_MOVE * (solver_moves - 1)
            + RATING_PER_CHOICE * (min(choices, MAX_CHOICES) - TYPICAL_CHOICES))


class Seen:
    """Positions already used (by a key that leaves out counters), for duplicates."""

    def __init__(self, keys: Sequence[str] = ()) -> None:
        self.keys = set(keys)

    def add(self, key: str) -> bool:
        """True when new (and now remembered), False for a duplicate."""
        if key in self.keys:
            return False
        self.keys.add(key)
        return True
