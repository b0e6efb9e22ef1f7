"""Battlebullet Stark against the previous Stark: speed on the same trees, depth in time,
and games at equal time.

    .venv/bin/python -m bench.bullet_stark [proof --games 100 --out bullet_stark.jsonl]
    .venv/bin/python -m bench.bullet_stark speed [--positions 40 --depth 3]
    .venv/bin/python -m bench.bullet_stark depth [--positions 12 --seconds 1.0 1.8]
    .venv/bin/python -m bench.bullet_stark calibrate [--positions 12 --seconds 1.8]
    .venv/bin/python -m bench.bullet_stark play --games 100 --old-nodes N --new-nodes M --out FILE
    .venv/bin/python -m bench.bullet_stark summary --out FILE

* ``proof`` (the default, what ``make proof`` runs: hours on one core): ``calibrate``,
  then ``play`` at the calibrated nodes — Stark against the previous Stark at equal time.
* ``speed``: the previous Stark (:mod:`bench.bullet_previous_stark`, pure Python) and
  the compiled search in its reference mode search the *same* tree (same depth, same
  move order, same node count — checked) on positions spread through games on the three
  layouts; JSON with both nodes per second and their ratio, measured in the same run, so
  machine load affects both alike.
* ``depth``: the depth the current Stark finishes in the given seconds (real time) on
  the same kind of positions, with its nodes per second.
* ``calibrate``: nodes each side searches in ``--seconds`` of real time on those
  positions (medians) — "equal time" in nodes: pass them to ``play`` as
  ``--old-nodes`` / ``--new-nodes``.  On a loaded machine, measure both in the same run
  and scale both by the same factor to play a reduced version.
* ``play``: games Stark vs previous Stark, each searching its node budget per move
  (fixed effort: the same games on any machine, however loaded); colours alternate,
  layouts cycle (Standard, Belgisches, Deutsches Gänseblümchen), win target 6, move
  limit 100 per side so every game ends.  One JSON line per game is appended to
  ``--out`` (games already there are skipped); the summary gives the new Stark's score
  share (a draw counts half) with a 95 % Wilson interval, also per colour.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench import bullet_previous_stark as previous
from bench import ladder_results
from bench.ai_general import wilson_interval
from bench.bullet_previous_search import AlphaBeta
from services.ai_worker.players import bullet as current
from services.ai_worker.players import bullet_search
from shared.games import get_game
from shared.games.bullet.movegen import TEXT as MOVE_TEXT

GAME = get_game("bullet")
LAYOUTS = ("standard", "belgisch", "deutsch")
SAFETY_S = 600.0  # deadline under a node budget: only a guard against a hung search


def bench_positions(count: int, seed: int = 11) -> list[Any]:
    """Running positions from seeded random games on the three layouts, after 4–40 plies."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = GAME.new_game({"layout": LAYOUTS[len(out) % 3], "win_target": 6, "move_limit": 100}, 0)
        for _ in range(rng.choice((4, 10, 20, 40))):
            if GAME.outcome(state) is not None:
                break
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)).text)
        if GAME.outcome(state) is None:
            out.append(state)
    return out


def speed(positions: int, depth: int) -> dict[str, Any]:
    old_s = new_s = 0.0
    nodes = 0
    same = 0
    for state in bench_positions(positions):
        view = GAME.view(state, state.side)
        rules, pos, _ = previous._rules_and_position(view, full=True)
        search = AlphaBeta(rules, time.monotonic() + SAFETY_S, None, None)
        started = time.perf_counter()
        old_move, old_value = search.best_move(pos, depth)
        old_s += time.perf_counter() - started
        root = bullet_search.make_root(state)
        started = time.perf_counter()
        move, value, ctx = bullet_search.reference_best(root, depth, True, time.monotonic() + SAFETY_S, None, None)
        new_s += time.perf_counter() - started
        nodes += search.nodes
        same += (move, value, ctx.nodes) == (old_move, old_value, search.nodes)
    return {
        "positions": positions, "depth": depth, "nodes": nodes, "identical_trees": same,
        "previous_nodes_per_s": round(nodes / old_s), "compiled_nodes_per_s": round(nodes / new_s),
        "ratio": round(old_s / new_s, 1),
    }


