"""Battlehanse computer opponents: Stark's speed and a direct mini-ladder of matches.

``run(games, budget_s)`` returns a dict, ``python -m bench.ai_hanse [games] [budget_s]``
prints it as JSON.  In process, no Celery.  Figures:

* ``stark``: positions evaluated per second (nodes), samples (determinizations)
  searched per move — each sample is three plies deep (own move, the opponent's best
  reply, own best next move) — and the share of moves answered within ``budget_s`` + 10 %.
* ``ladder``: Stark vs Mittel and Mittel vs Leicht, ``games`` matches each (two seals
  win, the engine's default), who begins the first round alternating, deals varying
  with the seed.  Reported: the stronger side's share of matches won.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from services.ai_worker.players import hanse as player
from shared.games import get_game

GAME = get_game("hanse")


def play_match(
    strengths: tuple[str, str],
    budget_s: float,
    seed: int,
    seals_to_win: int = 2,
    first: int = 0,
    samples: int | None = None,
) -> dict[str, Any]:
    """One match, seat 0 playing ``strengths[0]``; returns the winner and Stark's times.
    With ``samples`` Stark searches that many deals a move instead of watching the
    clock (``budget_s`` is then only a safety limit): the same match on any machine."""
    rng = random.Random(seed)
    state = GAME.new_game({"first": first, "seals_to_win": seals_to_win}, seed)
    times: list[float] = []
    moves = 0
    while GAME.outcome(state) is None:
        seat = state.turn  # in the pause: the seat that begins next says "weiter"
        view = GAME.view(state, seat)
        started = time.monotonic()
        stark_samples = samples if strengths[seat] == "stark" else None
        text = player.PLAYER.choose_move(view, strengths[seat], started + budget_s, rng, max_samples=stark_samples)
        if strengths[seat] == "stark":
            times.append(time.monotonic() - started)
        state = GAME.apply(state, text, seat)
        moves += 1
    return {"winner": GAME.outcome(state).winner, "moves": moves, "stark_times": times}


def ladder(strong: str, weak: str, games: int, budget_s: float, seed: int = 1) -> dict[str, Any]:
    wins = 0
    moves = 0
    for game in range(games):
        strong_seat = game % 2
        strengths = (strong, weak) if strong_seat == 0 else (weak, strong)
        result = play_match(strengths, budget_s, seed * 1000 + game, first=(game // 2) % 2)
        moves += result["moves"]
        wins += result["winner"] == strong_seat
    return {
        "pairing": f"{strong} vs {weak}",
        "matches": games,
        "strong_match_share": round(wins / games, 3) if games else None,
        "mean_moves": round(moves / games, 1) if games else None,
    }


def stark_speed(budget_s: float, positions: int = 12, seed: int = 5) -> dict[str, Any]:
    """Nodes (evaluated positions) and samples per move of Stark from real match positions."""
    rng = random.Random(seed)
    state = GAME.new_game({}, seed)
    nodes = 0
    samples_seen: list[int] = []
    seconds = 0.0
    within = 0
    measured = 0
    while measured < positions and GAME.outcome(state) is None:
        seat = state.turn
        view = GAME.view(state, seat)
        if len(view["legal_moves"]) > 1:
            stats: dict[str, int] = {}
            started = time.monotonic()
            player.PLAYER.choose_move(view, "stark", started + budget_s, rng, stats=stats)
            took = time.monotonic() - started
            seconds += took
            within += took <= budget_s * 1.1
            measured += 1
            nodes += stats.get("nodes", 0)
            samples_seen.append(stats.get("samples", 0))
        text = player.PLAYER.choose_move(view, "mittel", time.monotonic() + 1, rng)
        state = GAME.apply(state, text, seat)
    return {
        "budget_s": budget_s,
        "nodes_per_second": round(nodes / seconds) if seconds else None,
        "mean_samples_per_move": round(sum(samples_seen) / len(samples_seen), 1) if samples_seen else None,
        "depth_plies": player.STARK_DEPTH,
        "within_budget_share": round(within / measured, 3) if measured else None,
    }


def run(games: int, budget_s: float) -> dict[str, Any]:
    started = time.monotonic()
    return {
        "game": "hanse",
        "budget_s": budget_s,
        "stark": stark_speed(budget_s),
        "ladder": [ladder("stark", "mittel", games, budget_s), ladder("mittel", "leicht", games, budget_s)],
        "seconds": round(time.monotonic() - started, 1),
    }


if __name__ == "__main__":
    games_arg = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    budget_arg = float(sys.argv[2]) if len(sys.argv) > 2 else 0.1
    print(json.dumps(run(games_arg, budget_arg), indent=2))
