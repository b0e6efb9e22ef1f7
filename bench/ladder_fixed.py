"""The strength ladder at fixed search effort: results that do not depend on machine load.

    .venv/bin/python -m bench.ladder_fixed [all --games 100 --processes 2 --out FILE]
    .venv/bin/python -m bench.ladder_fixed calibrate [--positions 12]
    .venv/bin/python -m bench.ladder_fixed play --game hexagon --pairing stark-mittel --games 100 \\
        --effort 80000 --processes 2 --out /tmp/ladder_hexagon_sm.jsonl

A ladder that gives Stark its budget in *seconds* measures the machine as much as the
player: on a shared two-core box Stark searches a fraction of what it searches alone.
Here Stark searches a fixed amount per move instead — nodes for Battlehexagon and
Battlebullet (iterative deepening stops at the node limit exactly as it stops at the
deadline), sampled positions for Battlegeneral and Battlehanse — and every side gets a
generous deadline, so Leicht and Mittel always finish their fixed depth.  ``calibrate``
measures how much Stark searches within its real budget (``THINK_SECONDS`` less the
worker's safety margin) on this machine, over positions spread through Mittel games;
run it on a quiet machine and pass its median as ``--effort`` to get "Stark at full
budget" on any machine, however loaded.  A smaller effort gives a weaker Stark.

``all`` (the default, what ``make proof`` runs: hours on two cores) calibrates, then
plays every pairing of every game at the calibrated effort.  ``play`` appends one JSON line per game to ``--out`` and skips games already there, so an
interrupted ladder goes on where it stopped; the summary (score share of the stronger
side, a draw counting half — for Battlehanse a whole match of best of three rounds —
with a 95 % Wilson interval) is printed as JSON at the end, or alone with ``summary``.
Colours alternate (game i: the stronger side has seat i % 2); maps, end rules, layouts,
setups and deals vary with the game index as in ``bench.ai_<game>``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from bench import ai_bullet, ai_general, ai_hanse, ai_hexagon, inprocess_ladder, ladder_results
from bench.ai_general import wilson_interval
from services.ai_worker.players import bullet, general, hanse, hexagon
from shared.ai_protocol import THINK_SECONDS, WORKER_SAFETY_MARGIN, WORKER_SAFETY_SHARE
from shared.games import get_game

PLAYERS = {"hexagon": hexagon, "bullet": bullet, "general": general, "hanse": hanse}
PAIRINGS = {"stark-mittel": ("stark", "mittel"), "mittel-leicht": ("mittel", "leicht")}
EFFORT_UNIT = {"hexagon": "nodes", "bullet": "nodes", "general": "samples", "hanse": "samples"}
SAFETY_S = 120.0  # every side's deadline: only a guard against a hung search


def searched_budget(game: str) -> float:
    """Stark's seconds of search at a table: its think time less the worker's margin."""
    think = THINK_SECONDS[game]["stark"]
    return think - WORKER_SAFETY_MARGIN - WORKER_SAFETY_SHARE * think


def play_one(game: str, strengths: tuple[str, str], index: int, effort: int) -> dict[str, Any]:
    """Game (or Battlehanse match) ``index`` with ``strengths[seat]`` in ``seat``; the winner or None."""
    seed = 1000 + index
    limit = effort or None  # 0: no Stark in this pairing
    if game in ("hexagon", "bullet"):
        bench = ai_hexagon if game == "hexagon" else ai_bullet
        rng = random.Random(seed)
        winner = inprocess_ladder.play_game(game, PLAYERS[game], strengths, bench.options_for(index),
                                            bench.seed_for(rng), SAFETY_S, rng, [], stark_nodes=limit)
        return {"winner": winner}
    if game == "general":
        result = ai_general.play_game(strengths, SAFETY_S, seed, samples=limit)
        return {"winner": result["winner"], "plies": result["plies"], "adjudicated": result["adjudicated"]}
    result = ai_hanse.play_match(strengths, SAFETY_S, seed, first=(index // 2) % 2, samples=limit)
    return {"winner": result["winner"], "moves": result["moves"]}


def _job(args: tuple[str, str, int, int]) -> dict[str, Any]:
    game, pairing, index, effort = args
    stronger, weaker = PAIRINGS[pairing]
    strong_seat = index % 2
    strengths = (stronger, weaker) if strong_seat == 0 else (weaker, stronger)
    started = time.monotonic()
    result = play_one(game, strengths, index, effort)
    return {"game": game, "pairing": pairing, "effort": effort, "index": index, "strong_seat": strong_seat,
            **result, "seconds": round(time.monotonic() - started, 1)}


def read_results(out: Path, game: str, pairing: str, effort: int) -> list[dict[str, Any]]:
    return ladder_results.read_rows(out, lambda r: (r["game"], r["pairing"], r["effort"]) == (game, pairing, effort))


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    score, wins, draws = ladder_results.tally(rows, lambda r: r["strong_seat"])
    first = rows[0] if rows else {}
    return {
        "game": first.get("game"), "pairing": first.get("pairing"),
        "effort": first.get("effort"), "effort_unit": EFFORT_UNIT.get(first.get("game", ""), None),
        "games": len(rows),
        "strong_score_share": round(score / len(rows), 3) if rows else None,
        "wilson_95": list(wilson_interval(score, len(rows))),
        "wins_draws_losses": [wins, draws, len(rows) - wins - draws],
        "adjudicated": sum(r.get("adjudicated", False) for r in rows),
        "mean_game_seconds": round(statistics.fmean(r["seconds"] for r in rows), 1) if rows else None,
    }


def play(game: str, pairing: str, games: int, effort: int, processes: int, out: Path) -> dict[str, Any]:
    done = {r["index"] for r in read_results(out, game, pairing, effort)}
    jobs = [(game, pairing, i, effort) for i in range(games) if i not in done]
    with ProcessPoolExecutor(processes) as pool, out.open("a") as sink:
        for future in as_completed([pool.submit(_job, job) for job in jobs]):
            row = future.result()
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            print(f"{game} {pairing} game {row['index']}: winner {row['winner']} "
                  f"(strong seat {row['strong_seat']}) in {row['seconds']} s", file=sys.stderr, flush=True)
    return ladder_summary(out, game, pairing, effort, games)


def ladder_summary(out: Path, game: str, pairing: str, effort: int, games: int) -> dict[str, Any]:
    """The summary of the first ``games`` games of one ladder recorded in ``out``."""
    rows = [r for r in read_results(out, game, pairing, effort) if r["index"] < games]
    return summary(sorted(rows, key=lambda r: r["index"]))


def calibrate(positions: int, seed: int = 7) -> dict[str, Any]:
    """Stark's search effort per move within its real budget, over positions spread through
    Mittel-vs-Mittel games (every third position from the first with a choice)."""
    report: dict[str, Any] = {}
    for game_name, player in PLAYERS.items():
        game = get_game(game_name)
        budget = searched_budget(game_name)
        efforts: list[int] = []
        rng = random.Random(seed)
        game_seed = seed
        while len(efforts) < positions:
            state = game.new_game({}, game_seed)
            game_seed += 1
            ply = 0
            while game.outcome(state) is None and len(efforts) < positions and ply < 300:
                seat = game.to_move(state)[0]
                view = game.view(state, seat)
                if len(view.get("legal_moves") or []) > 1 and ply % 3 == 0 and view.get("phase") != "setup":
                    stats: dict[str, int] = {}
                    player.PLAYER.choose_move(view, "stark", time.monotonic() + budget, rng, stats=stats)
                    efforts.append(stats[EFFORT_UNIT[game_name]])
                state = game.apply(state, player.PLAYER.choose_move(view, "mittel", time.monotonic() + SAFETY_S, rng), seat)
                ply += 1
        report[game_name] = {"budget_s": round(budget, 3), "unit": EFFORT_UNIT[game_name],
                             "median": int(statistics.median(efforts)), "min": min(efforts), "max": max(efforts),
                             "positions": len(efforts)}
    return report


def play_all(games: int, processes: int, out: Path) -> dict[str, Any]:
    """Calibrate on this machine, then every game's two pairings at that effort."""
    efforts = calibrate(12)
    report: dict[str, Any] = {"calibration": efforts, "ladders": []}
    for game in PLAYERS:
        for pairing in PAIRINGS:
            effort = efforts[game]["median"] if pairing == "stark-mittel" else 0
            report["ladders"].append(play(game, pairing, games, effort, processes, out))
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    every = sub.add_parser("all")
    every.add_argument("--games", type=int, default=100)
    every.add_argument("--processes", type=int, default=2)
    every.add_argument("--out", type=Path, default=Path("ladder_fixed.jsonl"))
    cal = sub.add_parser("calibrate")
    cal.add_argument("--positions", type=int, default=12)
    for name in ("play", "summary"):
        cmd = sub.add_parser(name)
        cmd.add_argument("--game", choices=sorted(PLAYERS), required=True)
        cmd.add_argument("--pairing", choices=sorted(PAIRINGS), required=True)
        cmd.add_argument("--games", type=int, default=100)
        cmd.add_argument("--effort", type=int, required=True,
                         help="Stark's nodes or samples per move (0 for mittel-leicht)")
        cmd.add_argument("--out", type=Path, required=True)
        if name == "play":
            cmd.add_argument("--processes", type=int, default=1)
    args = parser.parse_args(sys.argv[1:] or ["all"])
    if args.command == "all":
        result = play_all(args.games, args.processes, args.out)
    elif args.command == "calibrate":
        result = calibrate(args.positions)
    elif args.command == "play":
        result = play(args.game, args.pairing, args.games, args.effort, args.processes, args.out)
    else:
        result = ladder_summary(args.out, args.game, args.pairing, args.effort, args.games)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
