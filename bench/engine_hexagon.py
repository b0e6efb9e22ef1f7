"""Battlehexagon engine speed: perft leaves/s per map, moves applied/s, CLI wall time.

``python -m bench.engine_hexagon`` prints one JSON object; ``bench/engines.py`` calls
:func:`run`.  Figures:

* ``perft`` — per map, depth-5 leaf count from the start, seconds and leaves/s (numba),
  and klassisch at depth 6;
* ``perft_python_d4`` — depth 4 in the plain-Python path (draw rules on), klassisch;
* ``playouts`` — random games through ``GAME.fast_moves`` / ``GAME.fast_apply`` (the
  computer opponents' API): moves applied per second, and the same through the checked
  ``GAME.apply`` with move text;
* ``cli_dreiloch_d5_seconds`` — wall time of ``python -m shared.games perft hexagon
  --map dreiloch --depth 5`` (target: under 2 s on one core).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from shared.games import get_game
from shared.games.hexagon.game import _slow_perft

ROOT = Path(__file__).resolve().parents[1]
MAPS = ("klassisch", "dreiloch", "krater", "burggraben", "saeulen")


def _timed(fn) -> tuple[Any, float]:
    started = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - started


def _playouts(games: int, checked: bool) -> dict[str, float]:
    game = get_game("hexagon")
    rng = random.Random(1)
    applied = 0
    started = time.perf_counter()
    for seed in range(games):
        state = game.new_game({"map": MAPS[seed % len(MAPS)]}, seed)
        while True:
            if checked:
                infos = game.legal_moves(state)
                if not infos:
                    break
                state = game.apply(state, rng.choice(infos).text)
            else:
                moves = game.fast_moves(state)
                if not moves:
                    break
                state = game.fast_apply(state, rng.choice(moves))
            applied += 1
    elapsed = time.perf_counter() - started
    return {
        "games": games,
        "moves": applied,
        "seconds": round(elapsed, 3),
        "moves_per_second": round(applied / elapsed),
    }


def run() -> dict[str, Any]:
    game = get_game("hexagon")
    game.perft(game.new_game({}, 1), 2)  # load / compile the numba kernel outside the timings
    perft: dict[str, Any] = {}
    for name in MAPS:
        leaves, seconds = _timed(lambda name=name: game.perft(game.new_game({"map": name}, 1), 5))
        perft[name] = {
            "depth": 5,
            "leaves": leaves,
            "seconds": round(seconds, 4),
            "leaves_per_second": round(leaves / seconds),
        }
    leaves, seconds = _timed(lambda: game.perft(game.new_game({}, 1), 6))
    perft["klassisch_d6"] = {
        "depth": 6,
        "leaves": leaves,
        "seconds": round(seconds, 4),
        "leaves_per_second": round(leaves / seconds),
    }
    leaves, seconds = _timed(lambda: _slow_perft(game.new_game({}, 1), 4))
    slow = {"depth": 4, "leaves": leaves, "seconds": round(seconds, 4), "leaves_per_second": round(leaves / seconds)}
    _, cli_seconds = _timed(
        lambda: subprocess.run(
            [sys.executable, "-m", "shared.games", "perft", "hexagon", "--map", "dreiloch", "--depth", "5"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
    )
    return {
        "perft": perft,
        "perft_python_d4": slow,
        "playouts": {"fast_api": _playouts(200, checked=False), "checked_text_api": _playouts(50, checked=True)},
        "cli_dreiloch_d5_seconds": round(cli_seconds, 3),
    }


if __name__ == "__main__":
    print(json.dumps(run()))
