"""Battlebullet computer opponents, in process (no Celery): speed and a mini-ladder.

``python -m bench.ai_bullet [games] [budget_s]`` prints one JSON object; :func:`run`
returns it.  Figures:

* ``stark`` — over every Stark move of the ladder: nodes per second, mean depth
  reached, and the share of moves answered within ``budget_s`` + 10 %;
* ``ladder`` — Stark vs Mittel and Mittel vs Leicht, ``games`` games each, colours
  alternating, layouts cycling (Standard, Belgisches, Deutsches Gänseblümchen), win
  target 6 and 4 alternating, always with the move limit of 100 moves per side so
  every game ends: the stronger side's score share (a draw counts half).  Target ≥ 0.75.

Every player gets ``budget_s`` per move (Mittel stops at its 3 plies earlier).

Measured 2026-11-30 on 2 shared cores under load 2–9: at the full 1.8 s, 10 games per
pairing, Stark 50k nodes/s, mean depth 4.0, all moves within 1.98 s (worst 1.89 s),
Stark vs Mittel 1.0, Mittel vs Leicht 1.0.  With 20 games per pairing: at 1.0 s Stark
31.5k nodes/s, mean depth 3.8, 99.5 % of moves within 1.1 s (worst 1.20 s), Stark vs
Mittel 1.0, Mittel vs Leicht 1.0; at 0.3 s Stark depth 3.1, 97.8 % within budget + 10 %, Stark vs Mittel 0.80, Mittel vs Leicht 1.0.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from services.ai_worker.players import bullet as player
from shared.games import get_game

LAYOUTS = ("standard", "belgisch", "deutsch")
TARGETS = (6, 4)


def play_game(
    strengths: tuple[str, str], options: dict[str, Any], budget_s: float, rng: random.Random, stark_log: list
) -> int | None:
    """One game; ``strengths[seat]`` plays ``seat``.  Returns the winning seat or None."""
    game = get_game("bullet")
    state = game.new_game(options, 0)
    while game.outcome(state) is None:
        seat = state.side
        view = game.view(state, seat)
        stats: dict[str, int] = {}
        started = time.monotonic()
        text = player.choose_move(view, strengths[seat], started + budget_s, rng, stats=stats)
        took = time.monotonic() - started
        if strengths[seat] == "stark" and stats:
            stark_log.append((took, stats["nodes"], stats["depth"]))
        state = game.apply(state, text, seat)
    return game.outcome(state).winner


def ladder(stronger: str, weaker: str, games: int, budget_s: float, stark_log: list, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    points = 0.0
    results = {"wins": 0, "draws": 0, "losses": 0}
    for i in range(games):
        options = {
            "layout": LAYOUTS[(i // 2) % len(LAYOUTS)],
            "win_target": TARGETS[(i // 6) % 2],
            "move_limit": 100,
        }
        strong_seat = i % 2
        strengths = (stronger, weaker) if strong_seat == 0 else (weaker, stronger)
        winner = play_game(strengths, options, budget_s, rng, stark_log)
        if winner is None:
            points += 0.5
            results["draws"] += 1
        elif winner == strong_seat:
            points += 1
            results["wins"] += 1
        else:
            results["losses"] += 1
    return {"games": games, **results, "score_share": round(points / games, 3) if games else None}


def run(games: int = 20, budget_s: float = 1.8) -> dict[str, Any]:
    stark_log: list[tuple[float, int, int]] = []
    started = time.monotonic()
    stark_mittel = ladder("stark", "mittel", games, budget_s, stark_log, seed=1)
    mittel_leicht = ladder("mittel", "leicht", games, budget_s, [], seed=2)
    searched = [(t, n, d) for t, n, d in stark_log if d > 0]
    seconds = sum(t for t, _, _ in searched)
    return {
        "game": "bullet",
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


if __name__ == "__main__":
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 1.8
    print(json.dumps(run(n_games, budget), indent=2))
