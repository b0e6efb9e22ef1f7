"""Battlegeneral computer opponents: Stark's speed and a direct mini-ladder.

``run(games, budget_s)`` returns a dict, ``python -m bench.ai_general [games] [budget_s]``
prints it as JSON.  In process, no Celery.  Figures:

* ``stark``: sampled positions searched per second (each sample = every root move
  answered by every enemy reply, two plies), nodes (positions made) per second, mean
  samples per move, and the share of moves answered within ``budget_s`` + 10 %.
* ``ladder``: Stark vs Mittel and Mittel vs Leicht, ``games`` each, colours
  alternating, setups drawn by the players themselves (20 computer setups, mirrored
  half of the time).  A game still running after ``MAX_PLIES`` is adjudicated by
  material (``material_balance`` of :mod:`services.ai_worker.players.general_search`
  on the true position — material only, not Stark's positional terms — a margin of at
  least ``ADJUDICATION_MARGIN`` units wins, else a draw);
  the report counts how many games were adjudicated.  Score share of the stronger
  side: a win 1, a draw ½, with a 95 % Wilson interval (draws counted as half a
  win), wins / draws / losses, and for Stark the share of its moves answered within
  ``budget_s`` + 10 %.

``python -m bench.ai_general [games] [budget_s] [processes]``: with ``processes`` > 1
the games run in that many worker processes (each game is independent and seeded by
its number, so the result does not depend on the process count; only the timing
does — on a loaded machine fewer samples fit into a budget).
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from services.ai_worker.players import general as player
from services.ai_worker.players.general_belief import read_belief
from services.ai_worker.players.general_search import material_balance
from shared.games import get_game

GAME = get_game("general")
MAX_PLIES = 400
ADJUDICATION_MARGIN = 3.0


def play_game(
    strengths: tuple[str, str], budget_s: float, seed: int, max_plies: int = MAX_PLIES, samples: int | None = None
) -> dict[str, Any]:
    """One game, seat 0 playing ``strengths[0]``; returns winner (None = draw) and stats.
    With ``samples`` Stark searches that many sampled positions a move instead of
    watching the clock (``budget_s`` is then only a safety limit): the same game on
    any machine."""
    rng = random.Random(seed)
    state = GAME.new_game({}, seed)
    for seat in (0, 1):
        while seat in GAME.to_move(state):
            view = GAME.view(state, seat)
            state = GAME.apply(state, player.PLAYER.choose_move(view, strengths[seat], time.monotonic() + budget_s, rng), seat)
    times: list[float] = []
    plies = 0
    while GAME.outcome(state) is None and plies < max_plies:
        seat = GAME.to_move(state)[0]
        view = GAME.view(state, seat)
        started = time.monotonic()
        text = player.PLAYER.choose_move(view, strengths[seat], started + budget_s, rng, max_samples=samples)
        if strengths[seat] == "stark":
            times.append(time.monotonic() - started)
        state = GAME.apply(state, text, seat)
        plies += 1
    outcome = GAME.outcome(state)
    adjudicated = outcome is None
    if outcome is None:
        margin = material_balance(state, 0)
        winner = 0 if margin >= ADJUDICATION_MARGIN else 1 if margin <= -ADJUDICATION_MARGIN else None
    else:
        winner = outcome.winner
    return {"winner": winner, "plies": plies, "adjudicated": adjudicated, "stark_times": times}


def wilson_interval(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a score share (draws as half a win)."""
    if games == 0:
        return (0.0, 1.0)
    p = score / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return (round((centre - spread) / denominator, 3), round((centre + spread) / denominator, 3))


def _ladder_game(args: tuple[str, str, int, float, int]) -> tuple[int, dict[str, Any]]:
    strong, weak, game, budget_s, seed = args
    strong_seat = game % 2
    strengths = (strong, weak) if strong_seat == 0 else (weak, strong)
    return strong_seat, play_game(strengths, budget_s, seed * 1000 + game)