def depth_in_time(positions: int, seconds: list[float]) -> dict[str, Any]:
    report: dict[str, Any] = {"positions": positions}
    for budget in seconds:
        depths, rates = [], []
        for i, state in enumerate(bench_positions(positions)):
            stats: dict[str, int] = {}
            started = time.monotonic()
            current.PLAYER.choose_move(GAME.view(state, state.side), "stark", started + budget, random.Random(i), stats=stats)
            depths.append(stats["depth"])
            rates.append(stats["nodes"] / (time.monotonic() - started))
        report[f"{budget:g}s"] = {"mean_depth": round(statistics.fmean(depths), 2), "min_depth": min(depths),
                                  "max_depth": max(depths), "median_nodes_per_s": round(statistics.median(rates))}
    return report


def calibrate(positions: int, seconds: float) -> dict[str, Any]:
    old_nodes, new_nodes = [], []
    for i, state in enumerate(bench_positions(positions, seed=23)):
        view = GAME.view(state, state.side)
        for choose_move, sink in ((previous.choose_move, old_nodes), (current.PLAYER.choose_move, new_nodes)):
            stats: dict[str, int] = {}
            choose_move(view, "stark", time.monotonic() + seconds, random.Random(i), stats=stats)
            sink.append(stats["nodes"])
    return {"seconds": seconds, "positions": positions, "old_nodes": int(statistics.median(old_nodes)),
            "new_nodes": int(statistics.median(new_nodes)),
            "ratio": round(statistics.median(new_nodes) / statistics.median(old_nodes), 1)}


def _view_root(view: dict[str, Any]) -> tuple[bullet_search.Root, str]:
    rules, _pos, state = current._rules_and_position(view, full=True)
    return bullet_search.make_root(state, rules.seen), view["legal_moves"][0]["text"]


def previous_compiled(view: dict[str, Any], rng: random.Random, nodes: int) -> str:
    """The previous Stark's move at a node budget, on the compiled reference search
    (node for node the same as :mod:`bench.bullet_previous_stark`: tests/ai/test_bullet_kernels.py)."""
    root, fallback = _view_root(view)
    move, _value, _ctx = bullet_search.reference_best(root, current.STARK_MAX_DEPTH, True,
                                                      time.monotonic() + SAFETY_S, nodes, rng)
    return fallback if move is None else MOVE_TEXT[move]


def previous_python(view: dict[str, Any], rng: random.Random, nodes: int) -> str:
    return previous.choose_move(view, "stark", time.monotonic() + SAFETY_S, rng, node_limit=nodes)


def new_stark(view: dict[str, Any], rng: random.Random, nodes: int, options: dict[str, int] | None = None,
              weights: dict[str, float] | None = None) -> str:
    """Stark's move at a node budget; ``options`` / ``weights`` override its defaults (experiments)."""
    if not options and not weights:
        return current.PLAYER.choose_move(view, "stark", time.monotonic() + SAFETY_S, rng, node_limit=nodes)
    root, fallback = _view_root(view)
    move, _value, _ctx = bullet_search.stark_best(root, current.STARK_MAX_DEPTH, time.monotonic() + SAFETY_S, nodes,
                                                  rng, {**bullet_search.STARK_WEIGHTS, **(weights or {})}, options)
    return fallback if move is None else MOVE_TEXT[move]


