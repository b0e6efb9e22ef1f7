"""Frozen copy of Battlehanse Stark (and Mittel, Leicht) as they were before the Jaipur
evaluation and the informed sampling search: the fixed reference the new
Stark is measured against (``bench.hanse_duel``).  Kept as it was, so that ladders compare
against the same opponent; do not improve it.  Its evaluation is
:mod:`bench.hanse_previous_eval`."""

from __future__ import annotations

import hashlib
import json
import random
import time
from typing import Any

from bench.hanse_previous_eval import evaluate
from shared.games.hanse import fast_apply, fast_moves, state_from_view
from shared.games.hanse.notation import format_move
from shared.games.hanse.replay import to_move_int
from shared.games.hanse.state import PLAY, State
from shared.lru_map import LruMap

STRENGTHS = ("leicht", "mittel", "stark")
LEICHT_RANDOM_SHARE = 0.2
LEICHT_NOISE = 2.0
MITTEL_SAMPLES = 3
MITTEL_CANDIDATES = 4
STARK_CANDIDATES = 6
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


def _legal_texts(view: dict[str, Any]) -> list[str]:
    return [m["text"] for m in view.get("legal_moves") or []]


def _greedy(state: State, seat: int, budget: _Budget) -> tuple[int, float]:
    """The move of the seat to move that is best for ``seat``'s evaluation after it
    (``seat`` is the mover: its best; otherwise: its worst); (move, value for ``seat``)."""
    moves = fast_moves(state)
    budget.nodes += len(moves)
    mover = state.turn
    best_move, best = -1, 0.0
    for i, move in enumerate(moves):
        if i & 7 == 7 and time.monotonic() >= budget.deadline:
            raise _OutOfTime
        value = evaluate(fast_apply(state, move), seat)
        if best_move < 0 or (value > best if mover == seat else value < best):
            best_move, best = move, value
    if best_move < 0:
        return -1, evaluate(state, seat)
    return best_move, best


def _one_ply(state: State, me: int, budget: _Budget) -> dict[int, float]:
    values = {}
    moves = fast_moves(state)
    budget.nodes += len(moves)
    for i, move in enumerate(moves):
        if i & 7 == 7 and time.monotonic() >= budget.deadline:
            raise _OutOfTime
        values[move] = evaluate(fast_apply(state, move), me)
    return values


def _after_reply(state: State, move: int, me: int, budget: _Budget, own_next: bool) -> float:
    """Value of ``move`` after the opponent's best reply (and, with ``own_next``, our
    best move after that)."""
    child = fast_apply(state, move)
    if child.phase != PLAY:
        return evaluate(child, me)
    reply, value = _greedy(child, me, budget)
    if not own_next or reply < 0:
        return value
    grandchild = fast_apply(child, reply)
    if grandchild.phase != PLAY:
        return evaluate(grandchild, me)
    return _greedy(grandchild, me, budget)[1]


def _top(values: dict[int, float], count: int) -> list[int]:
    return sorted(values, key=lambda m: -values[m])[:count]


def _searched_values(
    view: dict[str, Any],
    deadline: float,
    rng: random.Random,
    candidates: int,
    own_next: bool,
    max_samples: int | None,
    extra: tuple[int, ...] = (),
    budget: _Budget | None = None,
) -> tuple[dict[int, float], int]:
    """Mean value of the most promising moves (plus ``extra``) over the samples, and
    how many samples finished (a sample cut off by the deadline is dropped whole)."""
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
                first = _one_ply(state, me, budget) if candidates else {}
                totals = dict.fromkeys(list(dict.fromkeys(_top(first, candidates) + list(extra))), 0.0)
                if not totals:
                    return {}, 0
            sample = {}
            for move in totals:
                if time.monotonic() >= deadline:
                    raise _OutOfTime
                sample[move] = _after_reply(state, move, me, budget, own_next)
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


def choose_move(
    view: dict[str, Any],
    strength: str,
    deadline: float,
    rng: random.Random,
    max_samples: int | None = None,
    stats: dict[str, int] | None = None,
) -> str:
    """A legal move text for the seat of ``view`` by ``deadline`` (time.monotonic()).

    ``max_samples`` fixes the number of determinizations instead of the clock, so a
    test gets the same move from the same rng on any machine.  ``stats`` receives
    ``nodes`` (positions evaluated), ``depth`` (plies per sample) and ``samples``."""
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}")
    texts = _legal_texts(view)
    if not texts:
        raise ValueError("no legal move in this view")
    if len(texts) == 1 or time.monotonic() >= deadline:
        return texts[0]
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
        values, done = _searched_values(view, deadline, rng, MITTEL_CANDIDATES, False, samples, budget=budget)
    else:
        depth = 3
        values, done = _searched_values(view, deadline, rng, STARK_CANDIDATES, True, max_samples, budget=budget)
    if stats is not None:
        stats.update(nodes=budget.nodes, depth=depth, samples=done)
    if not values:
        return texts[0]
    return format_move(max(values, key=values.get))


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
    texts = _legal_texts(view)
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
    candidates = STARK_CANDIDATES if memo is None else 0
    values, done = _searched_values(view, deadline, random.Random(seed), candidates, True, samples, extra)
    if not done:
        # Out of time before one sample finished: the one-ply judgement, same unit.
        state = state_from_view(view, random.Random(seed))
        values = _one_ply(state, view["seat"], _Budget(float("inf")))
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
    texts = _legal_texts(view)
    wanted = move_text
    if move_text not in texts:  # any spelling the notation accepts, e.g. "take gold"
        wanted = format_move(to_move_int(state_from_view(view, random.Random(0)), move_text, view["seat"]))
    values = _analysis(view, deadline, wanted, max_samples)
    if wanted not in values:
        raise ValueError(f"not a legal move here: {move_text!r}")
    return round(values[wanted], 3)
