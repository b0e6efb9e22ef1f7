"""CPU per move with P game processes against one, measured in alternation so that a host
whose speed drifts cannot fake or hide the difference.

``python -m bench.tables_scaling [--games N] [--seconds S] [--processes 2] [--pairs K]`` prints JSON.

One ``python -m bench.tables --router nginx`` run is a few minutes long, and on a shared
machine the CPU a move costs drifts by a third within an hour (the echo server's own figure
moved from 0.71 to 1.28 ms between runs), more than the 15 % the scale-out target allows.  So
this benchmark runs P = 1 and P = ``--processes`` alternately, in ABBA order (1, P, P, 1, 1,
P, …), K times each: a linear drift falls on both sides alike.  Each pair (one run of
each, next to each other) gives a ratio of the game service's CPU per move with its
PostgreSQL and Redis (``bench.tables.stored_cpu``); ``ratio_median`` is their median and
``ratio_pooled`` the ratio of the two sides' means.  Each run also measures the bare echo
server behind the same router with as many processes, and ``echo_ratio_median`` is the
same ratio for it: how much the machine itself charges a move for being split over more
processes, which no server design avoids.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from typing import Any

from bench.tables import stored_cpu


def one_run(games: int, seconds: float, processes: int) -> dict[str, Any]:
    """One ``bench.tables`` run behind nginx; its JSON."""
    out = subprocess.run(
        [sys.executable, "-m", "bench.tables", "--games", str(games), "--seconds", str(seconds),
         "--game-processes", str(processes), "--router", "nginx"],
        check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(out.stdout)


def abba(pairs: int, processes: int) -> list[int]:
    """The order of runs: 1, P, P, 1, 1, P, … (``pairs`` runs of each)."""
    order: list[int] = []
    for k in range(pairs):
        order += [1, processes] if k % 2 == 0 else [processes, 1]
    return order


def summary(runs: list[dict[str, Any]], processes: int) -> dict[str, Any]:
    """Ratios P ÷ 1 from runs in ``abba`` order: per neighbouring pair, their median, and pooled."""
    ours = [stored_cpu(run["game_service"]) for run in runs]
    echo = [run["echo"]["cpu_ms_per_move"]["server"] for run in runs]
    sides = [run["game_processes"] for run in runs]

    def pair_ratios(values: list[float]) -> list[float]:
        ratios = []
        for i in range(0, len(values) - 1, 2):
            one, many = (values[i], values[i + 1]) if sides[i] == 1 else (values[i + 1], values[i])
            ratios.append(round(many / one, 3))
        return ratios

    def pooled(values: list[float]) -> float:
        many = statistics.mean(v for v, p in zip(values, sides, strict=True) if p == processes)
        one = statistics.mean(v for v, p in zip(values, sides, strict=True) if p == 1)
        return round(many / one, 3)

    ratios, echo_ratios = pair_ratios(ours), pair_ratios(echo)
    return {"ratios": ratios, "ratio_median": round(statistics.median(ratios), 3), "ratio_pooled": pooled(ours),
            "echo_ratios": echo_ratios, "echo_ratio_median": round(statistics.median(echo_ratios), 3),
            "echo_ratio_pooled": pooled(echo)}


def figures(run: dict[str, Any]) -> dict[str, Any]:
    """What one ``bench.tables`` run contributes, as this benchmark reports it."""
    ours = run["game_service"]["cpu_ms_per_move"]
    return {"game_processes": run["game_processes"], "cpu_ms_per_move": round(stored_cpu(run["game_service"]), 3),
            "server_postgres_redis": [ours["server"], ours.get("postgres_redis", 0.0)],
            "echo_cpu_ms_per_move": run["echo"]["cpu_ms_per_move"]["server"],
            "ratio_p50": run.get("ratio_p50"), "ratio_p99": run.get("ratio_p99"),
            "errors": run["game_service"]["errors"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--processes", type=int, default=2, metavar="P")
    parser.add_argument("--pairs", type=int, default=3, metavar="K")
    args = parser.parse_args()
    runs = []
    for processes in abba(args.pairs, args.processes):
        run = one_run(args.games, args.seconds, processes)
        runs.append(run)
        print(json.dumps(figures(run)), file=sys.stderr)  # progress: a run is minutes long
    result = {"games": args.games, "seconds": args.seconds, "processes": args.processes, "pairs": args.pairs,
              "runs": [figures(run) for run in runs], **summary(runs, args.processes)}
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
