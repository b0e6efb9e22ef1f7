"""The alpha-beta search of the previous Battlebullet Stark, frozen (a copy of the shared
``services/ai_worker/players/search.py`` as the previous Stark used it), so that
:mod:`bench.bullet_previous_stark` stays the same reference whatever becomes of the shared one.

A game plugs in through :class:`SearchRules` and works on its own position objects
(small tuples of bitboards, always seen from the side to move).  The search is a
negamax with:

* iterative deepening under a hard deadline (``time.monotonic()`` checked at every
  node — a node costs tens of microseconds in Python, so the overrun stays far below
  the 20 ms the workers allow);
* a transposition table keyed by the exact position key the game gives (Python ints
  hash in O(1) per word, and an exact key cannot collide, so no Zobrist table is
  needed in Python);
* move ordering: TT move, the game's own hint (captures / cells gained), two killer
  moves per ply and a history table;
* values from the side to move's point of view, in the game's natural unit.

:meth:`AlphaBeta.best_move` is what a computer opponent plays; :meth:`AlphaBeta.root_values`
gives every root move an exact value at the deepest depth finished in time (hints and
reviews).
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2


class OutOfTime(Exception):
    """Raised inside the search when the deadline has passed (unwinds to the root)."""


class SearchRules(Protocol):
    """What a game offers the search; positions are opaque to the search.

    ``win_floor``: every decided (won/lost) value has at least this magnitude, every
    running evaluation less, so the search can stop deepening once a result is proven."""

    win_floor: float

    def key(self, pos: Any) -> Hashable: ...

    def terminal(self, pos: Any, ply: int) -> float | None:
        """The value for the side to move if the game is over at ``pos``, else None."""

    def evaluate(self, pos: Any) -> float:
        """Static value for the side to move (only called on running positions)."""

    def children(self, pos: Any) -> list[tuple[int, Any, float]]:
        """``(move, child position, ordering hint)`` for every legal move (pass included)."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector during a search: the TT fills with hundreds of
    thousands of tuples, and a full collection over them can take tens of milliseconds
    at an unlucky moment — longer than the deadline allows.  Nothing a search builds is
    cyclic, so reference counting frees it all the same."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def static_value(rules: SearchRules, pos: Any, ply: int = 1) -> float:
    """The value without search: the result if the game is over, else the evaluation."""
    over = rules.terminal(pos, ply)
    return over if over is not None else rules.evaluate(pos)


class AlphaBeta:
    """One search (one move decision): owns its TT, killers and history."""

    def __init__(
        self, rules: SearchRules, deadline: float, node_limit: int | None = None, rng: random.Random | None = None
    ) -> None:
        self.rules = rules
        self.rng = rng
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.tt: dict[Hashable, tuple[int, float, int, int | None]] = {}
        self.killers: dict[int, list[int]] = {}
        self.history: dict[int, int] = {}
        self.depth_reached = 0

    # ---- the tree ------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if time.monotonic() >= self.deadline or (self.node_limit is not None and self.nodes > self.node_limit):
            raise OutOfTime

    def ordered(self, children: list[tuple[int, Any, float]], ply: int, tt_move: int | None) -> list:
        killers = self.killers.get(ply, ())
        history = self.history

        def score(child: tuple[int, Any, float]) -> float:
            move = child[0]
            if move == tt_move:
                return 1e9
            bonus = 1e6 if move in killers else 0.0
            return bonus + child[2] * 1000.0 + history.get(move, 0) * 1e-3

        return sorted(children, key=score, reverse=True)

    def negamax(self, pos: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._tick()
        rules = self.rules
        over = rules.terminal(pos, ply)
        if over is not None:
            return over
        if depth <= 0:
            return rules.evaluate(pos)
        key = rules.key(pos)
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER and e_value >= beta:
                    return e_value
                if e_flag == UPPER and e_value <= alpha:
                    return e_value
        children = rules.children(pos)
        alpha_start = alpha
        best_value = -INF
        best_move = None
        for move, child, _hint in self.ordered(children, ply, tt_move):
            value = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if value > best_value:
                best_value, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        killers = self.killers.setdefault(ply, [])
                        if move not in killers:
                            killers.insert(0, move)
                            del killers[2:]
                        self.history[move] = self.history.get(move, 0) + depth * depth
                        break
        flag = EXACT if alpha_start < best_value < beta else (LOWER if best_value >= beta else UPPER)
        self.tt[key] = (depth, best_value, flag, best_move)
        return best_value

    # ---- the root ------------------------------------------------------------
    def best_move(self, pos: Any, max_depth: int) -> tuple[int | None, float]:
        """Iterative deepening up to ``max_depth``; the best move of the deepest finished
        depth (or of an unfinished one, once its first move — the previous best — is done
        and another move beat it).  ``(None, 0)`` if not even depth 1 started."""
        with collector_paused():
            return self._best_move(pos, max_depth)

    def _best_move(self, pos: Any, max_depth: int) -> tuple[int | None, float]:
        children = self.root_children(pos)
        if len(children) == 1:
            return children[0][0], 0.0
        order = self.ordered(children, 0, None)
        best: tuple[int | None, float] = (order[0][0], -INF) if order else (None, 0.0)
        for depth in range(1, max_depth + 1):
            alpha = -INF
            depth_best: int | None = None
            try:
                for move, child, _hint in order:
                    value = -self.negamax(child, depth - 1, -INF, -alpha, 1)
                    if value > alpha or depth_best is None:
                        alpha, depth_best = value, move
            except OutOfTime:
                if depth_best is not None:
                    best = (depth_best, alpha)
                break
            best = (depth_best, alpha)
            self.depth_reached = depth
            order.sort(key=lambda c: c[0] != depth_best)  # stable: previous best first
            if abs(alpha) >= self.rules.win_floor:
                break  # a forced result is proven; deeper search cannot change it
        return best

    def root_children(self, pos: Any) -> list[tuple[int, Any, float]]:
        """The root moves, shuffled by the rng so that equal moves vary between games
        (sorting is stable, so the shuffle only decides among equals)."""
        children = self.rules.children(pos)
        if self.rng is not None:
            self.rng.shuffle(children)
        return children

    def root_values(self, pos: Any, max_depth: int) -> list[tuple[int, float]]:
        """Every root move with its exact (full-window) value at the deepest depth that
        finished for *all* moves before the deadline; best first.

        Depths 1, 2, 4, 6 …: a value that ends after the mover's own move is optimistic
        in both games (the reply may take it all back), so beyond depth 1 only depths
        that end with the opponent's reply are compared — reviews subtract these values."""
        with collector_paused():
            return self._root_values(pos, max_depth)

    def _root_values(self, pos: Any, max_depth: int) -> list[tuple[int, float]]:
        children = self.root_children(pos)
        finished = [(move, -static_value(self.rules, child, 1)) for move, child, _ in children]
        finished.sort(key=lambda mv: -mv[1])
        order = self.ordered(children, 0, None)
        for depth in [1, *range(2, max_depth + 1, 2)]:
            values: list[tuple[int, float]] = []
            try:
                for move, child, _hint in order:
                    values.append((move, -self.negamax(child, depth - 1, -INF, INF, 1)))
            except OutOfTime:
                break
            values.sort(key=lambda mv: -mv[1])
            finished = values
            self.depth_reached = depth
            rank = {move: i for i, (move, _) in enumerate(values)}
            order.sort(key=lambda c: rank[c[0]])
            if all(abs(v) >= self.rules.win_floor for _, v in values):
                break
        return finished
