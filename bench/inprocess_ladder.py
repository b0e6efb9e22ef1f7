"""The in-process ladder shared by ``bench/ai_hexagon.py`` and ``bench/ai_bullet.py``.

Both perfect-information players are measured the same way: Stark vs Mittel and Mittel
vs Leicht, colours alternating, every player ``budget_s`` per move, and Stark's speed
over every move it made.  A bench names its game, player, options per game index and
how each game draws its seed; this module plays and counts.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from shared.games import get_game

OptionsFor = Callable[[int], dict[str, Any]]  # game index -> options
SeedFor = Callable[[random.Random], int]  # the ladder's rng -> a game's seed


def play_game(game_name: str, player: ModuleType, strengths: tuple[str, str], options: dict[str, Any],
              seed: int, budget_s: float, rng: random.Random, stark_log: list,
              stark_nodes: int | None = None) -> int | None:
    """One game; ``strengths[seat]`` plays ``seat``.  Returns the winning seat or None.
    With ``stark_nodes`` Stark searches that many nodes a move instead of watching the
    clock (``budget_s`` is then only a safety limit): the same game on any machine."""
    game = get_game(game_name)
    state = game.new_game(options, seed)
    while game.outcome(state) is None:
        seat = state.side
        view = game.view(state, seat)
        stats: dict[str, int] = {}
        started = time.monotonic()
        limit = stark_nodes if strengths[seat] == "stark" else None
        text = player.PLAYER.choose_move(view, strengths[seat], started + budget_s, rng, node_limit=limit, stats=stats)
        took = time.monotonic() - started
        if strengths[seat] == "stark" and stats:
            stark_log.append((took, stats["nodes"], stats["depth"]))
        state = game.apply(state, text, seat)
    return game.outcome(state).winner


def ladder(game_name: str, player: ModuleType, options_for: OptionsFor, seed_for: SeedFor, stronger: str,
           weaker: str, games: int, budget_s: float, stark_log: list, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    points = 0.0
    results = {"wins": 0, "draws": 0, "losses": 0}
    for i in range(games):
        options = options_for(i)
        strong_seat = i % 2
        strengths = (stronger, weaker) if strong_seat == 0 else (weaker, stronger)
        winner = play_game(game_name, player, strengths, options, seed_for(rng), budget_s, rng, stark_log)
        if winner is None:
            points += 0.5
            results["draws"] += 1
        elif winner == strong_seat:
            points += 1
            results["wins"] += 1
        else:
            results["losses"] += 1
    return {"games": games, **results, "score_share": round(points / games, 3) if games else None}


def run(game_name: str, player: ModuleType, options_for: OptionsFor, seed_for: SeedFor, games: int,
        budget_s: float) -> dict[str, Any]:
    stark_log: list[tuple[float, int, int]] = []
    started = time.monotonic()
    stark_mittel = ladder(game_name, player, options_for, seed_for, "stark", "mittel", games, budget_s, stark_log, 1)
    mittel_leicht = ladder(game_name, player, options_for, seed_for, "mittel", "leicht", games, budget_s, [], 2)
    searched = [(t, n, d) for t, n, d in stark_log if d > 0]
    seconds = sum(t for t, _, _ in searched)
    return {
        "game": game_name,
        "budget_s": budget_s,
        "stark": {
            "moves": len(stark_log),
            "nodes_per_s": round(sum(n for _, n, _ in searched) / seconds) if seconds else None,
            "mean_depth": round(sum(d for _, _, d in searched) / len(searched), 2) if searched else None,
            "within_budget_share": (
                round(sum(1 for t, _, _ in stark_log if t <= budget_s * 1.1) / len(stark_log), 3) if stark_log else None
            ),
            "max_move_s": round(max((t for t, _, _ in stark_log), default=0.0), 3),
        },
        "ladder": {"stark_vs_mittel": stark_mittel, "mittel_vs_leicht": mittel_leicht},
        "wall_s": round(time.monotonic() - started, 1),
    }


def main(bench_run: Callable[[int, float], dict[str, Any]], default_budget_s: float) -> None:
    """``python -m bench.ai_<game> [games] [budget_s]``: print the JSON of ``bench_run``."""
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else default_budget_s
    print(json.dumps(bench_run(n_games, budget), indent=2))
