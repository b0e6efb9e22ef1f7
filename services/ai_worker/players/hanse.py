"""The Battlehanse computer opponent: three strengths and the analysis for reviews.

It sees only its own view.  The unknown cards (deck order, the opponent's hand beyond
its gemerkte Karten, hidden Ratsmarken values) are filled in by the engine's
determinization ``state_from_view(view, rng)``; everything below works on such samples
and never on the real state.  Values are in points (:mod:`.hanse_eval`).

* Leicht: one sample, its own move only (greedy on the evaluation), with noise and a
  random move now and then.
* Mittel: a few samples; the best few own moves are checked against the opponent's
  best reply, so it sees obvious dangers (a market left with a sale for the opponent).
* Stark: its own evaluation that knows Jaipur trading (:mod:`.hanse_jaipur`: token
  races, Ratsmarken odds, the turns left to sell, the Stallmarke race, the seal as the
  round's end nears) and deals drawn from what the opponent's moves say about its hand
  (:mod:`.hanse_belief`).  Per deal, each of the most promising own moves (the best by
  one ply and the best of each kind of move) is followed three plies deep: the
  opponent's best reply and its own best next move, both among the moves that build
  something (:func:`_line_moves`).  As many deals as fit into the time (~1.5 s); the
  candidates race on the same deals (:func:`_race`): one clearly behind the leader is
  dropped, so the rest get more deals, and the search ends when one is left.  The move
  with the best mean wins.  Inside a deal the search values every move of a position
  but goes on from one, so the others are valued from the counts the evaluation reads
  (:func:`.hanse_jaipur.value_after`) instead of being stepped.  (Four plies — its best
  three next moves each against the opponent's answer — cost about three times as much
  per deal and did not win more at equal time: ``bench.hanse_duel``.)
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from services.ai_worker.players.hanse_belief import declines, informed_state
from services.ai_worker.players.hanse_eval import evaluate
from services.ai_worker.players.hanse_jaipur import STARK_WEIGHTS, Weights
from services.ai_worker.players.hanse_jaipur import evaluate as stark_evaluate
from services.ai_worker.players.hanse_jaipur import value_after as stark_after
from services.ai_worker.players.player import Player, legal_texts
from shared.games.hanse import fast_apply, fast_moves, state_from_view
from shared.games.hanse.cards import GOODS, PRECIOUS
from shared.games.hanse.moves import EXCHANGE
from shared.games.hanse.notation import format_move
from shared.games.hanse.replay import to_move_int
from shared.games.hanse.state import PLAY, State
from shared.lru_map import LruMap

LEICHT_RANDOM_SHARE = 0.2
LEICHT_NOISE = 2.0
MITTEL_SAMPLES = 3
MITTEL_CANDIDATES = 4
STARK_CANDIDATES = 6  # the best by one ply, plus the best of each kind of move
STARK_DEPTH = 3  # plies per deal: own move, the opponent's best reply, own best next move
PRUNE_FIRST = 8  # deals before the candidates first race (HansePlayer.search only, not analyse) …
PRUNE_EVERY = 4  # … and deals between two checks
PRUNE_MARGIN = 6.0  # a candidate this many points behind the best mean is dropped
RACE_Z = 2.0  # … and one this many standard errors behind the leader on the same deals
# Review colours in points given up: about one point is a Zinnmarke of a cheap pile or
# a slightly worse trade (yellow); three points is a good's whole Zinnmarke or a
# Ratsmarke of a sale of three — a real mistake (red).
REVIEW_THRESHOLDS: tuple[float, float] = (1.0, 3.0)


class _OutOfTime(Exception):
    """Raised inside a sample when the deadline passes; the sample is dropped."""


class _Budget:
    """The deadline, and how many positions the search evaluated (for ``stats``)."""

    __slots__ = ("deadline", "nodes")

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.nodes = 0


Evaluation = Callable[[State, int], float]
ValueAfter = Callable[[State, int, int], float]


def _mittel_after(state: State, move: int, seat: int) -> float:
    return evaluate(fast_apply(state, move), seat)


def _greedy(
    state: State,
    seat: int,
    budget: _Budget,
    after: ValueAfter = _mittel_after,
    line: bool = False,
    here: Evaluation = evaluate,
) -> tuple[int, float]:
    """The move of the seat to move that is best for ``seat``'s evaluation after it
    (``seat`` is the mover: its best; otherwise: its worst); (move, value for ``seat``).
    ``after(state, move, seat)`` is the evaluation of the position after a move, ``here``
    the evaluation's function of a position (for one without a move).
    With ``line`` only :func:`_line_moves` are searched."""
    moves = _line_moves(state) if line else fast_moves(state)
    budget.nodes += len(moves)
    mover = state.turn
    best_move, best = -1, 0.0
    for i, move in enumerate(moves):
        if i & 7 == 7 and time.monotonic() >= budget.deadline:
            raise _OutOfTime
        value = after(state, move, seat)
        if best_move < 0 or (value > best if mover == seat else value < best):
            best_move, best = move, value
    if best_move < 0:
        return -1, here(state, seat)
    return best_move, best


def _one_ply(
    state: State, me: int, budget: _Budget, after: ValueAfter = _mittel_after, line: bool = False
) -> dict[int, float]:
    values = {}
    moves = _line_moves(state) if line else fast_moves(state)
    budget.nodes += len(moves)
    for i, move in enumerate(moves):
        if i & 7 == 7 and time.monotonic() >= budget.deadline:
            raise _OutOfTime
        values[move] = after(state, move, me)
    return values


def _after_reply(state: State, move: int, me: int, budget: _Budget) -> float:
    """Mittel's value of ``move``: after the opponent's best reply."""
    child = fast_apply(state, move)
    if child.phase != PLAY:
        return evaluate(child, me)
    return _greedy(child, me, budget)[1]


_line_moves_cache: dict[tuple, tuple[int, ...]] = {}
_LINE_CACHE_LIMIT = 100_000


def _line_moves(state: State) -> tuple[int, ...]:
    """The moves searched inside a line (not at the root): every take, sale and the
    Packpferde, and the exchanges that build something — two or more cards of one good,
    or a precious card.  Exchanges are three in four of all moves, and one that takes a
    single cheap card of each kind is rarely anyone's best; leaving them out buys about
    twice the deals in the same time."""
    key = (state.market, state.hands[state.turn])
    found = _line_moves_cache.get(key)
    if found is None:
        if len(_line_moves_cache) >= _LINE_CACHE_LIMIT:
            _line_moves_cache.clear()
        kept = []
        for move in fast_moves(state):
            if move & 7 == EXCHANGE:
                taken = [(move >> (3 + 3 * k)) & 7 for k in range(GOODS)]
                if max(taken) < 2 and not any(taken[k] for k in range(GOODS) if PRECIOUS[k]):
                    continue
            kept.append(move)
        found = _line_moves_cache[key] = tuple(kept)
    return found


def _stark_line(
    state: State, move: int, me: int, budget: _Budget, after: ValueAfter = stark_after, here: Evaluation = stark_evaluate
) -> float:
    """Value of ``move`` three plies deep: the opponent's best reply, then our best next move."""
    child = fast_apply(state, move)
    if child.phase != PLAY:
        return here(child, me)
    reply, value = _greedy(child, me, budget, after, line=True, here=here)
    if reply < 0:
        return value
    grandchild = fast_apply(child, reply)
    if grandchild.phase != PLAY:
        return here(grandchild, me)
    return _greedy(grandchild, me, budget, after, line=True, here=here)[1]


