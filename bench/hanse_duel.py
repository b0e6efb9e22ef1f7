"""Battlehanse duels between any two players at fixed effort, and Stark's search speed.

    .venv/bin/python -m bench.hanse_duel play --a stark:40 --b previous:stark:40 --games 100 \\
        --out /tmp/hanse_duel.jsonl
    .venv/bin/python -m bench.hanse_duel summary --a stark:40 --b previous:stark:40 --out /tmp/hanse_duel.jsonl
    .venv/bin/python -m bench.hanse_duel speed [--positions 30 --budget 0.5]

A player is ``[module:]strength[:samples][@cpu_seconds]``: module ``new`` (the default:
:mod:`services.ai_worker.players.hanse`), ``previous`` (:mod:`bench.hanse_previous_stark`,
Stark before the Jaipur evaluation) or ``expert`` (:mod:`bench.hanse_expert`, a
rule-based trader); a suffix ``#weights.json`` plays the new Stark with the evaluation
weights of that file (``bench.hanse_tune fit``); ``samples`` fixes Stark's sampled deals per move, ``@cpu_seconds``
gives it that much CPU time per move (its clock is the process's CPU clock for the
move), so a duel does not depend on the machine's load: ``stark@0.15`` against
``previous:stark@0.15`` is equal time.  Every match is best of three
(two seals win); match *i* has seed ``1000 + i``, player A sits in seat ``i % 2`` and the
first round's starter alternates every two matches, so each deal is played from both
sides.  ``play`` appends one JSON line per match to ``--out`` and skips matches already
there (``--shard i/n`` splits the matches among ``n`` processes); the summary is A's share of matches won with a 95 % Wilson interval.

``speed`` reports, for the new and the previous Stark over the same positions (from
Mittel-vs-Mittel matches), sampled deals per CPU second, evaluated positions per CPU
second and plies searched per sample: CPU time, so another process's load on the
machine does not shrink the figures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import ladder_results
from bench.ai_general import wilson_interval
from bench.hanse_tune import weights_from_file
from services.ai_worker.players import player as player_frame
from shared.games import get_game

GAME = get_game("hanse")
MODULES = {
    "new": "services.ai_worker.players.hanse",
    "previous": "bench.hanse_previous_stark",
    "expert": "bench.hanse_expert",
}
SAFETY_S = 120.0  # only a guard against a hung search: the effort is fixed by samples


def choose_move_of(name: str) -> Callable[..., str]:
    """The choose_move of player ``name``: the new player's is its Player's, the others are modules'."""
    module = importlib.import_module(MODULES[name])
    return module.PLAYER.choose_move if name == "new" else module.choose_move


class Player:
    """One side of a duel: its module, strength, and its effort per move."""

    def __init__(self, spec: str) -> None:
        spec, _, weights = spec.partition("#")
        spec, _, cpu = spec.partition("@")
        parts = spec.split(":")
        name = parts.pop(0) if parts[0] in MODULES else "new"
        self.module = importlib.import_module(MODULES[name])
        self.choose_move = choose_move_of(name)
        self.strength = parts[0] if parts else "expert"
        self.samples = int(parts[1]) if len(parts) > 1 else None
        self.cpu_s = float(cpu) if cpu else None
        # Evaluation weights from a file (``bench.hanse_tune fit``): new Stark only.
        self.extra = {"weights": weights_from_file(Path(weights))} if weights else {}

    def choose(self, view: dict[str, Any], rng: random.Random, stats: dict[str, int]) -> str:
        if self.cpu_s is None:
            return self.choose_move(view, self.strength, time.monotonic() + SAFETY_S, rng,
                                    max_samples=self.samples, stats=stats, **self.extra)
        # The player reads its deadline from time.monotonic() (in its module and in the
        # players' common frame): for this move its clock is the CPU time this process
        # spent, so another process's load costs it nothing.
        clocked = (self.module, player_frame)
        for module in clocked:
            module.time = _CPU_CLOCK
        try:
            return self.choose_move(view, self.strength, time.process_time() + self.cpu_s, rng,
                                    max_samples=self.samples, stats=stats, **self.extra)
        finally:
            for module in clocked:
                module.time = time


class _CpuClock:
    monotonic = staticmethod(time.process_time)


_CPU_CLOCK = _CpuClock()


