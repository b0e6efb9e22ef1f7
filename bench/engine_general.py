"""Battlegeneral engine speed: perft, move generation, random playouts, determinizations.

``run()`` returns the figures as a dict; ``python -m bench.engine_general`` prints them
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
from shared.games.general import moves as fast
from shared.games.general.creation import begin_play
from shared.games.general.setups import COMPUTER_SETUPS, STANDARD_SETUPS, preset_squares

GAME = get_game("general")
ROOT = Path(__file__).resolve().parent.parent
PAIRINGS = (("Blitzkrieg", "Blitzkrieg"), ("On Guard", "Corner Blitz"), ("Scout's Gambit", "Early Warning"))
PERFT_DEPTH = 5


def _start(red: str, blue: str, mirrored: bool = False):
    state = GAME.new_game({}, 1)
    state = GAME.apply(GAME.apply(state, f"aufstellung {red}", 0), "fertig", 0)
    text = f"aufstellung {blue}" + (" gespiegelt" if mirrored else "")
    return GAME.apply(GAME.apply(state, text, 1), "fertig", 1)


def _perft() -> dict:
    results = {}
    for red, blue in PAIRINGS:
        state = _start(red, blue)
        started = time.perf_counter()
        leaves = GAME.perft(state, PERFT_DEPTH)
        seconds = time.perf_counter() - started
        results[f"{red} vs {blue}"] = {
            "depth": PERFT_DEPTH,
            "leaves": leaves,
            "seconds": round(seconds, 3),
            "leaves_per_second": round(leaves / seconds),
        }
    return results


def _playouts(games: int) -> dict:
    """Random games on the fast API from full positions, as a search's playouts run;
    also counts the moves generated."""
    rng = random.Random(0)
    applied = generated = 0
    gen_seconds = 0.0
    started = time.perf_counter()
    for game in range(games):
        red, blue = rng.choice(COMPUTER_SETUPS), rng.choice(COMPUTER_SETUPS)
        state = begin_play(GAME.new_game({}, game), (preset_squares(red, 0), preset_squares(blue, 1, game % 2 == 1)))
        while state.outcome is None:
            t = time.perf_counter()
            moves = fast.fast_moves(state)
            gen_seconds += time.perf_counter() - t
            generated += len(moves)
            state = fast.fast_apply(state, rng.choice(moves))
            applied += 1
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "moves_applied": applied,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2),
        "moves_applied_per_second": round(applied / seconds),
        "moves_generated_per_second": round(generated / gen_seconds),
        "move_lists_per_second": round(applied / gen_seconds),
    }


def _full_api(games: int) -> dict:
    """Random games through ``Game.apply`` with move text (parse, legality reason, end)."""
    rng = random.Random(1)
    applied = 0
    started = time.perf_counter()
    for game in range(games):
        state = _start(STANDARD_SETUPS[game % 8], STANDARD_SETUPS[(game + 3) % 8], game % 2 == 0)
        while GAME.outcome(state) is None:
            state = GAME.apply(state, GAME.move_text(state, rng.choice(fast.fast_moves(state))))
            applied += 1
    seconds = time.perf_counter() - started
    return {"games": games, "moves": applied, "seconds": round(seconds, 3), "moves_per_second": round(applied / seconds)}


def _determinizations(count: int) -> dict:
    """Full positions built per second from a played state with the unseen enemy ranks
    shuffled (what the strong computer samples before it searches)."""
    rng = random.Random(2)
    state = _start("Blitzkrieg", "On Guard")
    for _ in range(60):
        state = fast.fast_apply(state, rng.choice(fast.fast_moves(state)))
    started = time.perf_counter()
    for _ in range(count):
        armies: tuple[dict[int, int], dict[int, int]] = ({}, {})
        unseen = [p for p in range(40, 80) if state.pos[p] >= 0 and not state.flags[p] & 4]
        ranks = [state.ranks[p] for p in unseen]
        rng.shuffle(ranks)
        guess = dict(zip(unseen, ranks, strict=True))
        flags = {}
        for piece, square in enumerate(state.pos):
            if square >= 0:
                armies[piece // 40][square] = guess.get(piece, state.ranks[piece])
                flags[square] = state.flags[piece]
        begin_play(state, armies, flags, state.to_move, state.quiet, state.ply)
    seconds = time.perf_counter() - started
    return {"count": count, "seconds": round(seconds, 3), "per_second": round(count / seconds)}


def _cli_import() -> dict:
    """Wall time of importing the engine in a fresh interpreter."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from shared.games import get_game; get_game('general')"], cwd=ROOT, check=True)
    return {"seconds": round(time.perf_counter() - started, 3)}


def run() -> dict:
    return {
        "perft": _perft(),
        "fast_playouts": _playouts(100),
        "full_api_playouts": _full_api(10),
        "determinizations": _determinizations(2000),
        "import": _cli_import(),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