def ladder(strong: str, weak: str, games: int, budget_s: float, seed: int = 1, processes: int = 1) -> dict[str, Any]:
    score = 0.0
    adjudicated = 0
    plies = 0
    wins = draws = 0
    stark_moves = stark_within = 0
    jobs = [(strong, weak, game, budget_s, seed) for game in range(games)]
    if processes > 1:
        with ProcessPoolExecutor(processes) as pool:
            results = list(pool.map(_ladder_game, jobs))
    else:
        results = [_ladder_game(job) for job in jobs]
    for strong_seat, result in results:
        adjudicated += result["adjudicated"]
        plies += result["plies"]
        stark_moves += len(result["stark_times"])
        stark_within += sum(took <= budget_s * 1.1 for took in result["stark_times"])
        if result["winner"] is None:
            score += 0.5
            draws += 1
        elif result["winner"] == strong_seat:
            score += 1.0
            wins += 1
    return {
        "pairing": f"{strong} vs {weak}",
        "games": games,
        "strong_score_share": round(score / games, 3) if games else None,
        "wilson_95": list(wilson_interval(score, games)),
        "wins_draws_losses": [wins, draws, games - wins - draws],
        "adjudicated": adjudicated,
        "mean_plies": round(plies / games, 1) if games else None,
        "stark_moves_within_budget_share": round(stark_within / stark_moves, 4) if stark_moves else None,
    }


def stark_speed(budget_s: float, positions: int = 6, seed: int = 3) -> dict[str, Any]:
    """Samples and nodes per second of Stark's search from positions of a real game."""
    from services.ai_worker.players.general_search import pimc

    rng = random.Random(seed)
    state = GAME.new_game({}, seed)
    for seat in (0, 1):
        while seat in GAME.to_move(state):
            state = GAME.apply(
                state, player.PLAYER.choose_move(GAME.view(state, seat), "stark", time.monotonic() + 1, rng), seat
            )
    samples = 0
    nodes = 0
    seconds = 0.0
    within = 0
    per_move = []
    for _ in range(positions):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.to_move(state)[0]
        view = GAME.view(state, seat)
        belief = read_belief(view)
        moves = [player._move_int(m["text"]) for m in view["legal_moves"]]
        started = time.monotonic()
        _values, done, made = pimc(belief, moves, player._template(view), started + budget_s, rng)
        took = time.monotonic() - started
        nodes += made
        samples += done
        seconds += took
        per_move.append(done)
        within += took <= budget_s * 1.1
        state = GAME.apply(state, player.PLAYER.choose_move(view, "mittel", time.monotonic() + 1, rng), seat)
        for _ in range(6):  # a few Mittel moves so the positions differ
            if GAME.outcome(state) is not None:
                break
            s = GAME.to_move(state)[0]
            state = GAME.apply(state, player.PLAYER.choose_move(GAME.view(state, s), "mittel", time.monotonic() + 1, rng), s)
    return {
        "budget_s": budget_s,
        "samples_per_second": round(samples / seconds, 1) if seconds else None,
        "nodes_per_second": round(nodes / seconds) if seconds else None,
        "mean_samples_per_move": round(samples / len(per_move), 1) if per_move else None,
        "depth_plies": 2,
        "within_budget_share": round(within / len(per_move), 3) if per_move else None,
    }


def run(games: int, budget_s: float, processes: int = 1) -> dict[str, Any]:
    started = time.monotonic()
    stark_vs_mittel = ladder("stark", "mittel", games, budget_s, processes=processes)
    mittel_vs_leicht = ladder("mittel", "leicht", games, budget_s, processes=processes)
    return {
        "game": "general",
        "budget_s": budget_s,
        "processes": processes,
        "max_plies_before_adjudication": MAX_PLIES,
        "stark": stark_speed(budget_s),
        "ladder": [stark_vs_mittel, mittel_vs_leicht],
        "seconds": round(time.monotonic() - started, 1),
    }


if __name__ == "__main__":
    games_arg = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    budget_arg = float(sys.argv[2]) if len(sys.argv) > 2 else 0.1
    processes_arg = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    print(json.dumps(run(games_arg, budget_arg, processes_arg), indent=2))
