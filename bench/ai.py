"""AI figures through real Celery workers: Stark's speed and punctuality, and batch-review scaling.

    .venv/bin/python -m bench.ai [--budget 1.0] [--games 2] [--reviews 8] [--review-budget-ms 100] [--timeline]

1. **Stark through Celery** — per game, ``--games`` games Stark vs Mittel (colours
   alternating) with ``--budget`` seconds per move, every move through ``ai.move`` on
   one interactive worker.  For Stark's moves: nodes per second and mean depth
   (reported by the hexagon and bullet players; the others report none), and the share
   of moves answered within budget + 10 % (request sent → answer read; target 99 %).
   ``late`` splits each answer beyond that into ``queued_s`` (request sent → the worker
   began), ``search_s`` (the worker's decision) and ``back_s`` (answer written → read).
2. **Batch reviews** — ``--reviews`` reviews (both seats of short Battlehexagon and
   Battlebullet games) done by one batch worker, then the same batch (reset) by two;
   every worker has exactly one prefork child.  Reviews run in parts of up to 12 moves
   (``services/ai_worker/review_task.py``), so the two share long reviews.  Target: two
   take at most 60 % of one's time.  ``--timeline`` also prints, per run and worker, the
   parts it ran (review/part, from, to, moves; seconds since the batch was sent), its time
   inside ``judge``, storing moves, setting tasks up, and idle (read from the workers' logs).

Starts its own embedded PostgreSQL and Redis.  Prints one JSON object per figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import redis

from shared.ai_protocol import celery_sender
from tests.ai.game_rows import insert_finished, play_out, random_chooser
from tests.ai.remote_match import MatchDriver, Timing, sender_app
from tests.stack import CeleryWorker, Infra, start_infra


def stark_figures(infra: Infra, logs: Path, games: list[str], n_games: int, budget: float) -> list[dict]:
    client = redis.Redis.from_url(infra.redis_url, decode_responses=True)
    app = sender_app(infra.redis_url)
    out = []
    with CeleryWorker(infra, logs, queues="interactive", concurrency=1):
        driver = MatchDriver(client, celery_sender(app))
        driver.warm_up()
        for game in games:
            timings = []
            for index in range(n_games):
                stark_seat = index % 2
                strengths = ("stark", "mittel") if stark_seat == 0 else ("mittel", "stark")
                result = driver.play(game, strengths, budget, seed=2000 + index, move_timeout=budget * 20 + 30)
                seats = [s for s in result.move_seats if s is not None]
                timings += [t for t, s in zip(result.timings, seats, strict=True) if s == stark_seat]
            with_nodes = [t for t in timings if "nodes" in t.stats]
            search_s = sum(t.stats["search_ms"] for t in with_nodes) / 1000
            answered = [t.arrived - (t.deadline - t.budget) for t in timings]
            out.append({
                "figure": "stark_through_celery", "game": game, "budget_s": budget, "moves": len(timings),
                "nodes_per_s": round(sum(t.stats["nodes"] for t in with_nodes) / search_s) if search_s else None,
                "mean_depth": round(sum(t.stats["depth"] for t in with_nodes) / len(with_nodes), 2)
                if with_nodes else None,
                "within_budget_plus_10pct": round(sum(1 for a in answered if a <= budget * 1.1) / len(answered), 4),
                "max_answer_s": round(max(answered), 3), "mean_answer_s": round(sum(answered) / len(answered), 3),
                "late": [_where_time_went(t) for t, a in zip(timings, answered, strict=True) if a > budget * 1.1],
            })
            print(json.dumps(out[-1]), flush=True)
    app.close()
    client.close()
    return out


def _where_time_went(timing: Timing) -> dict[str, float]:
    """A late answer split into waiting for a worker, the worker's search and the way back."""
    sent = timing.deadline - timing.budget
    started = timing.stats.get("started_at", sent)
    search = timing.stats.get("search_ms", 0.0) / 1000
    return {"queued_s": round(started - sent, 3), "search_s": round(search, 3),
            "back_s": round(timing.arrived - started - search, 3), "depth": timing.stats.get("depth", 0)}


def review_batch(conn: psycopg.Connection, n_reviews: int) -> list[tuple[int, int]]:
    """(game_id, seat) of ``n_reviews`` reviews of short, finished games (half hexagon, half bullet)."""
    targets = []
    index = 0
    while len(targets) < n_reviews:
        game = "hexagon" if index % 2 == 0 else "bullet"
        options = {} if game == "hexagon" else {"win_target": 4, "move_limit": 100}
        moves, seats, final = play_out(game, options, 300 + index, random_chooser(index))
        game_id = insert_finished(conn, game, options, 300 + index, moves, seats, final)
        targets += [(game_id, 0), (game_id, 1)]
        index += 1
    return targets[:n_reviews]


def run_batch(infra: Infra, logs: Path, conn: psycopg.Connection, targets: list[tuple[int, int]], workers: int,
              budget_ms: int) -> tuple[float, list[dict], float]:
    """Seconds ``workers`` single-child batch workers take for the reviews of ``targets``, what
    each worker did meanwhile (:func:`timeline`), and the machine's 1-minute load average at the end."""
    from services.ai_worker.review import ensure_reviews, send_unsent

    app = sender_app(infra.redis_url)
    started_workers = [CeleryWorker(infra, logs, queues="batch", concurrency=1).start() for _ in range(workers)]
    try:
        # Warm-up: one tiny review per worker, so JIT compiling is not timed.
        moves, seats, final = play_out("hexagon", {}, 1, lambda _s, _seat, legal: legal[0])
        warm = ensure_reviews(conn, [(insert_finished(conn, "hexagon", {}, 1, moves, seats, final), s)
                                     for s in (0, 1)][:workers], 5)
        send_unsent(conn, warm, lambda rid: app.send_task("ai.review_game", args=[rid]))
        _wait_done(conn, warm)
        conn.execute("DELETE FROM reviews WHERE game_id = ANY(%s)", ([g for g, _ in targets],))
        ids = ensure_reviews(conn, targets, budget_ms)
        started, started_at = time.monotonic(), time.time()
        send_unsent(conn, ids, lambda rid: app.send_task("ai.review_game", args=[rid]))
        _wait_done(conn, ids)
        took = time.monotonic() - started
        return took, [timeline(w.log_path, started_at, started_at + took) for w in started_workers], os.getloadavg()[0]
    finally:
        for worker in started_workers:
            worker.stop()
        app.close()


