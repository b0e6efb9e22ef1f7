"""Tune Battlebullet Stark's evaluation weights by self-play (SPSA), and check a tuned set.

    .venv/bin/python -m bench.bullet_tune [--iterations 10 --nodes 5000 --out bullet_tune.json]
    .venv/bin/python -m bench.bullet_tune duel --weights bullet_tune.json --games 100 --nodes 20000 \\
        --out bullet_duel.jsonl
    .venv/bin/python -m bench.bullet_tune duel --weights stark --against hand-set --games 100 \\
        --nodes 20000 --out bullet_duel.jsonl   # Stark's adopted weights against the hand-set ones

Simultaneous perturbation stochastic approximation: each iteration draws a random sign
per weight, plays Stark with the weights pushed up by those signs against Stark with
them pushed down (two games, colours swapped, fixed nodes per move so that load does
not matter, layouts cycling), and moves every weight along its sign by the score
difference.  Material stays 1 (the unit); contempt is not tuned (self-play cannot
value it: both sides hold the same).  The result (JSON: the weights after every
iteration) goes to ``--out`` and stdout; a tuned set is only adopted after it beats the
current weights: ``duel`` plays the tuned set (the ``final`` of a tuning run's JSON) against
Stark's own weights, both at the same fixed nodes a move, colours alternating, layouts cycling
(game *i*: the tuned side has seat ``i % 2``, layout ``(i // 2) % 3``), one JSON line per game
appended to ``--out`` (games already there are skipped), and prints the tuned side's score
share with its 95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from bench import ladder_results
from bench.ai_general import wilson_interval
from bench.bullet_stark import GAME, LAYOUTS, new_stark
from services.ai_worker.players.bullet_search import HAND_SET_WEIGHTS, STARK_WEIGHTS

TUNED = ("centre", "cohesion", "threat", "risk", "edge", "line")
STEP = {"centre": 0.01, "cohesion": 0.01, "threat": 0.1, "risk": 0.05, "edge": 0.02, "line": 0.01}  # c_k per weight
GAIN = 0.5  # a: how far one game's score difference moves a weight, in units of its step


def game(weights: tuple[dict[str, float], dict[str, float]], nodes: int, index: int,
         layout: str | None = None) -> int | None:
    """One game, ``weights[seat]`` playing ``seat``; the winner seat or None."""
    state = GAME.new_game({"layout": layout or LAYOUTS[index % 3], "win_target": 6, "move_limit": 100}, 0)
    rng = random.Random(index)
    while GAME.outcome(state) is None:
        seat = state.side
        text = new_stark(GAME.view(state, seat), rng, nodes, None, weights[seat])
        state = GAME.apply(state, text, seat)
    return GAME.outcome(state).winner


def tune(iterations: int, nodes: int, seed: int = 1) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    theta = dict(STARK_WEIGHTS)
    history: list[dict[str, Any]] = []
    for k in range(iterations):
        signs = {name: rng.choice((-1, 1)) for name in TUNED}
        scale = 1.0 / (1 + k) ** 0.101  # SPSA's slowly shrinking perturbation
        plus = {**theta, **{n: theta[n] + scale * STEP[n] * signs[n] for n in TUNED}}
        minus = {**theta, **{n: theta[n] - scale * STEP[n] * signs[n] for n in TUNED}}
        score = 0.0  # plus's points minus minus's, over two games
        for seat_of_plus in (0, 1):
            pair = (plus, minus) if seat_of_plus == 0 else (minus, plus)
            winner = game(pair, nodes, 2 * k + seat_of_plus)
            if winner is not None:
                score += 1.0 if winner == seat_of_plus else -1.0
        gain = GAIN / (1 + k) ** 0.602
        for name in TUNED:
            theta[name] = max(0.0, theta[name] + gain * score * STEP[name] * signs[name])
        history.append({"iteration": k, "score_plus_minus": score, "weights": dict(theta)})
    return history


def duel(tuned: dict[str, float], games: int, nodes: int, out: Path,
         against: dict[str, float] | None = None) -> dict[str, Any]:
    """The tuned weights against ``against`` (Stark's own), ``games`` games at ``nodes`` a move each."""
    weights = {**STARK_WEIGHTS, **tuned}
    yardstick = against or STARK_WEIGHTS

    def ours(row: dict[str, Any]) -> bool:
        return row["nodes"] == nodes and row["weights"] == weights and row.get("against", STARK_WEIGHTS) == yardstick

    done = {r["index"] for r in ladder_results.read_rows(out, ours)}
    with out.open("a") as sink:
        for index in range(games):
            if index in done:
                continue
            seat = index % 2
            layout = LAYOUTS[(index // 2) % 3]
            pair = (weights, yardstick) if seat == 0 else (yardstick, weights)
            started = time.monotonic()
            winner = game(pair, nodes, index, layout)
            sink.write(json.dumps({"index": index, "nodes": nodes, "weights": weights, "against": yardstick,
                                   "tuned_seat": seat,
                                   "layout": layout, "winner": winner,
                                   "seconds": round(time.monotonic() - started, 1)}) + "\n")
            sink.flush()
    rows = [r for r in ladder_results.read_rows(out, ours) if r["index"] < games]
    score, wins, draws = ladder_results.tally(rows, lambda r: r["tuned_seat"])
    return {"nodes": nodes, "weights": weights, "against": yardstick, "games": len(rows),
            "tuned_score_share": round(score / len(rows), 3) if rows else None,
            "wilson_95": list(wilson_interval(score, len(rows))),
            "wins_draws_losses": [wins, draws, len(rows) - wins - draws]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    if sys.argv[1:2] == ["duel"]:
        parser.add_argument("command")
        parser.add_argument("--weights", required=True,
                            help="a tuning run's JSON (its final weights), or 'stark' for Stark's own weights")
        parser.add_argument("--against", choices=("stark", "hand-set"), default="stark",
                            help="the yardstick: Stark's weights, or the hand-set ones Stark had before")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--nodes", type=int, default=20000)
        parser.add_argument("--out", type=Path, required=True)
        args = parser.parse_args()
        tuned = STARK_WEIGHTS if args.weights == "stark" else json.loads(Path(args.weights).read_text())["final"]
        against = HAND_SET_WEIGHTS if args.against == "hand-set" else STARK_WEIGHTS
        print(json.dumps(duel(tuned, args.games, args.nodes, args.out, against), indent=2))
        return
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--out", type=Path, default=Path("bullet_tune.json"))
    args = parser.parse_args()
    started = time.monotonic()
    history = tune(args.iterations, args.nodes)
    result = {"iterations": args.iterations, "nodes": args.nodes, "seconds": round(time.monotonic() - started, 1),
              "final": history[-1]["weights"] if history else STARK_WEIGHTS, "history": history}
    args.out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
