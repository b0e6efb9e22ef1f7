"""Battlehanse engine speed: perft, move generation, apply, random rounds, determinization.

``run()`` returns the figures as a dict; ``python -m bench.engine_hanse`` prints them as JSON.
Figures are per second of wall time on whatever the machine is doing, so compare runs
on an idle machine only.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

from shared.games import get_game
from shared.games.hanse import fast_apply, fast_moves, perft, state_from_view
from shared.games.hanse import moves as hanse_moves

GAME = get_game("hanse")
START_SEEDS = (1, 2, 3, 4, 5)


def _perft_rate(depth: int) -> dict:
    hanse_moves._cache.clear()
    leaves = 0
    started = time.perf_counter()
    for seed in START_SEEDS:
        leaves += perft(GAME.new_game({}, seed), depth)
    seconds = time.perf_counter() - started
    return {"depth": depth, "starts": len(START_SEEDS), "leaves": leaves, "seconds": round(seconds, 3),
            "leaves_per_second": round(leaves / seconds)}  # fmt: skip


def _states(count: int) -> list:
    """Positions met in random play, for generation timing."""
    rng = random.Random(0)
    states = []
    state = GAME.new_game({}, 0)
    while len(states) < count:
        if state.phase == 2:
            state = GAME.new_game({}, len(states))
        if state.phase == 0:
            states.append(state)
        state = fast_apply(state, rng.choice(fast_moves(state)))
    return states


def _generation_rate(states: list) -> dict:
    hanse_moves._cache.clear()
    started = time.perf_counter()
    generated = sum(len(hanse_moves._generate(s.market, s.hands[s.turn])) for s in states)
    uncached = time.perf_counter() - started
    for s in states:
        fast_moves(s)  # fill the cache, as a search does
    started = time.perf_counter()
    for s in states:
        fast_moves(s)
    cached = time.perf_counter() - started
    return {
        "positions": len(states),
        "actions_generated": generated,
        "actions_generated_per_second_uncached": round(generated / uncached),
        "actions_listed_per_second_cached": round(generated / cached),
        "mean_actions_per_position": round(generated / len(states), 1),
    }


def _playout_rate(matches: int) -> dict:
    rng = random.Random(1)
    applied = 0
    rounds = 0
    started = time.perf_counter()
    for seed in range(matches):
        state = GAME.new_game({}, seed)
        while state.phase != 2:
            state = fast_apply(state, rng.choice(fast_moves(state)))
            applied += 1
        rounds += len(state.rounds)
    seconds = time.perf_counter() - started
    return {
        "matches": matches,
        "rounds": rounds,
        "actions_applied": applied,
        "actions_applied_per_second": round(applied / seconds),
        "random_rounds_per_second": round(rounds / seconds, 1),
        "random_matches_per_second": round(matches / seconds, 1),
    }


def _logged_apply_rate(matches: int) -> dict:
    rng = random.Random(2)
    applied = 0
    started = time.perf_counter()
    for seed in range(matches):
        state = GAME.new_game({}, seed)
        while state.phase != 2:
            state = GAME.apply(state, rng.choice(fast_moves(state)))
            applied += 1
    return {"apply_with_checks_and_history_per_second": round(applied / (time.perf_counter() - started))}


def _determinization_rate(count: int) -> dict:
    rng = random.Random(3)
    views = [GAME.view(s, s.turn) for s in _states(200)]
    started = time.perf_counter()
    for i in range(count):
        state_from_view(views[i % len(views)], rng)
    return {"states_from_view_per_second": round(count / (time.perf_counter() - started))}


def _import_seconds() -> float:
    code = "import time; t = time.perf_counter(); import shared.games.hanse; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return round(float(out.stdout.strip()), 3)


def run() -> dict:
    return {
        "perft": [_perft_rate(3), _perft_rate(4)],
        "generation": _generation_rate(_states(3000)),
        "playouts": _playout_rate(300),
        "logged": _logged_apply_rate(50),
        "determinization": _determinization_rate(3000),
        "import_seconds": _import_seconds(),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
