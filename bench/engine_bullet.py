"""Battlebullet engine speed: perft, random playouts (fast API and full API), CLI perft.

``run()`` returns the figures as a dict; ``python -m bench.engine_bullet`` prints them
as JSON.  Figures are per second of wall time on whatever the machine is doing, so
compare runs on an idle machine only.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

from shared.games import get_game

GAME = get_game("bullet")
PERFT_DEPTHS = {"standard": 4, "belgisch": 4, "deutsch": 3}
ROOT = Path(__file__).resolve().parent.parent


def _perft(layout: str, depth: int) -> dict:
    state = GAME.new_game({"layout": layout}, 1)
    started = time.perf_counter()
    leaves = GAME.perft(state, depth)
    seconds = time.perf_counter() - started
    return {
        "depth": depth,
        "leaves": leaves,
        "seconds": round(seconds, 3),
        "leaves_per_second": round(leaves / seconds),
    }


def _fast_playouts(games: int) -> dict:
    """Random games on the fast API (ids, tuples), as a search's playouts would run."""
    rng = random.Random(0)
    applied = 0
    started = time.perf_counter()
    for game in range(games):
        state = GAME.fast_state(GAME.new_game({"layout": ("standard", "belgisch", "deutsch")[game % 3]}, game))
        while state[3] < 6 and state[4] < 6:
            moves = GAME.fast_moves(state)
            if not moves:
                break
            state = GAME.fast_apply(state, rng.choice(moves))
            applied += 1
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "moves": applied,
        "seconds": round(seconds, 3),
        "moves_per_second": round(applied / seconds),
    }


def _full_playouts(games: int) -> dict:
    """Random games through ``Game.apply`` (legality check, end rules, history)."""
    rng = random.Random(1)
    applied = 0
    started = time.perf_counter()
    for game in range(games):
        state = GAME.new_game({"win_target": 4}, game)
        while GAME.outcome(state) is None:
            state = GAME.apply(state, rng.choice(GAME.fast_moves(GAME.fast_state(state))))
            applied += 1
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "moves": applied,
        "seconds": round(seconds, 3),
        "moves_per_second": round(applied / seconds),
    }


def _cli_perft() -> dict:
    """Wall time of ``python -m shared.games perft bullet --layout standard --depth 4``, start-up included."""
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "shared.games", "perft", "bullet", "--layout", "standard", "--depth", "4"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    return {"seconds": round(seconds, 3), "output": result.stdout.split("\n")[:4]}


def _import_seconds() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import shared.games.bullet"], cwd=ROOT, check=True)
    return round(time.perf_counter() - started, 3)


def run() -> dict:
    return {
        "perft": {layout: _perft(layout, depth) for layout, depth in PERFT_DEPTHS.items()},
        "fast_playouts": _fast_playouts(30),
        "full_playouts": _full_playouts(30),
        "cli_perft_standard_depth4": _cli_perft(),
        "import_seconds": _import_seconds(),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