def _judges(weights: Weights) -> tuple[ValueAfter, Evaluation]:
    """Stark's evaluation after a move and of a position, with ``weights``."""
    if weights is STARK_WEIGHTS:
        return stark_after, stark_evaluate
    return partial(stark_after, w=weights), partial(stark_evaluate, w=weights)


def _stark_candidates(first: dict[int, float], extra: tuple[int, ...]) -> list[int]:
    """The best :data:`STARK_CANDIDATES` by one ply, the best move of each kind (take,
    horses, sale, exchange: a kind the first ply undervalues still gets its look), and ``extra``."""
    chosen = _top(first, STARK_CANDIDATES)
    best_of_kind: dict[int, int] = {}
    for move in _top(first, len(first)):
        best_of_kind.setdefault(move & 7, move)
    return list(dict.fromkeys(chosen + list(best_of_kind.values()) + list(extra)))


def _stark_values(
    view: dict[str, Any],
    deadline: float,
    rng: random.Random,
    max_samples: int | None,
    extra: tuple[int, ...] = (),
    candidates: bool = True,
    prune: bool = False,
    budget: _Budget | None = None,
    weights: Weights = STARK_WEIGHTS,
) -> tuple[dict[int, float], int]:
    """Stark's mean value of its candidate moves (plus ``extra``) over the deals it
    searched, and how many deals finished.  With ``prune`` the candidates race
    (:func:`_race`): one clearly behind the leader is dropped (its mean so far is kept),
    and the search ends when one is left."""
    me = view["seat"]
    budget = budget or _Budget(deadline)
    after, here = _judges(weights)
    belief = declines(view)
    found: dict[int, list[float]] = {}  # per candidate its line's value in each deal, in order
    dropped: dict[int, float] = {}
    done = 0
    while max_samples is None or done < max_samples:
        if time.monotonic() >= deadline:
            break
        state = informed_state(view, rng, belief)
        try:
            if not found:
                first = _one_ply(state, me, budget, after) if candidates else {}
                moves = _stark_candidates(first, extra) if candidates else list(extra)
                if not moves:
                    return {}, 0
                found = {move: [] for move in moves}
            sample = {}
            for move in found:
                if time.monotonic() >= deadline:
                    raise _OutOfTime
                sample[move] = _stark_line(state, move, me, budget, after, here)
        except _OutOfTime:
            break
        for move, value in sample.items():
            found[move].append(value)
        done += 1
        if prune and done >= PRUNE_FIRST and done % PRUNE_EVERY == 0:
            for move in _race(found):
                dropped[move] = _mean(found.pop(move))
            if len(found) == 1:
                break
    if done == 0:
        return {}, 0
    values = {move: _mean(line) for move, line in found.items()}
    return {**dropped, **values}, done