def play_one(index: int, old_nodes: int, new_nodes: int, old: str = "compiled", variant: str = "") -> dict[str, Any]:
    """Game ``index``: the new Stark has seat ``index % 2``.  ``variant``: JSON of
    ``{"options": {...}, "weights": {...}}`` for the new side (empty: Stark as it plays)."""
    new_seat = index % 2
    options = {"layout": LAYOUTS[(index // 2) % 3], "win_target": 6, "move_limit": 100}
    state = GAME.new_game(options, 0)
    rng = random.Random(5000 + index)
    started = time.monotonic()
    plies = 0
    overrides = json.loads(variant) if variant else {}
    old_player = previous_compiled if old == "compiled" else previous_python
    while GAME.outcome(state) is None:
        seat = state.side
        view = GAME.view(state, seat)
        if seat == new_seat:
            text = new_stark(view, rng, new_nodes, overrides.get("options"), overrides.get("weights"))
        else:
            text = old_player(view, rng, old_nodes)
        state = GAME.apply(state, text, seat)
        plies += 1
    outcome = GAME.outcome(state)
    return {"index": index, "old_nodes": old_nodes, "new_nodes": new_nodes, "old": old, "variant": variant,
            "new_seat": new_seat, "layout": options["layout"], "winner": outcome.winner, "reason": outcome.reason,
            "out": list(state.out), "plies": plies, "seconds": round(time.monotonic() - started, 1)}


def read_rows(out: Path, key: tuple[int, int, str, str] | None = None) -> list[dict[str, Any]]:
    """The games in ``out`` (of one ladder: old nodes, new nodes, old side, variant)."""
    return ladder_results.read_rows(out, lambda r: key is None or _key(r) == key)


def _key(row: dict[str, Any]) -> tuple[int, int, str, str]:
    return row["old_nodes"], row["new_nodes"], row.get("old", "compiled"), row.get("variant", "")


def _share(rows: list[dict[str, Any]]) -> dict[str, Any]:
    score, wins, draws = ladder_results.tally(rows, lambda r: r["new_seat"])
    return {"games": len(rows), "new_score_share": round(score / len(rows), 3) if rows else None,
            "wilson_95": list(wilson_interval(score, len(rows))),
            "wins_draws_losses": [wins, draws, len(rows) - wins - draws]}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    first = rows[0] if rows else {}
    return {"old_nodes": first.get("old_nodes"), "new_nodes": first.get("new_nodes"), "old": first.get("old"),
            "variant": first.get("variant"), **_share(rows),
            "new_as_first_player": _share([r for r in rows if r["new_seat"] == 0]),
            "new_as_second_player": _share([r for r in rows if r["new_seat"] == 1]),
            "mean_game_seconds": round(statistics.fmean(r["seconds"] for r in rows), 1) if rows else None}


def play(games: int, old_nodes: int, new_nodes: int, out: Path, minutes: float | None, old: str = "compiled",
         variant: str = "") -> dict[str, Any]:
    key = (old_nodes, new_nodes, old, variant)
    done = {r["index"] for r in read_rows(out, key)}
    stop_at = None if minutes is None else time.monotonic() + 60 * minutes
    with out.open("a") as sink:
        for index in range(games):
            if index in done:
                continue
            if stop_at is not None and time.monotonic() >= stop_at:
                break
            row = play_one(index, old_nodes, new_nodes, old, variant)
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            print(f"game {index}: winner {row['winner']} (new seat {row['new_seat']}) {row['reason']} "
                  f"in {row['seconds']} s", file=sys.stderr, flush=True)
    return {"old": old, "variant": variant,
            **summary(sorted(read_rows(out, key), key=lambda r: r["index"]))}


def _groups(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    by_key: dict[tuple[int, int, str, str], list[dict[str, Any]]] = {}
    for row in rows:
        by_key.setdefault(_key(row), []).append(row)
    return list(by_key.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    cmd = sub.add_parser("proof")
    cmd.add_argument("--games", type=int, default=100)
    cmd.add_argument("--out", type=Path, default=Path("bullet_stark.jsonl"))
    cmd = sub.add_parser("speed")
    cmd.add_argument("--positions", type=int, default=40)
    cmd.add_argument("--depth", type=int, default=3)
    cmd = sub.add_parser("depth")
    cmd.add_argument("--positions", type=int, default=12)
    cmd.add_argument("--seconds", type=float, nargs="+", default=[1.0, 1.8])
    cmd = sub.add_parser("calibrate")
    cmd.add_argument("--positions", type=int, default=12)
    cmd.add_argument("--seconds", type=float, default=1.8)
    cmd = sub.add_parser("play")
    cmd.add_argument("--games", type=int, default=100)
    cmd.add_argument("--old-nodes", type=int, required=True)
    cmd.add_argument("--new-nodes", type=int, required=True)
    cmd.add_argument("--out", type=Path, required=True)
    cmd.add_argument("--minutes", type=float, default=None, help="stop starting new games after this long")
    cmd.add_argument("--old", choices=("compiled", "python"), default="compiled",
                     help="the previous Stark on the compiled reference search (same moves, faster) or in Python")
    cmd.add_argument("--variant", default="", help='JSON {"options": {...}, "weights": {...}} for the new side')
    cmd = sub.add_parser("summary")
    cmd.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(sys.argv[1:] or ["proof"])
    if args.command == "proof":
        efforts = calibrate(12, 1.8)
        result = {"calibration": efforts,
                  **play(args.games, efforts["old_nodes"], efforts["new_nodes"], args.out, None)}
    elif args.command == "speed":
        result = speed(args.positions, args.depth)
    elif args.command == "depth":
        result = depth_in_time(args.positions, args.seconds)
    elif args.command == "calibrate":
        result = calibrate(args.positions, args.seconds)
    elif args.command == "play":
        result = play(args.games, args.old_nodes, args.new_nodes, args.out, args.minutes, args.old, args.variant)
    else:
        rows = read_rows(args.out)
        result = {"ladders": [summary(sorted(group, key=lambda r: r["index"]))
                              for group in _groups(rows)]}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