def play_match(a: str, b: str, index: int) -> dict[str, Any]:
    """Match ``index`` of A against B; the winner's letter and the number of moves."""
    players = [Player(a), Player(b)]
    seat_a = index % 2
    by_seat = (players[0], players[1]) if seat_a == 0 else (players[1], players[0])
    seed = 1000 + index
    rng = random.Random(seed)
    state = GAME.new_game({"first": (index // 2) % 2, "seals_to_win": 2}, seed)
    moves = 0
    samples = [[0, 0], [0, 0]]  # per player: deals searched, moves that searched
    started = time.process_time()
    while GAME.outcome(state) is None:
        seat = state.turn
        view = GAME.view(state, seat)
        stats: dict[str, int] = {}
        text = by_seat[seat].choose(view, rng, stats)
        if stats.get("samples"):
            side = 0 if seat == seat_a else 1
            samples[side][0] += stats["samples"]
            samples[side][1] += 1
        state = GAME.apply(state, text, seat)
        moves += 1
    winner = GAME.outcome(state).winner
    letter = None if winner is None else ("a" if winner == seat_a else "b")
    per_move = [round(n / m, 1) if m else None for n, m in samples]
    return {"a": a, "b": b, "index": index, "seat_a": seat_a, "winner": letter, "moves": moves,
            "seals": list(state.seals), "samples_per_move": per_move,
            "cpu_s": round(time.process_time() - started, 1)}


def read_rows(out: Path, a: str, b: str) -> list[dict[str, Any]]:
    return ladder_results.read_rows(out, lambda r: (r["a"], r["b"]) == (a, b))


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    score, wins, draws = ladder_results.tally(rows, lambda r: "a")
    first = rows[0] if rows else {}
    return {
        "a": first.get("a"), "b": first.get("b"), "matches": len(rows),
        "a_share": round(score / len(rows), 3) if rows else None,
        "wilson_95": list(wilson_interval(score, len(rows))),
        "a_wins_draws_losses": [wins, draws, len(rows) - wins - draws],
        "mean_cpu_s": round(statistics.fmean(r["cpu_s"] for r in rows), 1) if rows else None,
        "mean_samples_per_move": [_mean([r.get("samples_per_move", [None, None])[i] for r in rows]) for i in (0, 1)],
    }


def _mean(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(statistics.fmean(known), 1) if known else None


def play(a: str, b: str, games: int, out: Path, minutes: float | None = None, shard: str = "0/1") -> dict[str, Any]:
    """Matches 0..games-1 not yet in ``out``; stops early after ``minutes`` of wall time.
    ``shard`` ``i/n`` plays only the matches whose index is ``i`` modulo ``n``, so ``n``
    processes can share one ``--out`` (each row is one appended line)."""
    part, _, parts = shard.partition("/")
    done = {r["index"] for r in read_rows(out, a, b)}
    stop = time.monotonic() + 60 * minutes if minutes else float("inf")
    with out.open("a") as sink:
        for index in range(games):
            if index in done or index % int(parts) != int(part):
                continue
            if time.monotonic() >= stop:
                break
            row = play_match(a, b, index)
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            print(f"{a} vs {b} match {index}: winner {row['winner']} {row['seals']} ({row['cpu_s']} cpu s)",
                  file=sys.stderr, flush=True)
    rows = sorted(read_rows(out, a, b), key=lambda r: r["index"])
    return summary([r for r in rows if r["index"] < games])


def speed(positions: int, budget_s: float, seed: int = 5) -> dict[str, Any]:
    """Samples and evaluated positions per CPU second, plies per sample: new vs previous Stark."""
    report = {}
    views = []
    rng = random.Random(seed)
    mittel = choose_move_of("new")
    game_seed = seed
    while len(views) < positions:
        state = GAME.new_game({}, game_seed)
        game_seed += 1
        ply = 0
        while GAME.outcome(state) is None and len(views) < positions:
            seat = state.turn
            view = GAME.view(state, seat)
            if len(view["legal_moves"]) > 1 and ply % 4 == 1:
                views.append(view)
            state = GAME.apply(state, mittel(view, "mittel", time.monotonic() + SAFETY_S, rng), seat)
            ply += 1
    for name in ("previous", "new"):
        choose_move = choose_move_of(name)
        samples = nodes = 0
        plies: list[float] = []
        cpu = 0.0
        for view in views:
            stats: dict[str, int] = {}
            started = time.process_time()
            wall = time.monotonic()
            # The deadline is wall time; the CPU it bought is what is counted.
            choose_move(view, "stark", wall + budget_s, random.Random(1), stats=stats)
            cpu += time.process_time() - started
            samples += stats["samples"]
            nodes += stats["nodes"]
            plies.append(stats.get("plies_per_sample", stats["depth"]))
        report[name] = {
            "samples_per_cpu_s": round(samples / cpu, 1),
            "nodes_per_cpu_s": round(nodes / cpu),
            "plies_per_sample": round(statistics.fmean(plies), 2),
            "samples_per_move": round(samples / len(views), 1),
        }
    return {"positions": len(views), "budget_s": budget_s, **report}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("play", "summary"):
        cmd = sub.add_parser(name)
        cmd.add_argument("--a", required=True)
        cmd.add_argument("--b", required=True)
        cmd.add_argument("--games", type=int, default=100)
        cmd.add_argument("--out", type=Path, required=True)
        if name == "play":
            cmd.add_argument("--minutes", type=float, default=None, help="stop starting matches after this")
            cmd.add_argument("--shard", default="0/1", help="i/n: only the matches with index i modulo n")
    fast = sub.add_parser("speed")
    fast.add_argument("--positions", type=int, default=30)
    fast.add_argument("--budget", type=float, default=0.5)
    args = parser.parse_args()
    if args.command == "play":
        result = play(args.a, args.b, args.games, args.out, args.minutes, args.shard)
    elif args.command == "summary":
        rows = sorted(read_rows(args.out, args.a, args.b), key=lambda r: r["index"])
        result = summary([r for r in rows if r["index"] < args.games])
    else:
        result = speed(args.positions, args.budget)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