PART_EVENT = re.compile(r"review (\d+) part (\d+) (started: \d+ points \(task set up in ([\d.]+) s\)"
                        r"|stored ply \d+ \(judged in ([\d.]+) s, stored and told in ([\d.]+) s\)|done)")


def timeline(log_path: Path, start: float, end: float) -> dict:
    """One worker's share of a batch run from its log: the parts it ran (offsets in seconds from
    the batch's start), its busy time (part started → done), the judged moves' time inside
    ``judge`` and storing/telling, the tasks' set-up before their part started (connection,
    replay; not in busy), and its idle time between the batch's start and end."""
    parts: list[dict] = []
    judge_s = store_s = setup_s = 0.0
    for line in log_path.read_text().splitlines():
        try:  # the worker logs JSON lines (shared/logs.py): epoch "ts" and "msg"
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        at = entry["ts"] - start
        event = PART_EVENT.search(entry["msg"])
        if at < 0 or event is None:  # before the start: the warm-up
            continue
        what = event.group(3)
        if what.startswith("started"):
            parts.append({"part": f"{event.group(1)}/{event.group(2)}", "from": round(at, 2), "moves": 0})
            setup_s += float(event.group(4))
        elif parts and what.startswith("stored"):
            parts[-1]["moves"] += 1
            judge_s += float(event.group(5))
            store_s += float(event.group(6))
        elif parts and what == "done":
            parts[-1]["to"] = round(at, 2)
    busy = sum(p.get("to", end - start) - p["from"] for p in parts)
    return {"parts": len(parts), "moves": sum(p["moves"] for p in parts), "busy_s": round(busy, 1),
            "judge_s": round(judge_s, 1), "store_s": round(store_s, 1), "task_setup_s": round(setup_s, 2),
            "first_start_s": parts[0]["from"] if parts else None, "last_end_s": parts[-1].get("to") if parts else None,
            "idle_s": round(end - start - busy, 1), "runs": [[p["part"], p["from"], p.get("to"), p["moves"]]
                                                             for p in parts]}


def _wait_done(conn: psycopg.Connection, ids: list[int], timeout: float = 3600) -> None:
    give_up = time.monotonic() + timeout
    while conn.execute("SELECT count(*) FROM reviews WHERE id = ANY(%s) AND status NOT IN ('done', 'failed')",
                       (ids,)).fetchone()[0]:
        if time.monotonic() > give_up:
            raise TimeoutError("reviews not done")
        time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai", description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=float, default=1.0, help="Stark's seconds per move")
    parser.add_argument("--games", type=int, default=2, help="Stark vs Mittel games per game kind")
    parser.add_argument("--game", action="append", choices=("hexagon", "bullet", "general", "hanse"))
    parser.add_argument("--reviews", type=int, default=8, help="reviews in the fixed batch")
    parser.add_argument("--review-budget-ms", type=int, default=100)
    parser.add_argument("--skip-stark", action="store_true")
    parser.add_argument("--skip-batch", action="store_true")
    parser.add_argument("--timeline", action="store_true",
                        help="also print each batch worker's parts (review/part, from, to, moves) and busy/idle time")
    args = parser.parse_args(argv)

    from services.ai_worker.players import PLAYERS

    games = [g for g in (args.game or ("hexagon", "bullet", "general", "hanse")) if g in PLAYERS]
    with tempfile.TemporaryDirectory(prefix="bench-ai-") as tmp:
        infra = start_infra(Path(tmp))
        logs = Path(tmp) / "logs"
        try:
            if not args.skip_stark:
                stark_figures(infra, logs, games, args.games, args.budget)
            if not args.skip_batch:
                with psycopg.connect(infra.database_url, autocommit=True) as conn:
                    targets = review_batch(conn, args.reviews)
                    one, one_timeline, one_load = run_batch(infra, logs, conn, targets, 1, args.review_budget_ms)
                    two, two_timeline, two_load = run_batch(infra, logs, conn, targets, 2, args.review_budget_ms)
                    moves = conn.execute("SELECT count(*) FROM review_moves m JOIN reviews r ON r.id = m.review_id"
                                         " WHERE r.game_id = ANY(%s)", ([g for g, _ in targets],)).fetchone()[0]
                print(json.dumps({"figure": "batch_reviews", "reviews": len(targets), "judged_moves": moves,
                                  "budget_ms": args.review_budget_ms, "one_worker_s": round(one, 1),
                                  "two_workers_s": round(two, 1), "ratio": round(two / one, 3),
                                  "target_ratio_max": 0.6, "load_1min_at_end": [one_load, two_load]}), flush=True)
                if args.timeline:
                    for workers, lines in ((1, one_timeline), (2, two_timeline)):
                        print(json.dumps({"figure": "batch_timeline", "workers": workers, "per_worker": lines}),
                              flush=True)
        finally:
            infra.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