def _mean(line: list[float]) -> float:
    return sum(line) / len(line)  # summed in deal order: the values reviews and puzzles store


def _race(found: dict[int, list[float]]) -> list[int]:
    """The candidates to drop: those whose mean trails the leader's by
    :data:`PRUNE_MARGIN`, or whose difference to the leader, deal by deal (every
    candidate still in the race was searched on the same deals), is below zero by
    :data:`RACE_Z` standard errors.  Comparing on the same deals takes out what the deal
    itself adds to every move's value, so a close second is told apart in a few deals
    and the deals left go to the moves still in doubt."""
    means = {move: _mean(line) for move, line in found.items()}
    leader = max(means, key=means.get)
    best = found[leader]
    out = []
    for move, line in found.items():
        if move == leader:
            continue
        diffs = [v - b for v, b in zip(line, best, strict=True)]
        mean = means[move] - means[leader]
        spread = statistics.stdev(diffs) / math.sqrt(len(diffs))
        if mean < -PRUNE_MARGIN or mean + RACE_Z * spread < 0:
            out.append(move)
    return out


def _top(values: dict[int, float], count: int) -> list[int]:
    return sorted(values, key=lambda m: -values[m])[:count]


def _searched_values(
    view: dict[str, Any],
    deadline: float,
    rng: random.Random,
    candidates: int,
    max_samples: int | None,
    budget: _Budget | None = None,
) -> tuple[dict[int, float], int]:
    """Mittel's mean value of its most promising moves over the samples, and how many
    samples finished (a sample cut off by the deadline is dropped whole)."""
    me = view["seat"]
    budget = budget or _Budget(deadline)
    totals: dict[int, float] = {}
    done = 0
    while max_samples is None or done < max_samples:
        if time.monotonic() >= deadline:
            break
        state = state_from_view(view, rng)
        try:
            if not totals:
                # The candidates come from the first sample's one-ply values.
                first = _one_ply(state, me, budget)
                totals = dict.fromkeys(_top(first, candidates), 0.0)
                if not totals:
                    return {}, 0
            sample = {}
            for move in totals:
                if time.monotonic() >= deadline:
                    raise _OutOfTime
                sample[move] = _after_reply(state, move, me, budget)
        except _OutOfTime:
            break
        for move, value in sample.items():
            totals[move] += value
        done += 1
    if done == 0:
        return {}, 0
    return {move: total / done for move, total in totals.items()}, done


def _from_int(view: dict[str, Any], texts: list[str]) -> dict[int, str]:
    """Move ints of the seat's legal moves → their texts (from one determinization;
    the seat's own hand and the market are known exactly, so every sample agrees)."""
    state = state_from_view(view, random.Random(0))
    by_text = {format_move(m): m for m in fast_moves(state)}
    return {by_text[t]: t for t in texts if t in by_text}


