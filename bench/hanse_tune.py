"""Fit Battlehanse Stark's evaluation weights to how rounds really end (Texel-style).

    .venv/bin/python -m bench.hanse_tune positions --matches 200 --deals 8 --shard 0/2 --out P_0.jsonl
    .venv/bin/python -m bench.hanse_tune fit --positions P_0.jsonl P_1.jsonl --out W.json
    .venv/bin/python -m bench.hanse_duel play --a 'stark:8#W.json' --b stark:8 --games 200 --out D.jsonl

Stark's evaluation says how many points a seat is ahead at the end of the round, once
its hand is sold and the Stallmarke given (plus the seal as the end nears, which the fit
leaves alone).  ``positions`` plays Stark against itself (a fixed number of deals a move,
one move in twenty at random so that the positions are not only Stark's own choices) and
writes every position in play with the round's final points margin; ``fit`` searches the
weights that predict that margin best (mean squared error of the evaluation without the
seal term, seat 0's view; each weight moved by its step up and down while that helps, the
steps halved when nothing does) and prints them with the error before and after.  A
fitted set is only adopted after it beats the current weights at the table
(``bench.hanse_duel``, the ``#weights.json`` suffix of a player).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from services.ai_worker.players import hanse as stark
from services.ai_worker.players.hanse_jaipur import STARK_WEIGHTS, Weights, evaluate
from shared.games.hanse import GAME, serial
from shared.games.hanse.state import PLAY, State

# Weights the fit moves, with their first step; the seal's weights stay (they weigh
# the seal, which the points margin does not show).
STEPS = {
    "hand_share": 0.05, "late_share": 0.05, "draws_per_ply": 0.05, "first_seller": 0.05,
    "growth_share": 0.05, "lone_precious": 0.1, "horse_currency": 0.1, "full_hand_cost": 0.3,
    "near_full_cost": 0.15, "stall_spread": 0.1, "stall_sure": 0.1,
}
RANDOM_SHARE = 0.05
SAFETY_S = 120.0


def weights_from_file(path: Path) -> Weights:
    data = json.loads(path.read_text())
    return Weights(**data.get("weights", data))


def positions(matches: int, deals: int, shard: str, out: Path) -> int:
    """Self-play matches; one JSON line per position in play: the state and the round's
    final points margin for seat 0."""
    part, _, parts = shard.partition("/")
    written = 0
    with out.open("a") as sink:
        for index in range(int(part), matches, int(parts)):
            rng = random.Random(index)
            state = GAME.new_game({"first": index % 2, "seals_to_win": 2}, 5000 + index)
            in_round: list[State] = []
            while GAME.outcome(state) is None:
                if state.phase == PLAY:
                    in_round.append(state)
                seat = state.turn
                view = GAME.view(state, seat)
                if state.phase == PLAY and rng.random() < RANDOM_SHARE:
                    text = rng.choice(view["legal_moves"])["text"]
                else:
                    text = stark.PLAYER.choose_move(view, "stark", time.monotonic() + SAFETY_S, rng, max_samples=deals)
                state = GAME.apply(state, text, seat)
                if state.phase != PLAY and in_round:
                    players = state.rounds[-1]["players"]
                    margin = players[0]["total"] - players[1]["total"]
                    for position in in_round:
                        sink.write(json.dumps({"match": index, "state": serial.to_json(position), "margin": margin}) + "\n")
                    written += len(in_round)
                    in_round = []
            print(f"match {index}: {written} positions", file=sys.stderr, flush=True)
    return written


def _without_seal(weights: Weights) -> Weights:
    """The weights with the seal's horizon shrunk to nothing: the seal term is left out
    wherever cards remain to draw.  With the deck empty (about 0.5 % of the positions in
    play) it still counts, as the evaluation's closeness is then whole for any horizon."""
    return dataclasses.replace(weights, seal_horizon=1e-9)


def error(weights: Weights, rows: list[tuple[State, int]]) -> float:
    """Mean squared error of the evaluation (seal term left out, see :func:`_without_seal`)
    against the final margin."""
    w = _without_seal(weights)
    return statistics.fmean((evaluate(state, 0, w) - margin) ** 2 for state, margin in rows)


def fit(rows: list[tuple[State, int]], start: Weights, rounds: int = 6) -> tuple[Weights, list[dict[str, Any]]]:
    """Local search: each weight up or down by its step while the error falls; then halve."""
    steps = dict(STEPS)
    best, best_error = start, error(start, rows)
    log = [{"error": round(best_error, 4)}]
    for _ in range(rounds):
        improved = True
        while improved:
            improved = False
            for name, step in steps.items():
                for sign in (1, -1):
                    value = getattr(best, name) + sign * step
                    if value < 0:
                        continue
                    trial = dataclasses.replace(best, **{name: round(value, 4)})
                    trial_error = error(trial, rows)
                    if trial_error < best_error:
                        best, best_error, improved = trial, trial_error, True
                        log.append({name: getattr(best, name), "error": round(best_error, 4)})
                        print(log[-1], file=sys.stderr, flush=True)
                        break
        steps = {name: step / 2 for name, step in steps.items()}
    return best, log


def read_positions(paths: list[Path]) -> tuple[list[tuple[State, int]], list[tuple[State, int]]]:
    """The positions of even matches (to fit) and of odd ones (held out: a weight set
    that only learned its own matches would predict the others worse)."""
    fit_rows: list[tuple[State, int]] = []
    held_out: list[tuple[State, int]] = []
    for path in paths:
        for line in path.read_text().splitlines():
            data = json.loads(line)
            (held_out if data["match"] % 2 else fit_rows).append((serial.from_json(data["state"]), data["margin"]))
    return fit_rows, held_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("positions")
    make.add_argument("--matches", type=int, default=200)
    make.add_argument("--deals", type=int, default=8)
    make.add_argument("--shard", default="0/1", help="i/n: only the matches with index i modulo n")
    make.add_argument("--out", type=Path, required=True)
    tune = sub.add_parser("fit")
    tune.add_argument("--positions", type=Path, nargs="+", required=True)
    tune.add_argument("--rounds", type=int, default=6)
    tune.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "positions":
        print(json.dumps({"positions": positions(args.matches, args.deals, args.shard, args.out)}))
        return
    train, check = read_positions(args.positions)
    tuned, log = fit(train, STARK_WEIGHTS, args.rounds)
    result = {
        "positions": {"fit": len(train), "held_out": len(check)},
        "error_before": {"fit": round(error(STARK_WEIGHTS, train), 3), "held_out": round(error(STARK_WEIGHTS, check), 3)},
        "error_after": {"fit": round(error(tuned, train), 3), "held_out": round(error(tuned, check), 3)},
        "weights": dataclasses.asdict(tuned),
        "log": log,
    }
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