class HansePlayer(Player):
    def search(
        self,
        view: dict[str, Any],
        texts: list[str],
        strength: str,
        deadline: float,
        rng: random.Random,
        max_samples: int | None = None,
        stats: dict[str, int] | None = None,
        weights: Weights = STARK_WEIGHTS,
    ) -> str:
        """A legal move text for the seat of ``view`` by ``deadline`` (time.monotonic()).

        ``max_samples`` fixes the number of determinizations instead of the clock, so a
        test gets the same move from the same rng on any machine.  ``stats`` receives
        ``nodes`` (positions evaluated), ``depth`` (plies per sample) and ``samples``.
        ``weights`` are Stark's evaluation weights (a tuning run plays others)."""
        me = view["seat"]
        budget = _Budget(deadline)
        done = 0
        if strength == "leicht":
            if rng.random() < LEICHT_RANDOM_SHARE:
                return rng.choice(texts)
            # one ply is a few milliseconds: not worth cutting short
            values = _one_ply(state_from_view(view, rng), me, _Budget(float("inf")))
            budget.nodes, depth, done = len(values), 1, 1
            noisy = {m: v + rng.gauss(0.0, LEICHT_NOISE) for m, v in values.items()}
            values = noisy
        elif strength == "mittel":
            samples = MITTEL_SAMPLES if max_samples is None else max_samples
            depth = 2
            values, done = _searched_values(view, deadline, rng, MITTEL_CANDIDATES, samples, budget=budget)
        else:
            depth = STARK_DEPTH
            values, done = _stark_values(view, deadline, rng, max_samples, prune=True, budget=budget, weights=weights)
        if stats is not None:
            stats.update(nodes=budget.nodes, depth=depth, samples=done)
        if not values:
            return texts[0]
        return format_move(max(values, key=values.get))


PLAYER = HansePlayer()


def view_seed(view: dict[str, Any]) -> int:
    """A seed from the view's content: the analysis samples from it, so that
    ``analyse`` and a later ``value_of`` on the same view search the same deals
    (a review compares their values) and a redelivered task repeats itself."""
    digest = hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).digest()
    return int.from_bytes(digest[:8], "big")


# The last few analyses by view seed: (values by move text, samples searched).  A review
# asks analyse() and then value_of() on the same view; the played move is then searched
# over exactly the same samples as the candidates it is compared with.
_MEMO: LruMap[tuple[int, int | None], tuple[dict[str, float], int]] = LruMap(8)


def _analysis(
    view: dict[str, Any], deadline: float, extra_text: str | None, max_samples: int | None
) -> dict[str, float]:
    texts = legal_texts(view)
    if not texts:
        return {}
    if view["phase"] != "spiel":
        return {texts[0]: 0.0}  # the pause: "weiter", nothing to weigh
    seed = view_seed(view)
    key = (seed, max_samples)
    memo = _MEMO.get(key)
    if memo is not None and (extra_text is None or extra_text in memo[0]):
        return memo[0]
    by_int = _from_int(view, texts)
    extra = tuple(m for m, t in by_int.items() if t == extra_text)
    # After an analyse: only the extra move, over the same number of samples (cheap
    # enough to finish in a review's smaller share of the time).
    samples = max_samples if memo is None else memo[1]
    values, done = _stark_values(view, deadline, random.Random(seed), samples, extra, candidates=memo is None)
    if not done:
        # Out of time before one sample finished: the one-ply judgement, same unit.
        state = state_from_view(view, random.Random(seed))
        values = _one_ply(state, view["seat"], _Budget(float("inf")), stark_after)
        return {by_int[m]: v for m, v in values.items() if m in by_int}
    result = {by_int[m]: v for m, v in values.items() if m in by_int}
    if memo is not None:
        return {**memo[0], **result}
    _MEMO.put(key, (result, done))
    return result


def analyse(
    view: dict[str, Any], deadline: float, rng: random.Random, limit: int = 5, max_samples: int | None = None
) -> list[tuple[str, float]]:
    """Stark's values (points) of its most promising moves, best first; in the pause
    ``[("weiter", 0.0)]``.  The samples come from :func:`view_seed`, not from ``rng``."""
    values = _analysis(view, deadline, None, max_samples)
    ranked = sorted(values.items(), key=lambda item: -item[1])
    return [(text, round(value, 3)) for text, value in ranked[:limit]]


def value_of(
    view: dict[str, Any], move_text: str, deadline: float, rng: random.Random, max_samples: int | None = None
) -> float:
    """Stark's value (points) of one legal move, searched like :func:`analyse`'s
    candidates over the same samples (after an ``analyse`` of the same view: the same
    number of them), so ``analyse()[0][1] - value_of(played)`` is the value given up."""
    if view["phase"] != "spiel":
        return 0.0  # the pause has one move: nothing to weigh
    texts = legal_texts(view)
    wanted = move_text
    if move_text not in texts:  # any spelling the notation accepts, e.g. "take gold"
        wanted = format_move(to_move_int(state_from_view(view, random.Random(0)), move_text, view["seat"]))
    values = _analysis(view, deadline, wanted, max_samples)
    if wanted not in values:
        raise ValueError(f"not a legal move here: {move_text!r}")
    return round(values[wanted], 3)
