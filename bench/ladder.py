"""Strength ladder through real Celery workers: Stark vs Mittel and Mittel vs Leicht, per game.

    .venv/bin/python -m bench.ladder --games 20 --budget 0.3 [--game hexagon ...] [--workers 2]

Starts its own embedded PostgreSQL + Redis and ``--workers`` Celery workers on the
``interactive`` queue (one prefork child each), then plays, for each game and each
pairing, ``--games`` complete games with every move requested through ``ai.move``
exactly as the game service does (``tests/ai/remote_match.py``).  Both sides get the
same per-move ``--budget``.  Colours alternate (game i: the stronger side has seat
i % 2) and the start varies with the game index: Battlehexagon cycles its maps,
Battlebullet its layouts, Battlegeneral and Battlehanse take a new seed (computer
setups / deals).  A Battlehanse "game" is a whole match (default Ratssiegel target).

The figure is the stronger side's score share (win 1, draw ½) with a 95 % Wilson
interval.  The issue's target (≥ 100 games per pairing at full budgets) needs hours on
two cores; run smaller and say so.  Prints one JSON object per pairing and a table.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

import redis

from bench.ai_general import wilson_interval
from shared.ai_protocol import celery_sender
from tests.ai.remote_match import MatchDriver, MatchResult, score_of, sender_app
from tests.stack import CeleryWorker, start_infra

PAIRINGS = (("stark", "mittel"), ("mittel", "leicht"))
HEXAGON_MAPS = ("klassisch", "dreiloch", "krater", "burggraben", "saeulen", "zufall")
BULLET_LAYOUTS = ("standard", "belgisch", "deutsch")


def options_for(game: str, index: int) -> dict:
    """Vary the start with the game index (maps, layouts; seeds do the rest)."""
    if game == "hexagon":
        return {"map": HEXAGON_MAPS[index % len(HEXAGON_MAPS)]}
    if game == "bullet":
        return {"layout": BULLET_LAYOUTS[index % len(BULLET_LAYOUTS)]}
    return {}


def play_pairing(client: redis.Redis, app, game: str, stronger: str, weaker: str, games: int,  # noqa: ANN001
                 budget: float, parallel: int) -> dict:
    """``games`` games of ``stronger`` vs ``weaker``, ``parallel`` at a time."""
    results: list[tuple[int, MatchResult]] = []
    errors: list[str] = []
    lock = threading.Lock()
    next_index = iter(range(games))

    def run() -> None:
        driver = MatchDriver(client, celery_sender(app))
        while True:
            with lock:
                index = next(next_index, None)
            if index is None:
                return
            strong_seat = index % 2
            strengths = (stronger, weaker) if strong_seat == 0 else (weaker, stronger)
            try:
                result = driver.play(game, strengths, budget, seed=1000 + index, options=options_for(game, index),
                                     move_timeout=budget * 20 + 30)
            except Exception as exc:  # report and go on: one broken game must not hide the rest
                with lock:
                    errors.append(f"game {index}: {type(exc).__name__}: {exc}")
                continue
            with lock:
                results.append((strong_seat, result))

    threads = [threading.Thread(target=run) for _ in range(parallel)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    scores = [score_of(r.outcome, seat) for seat, r in results]
    share = sum(scores) / len(scores) if scores else 0.0
    low, high = wilson_interval(sum(scores), len(scores))
    timings = [t for _, r in results for t in r.timings]
    return {
        "game": game, "stronger": stronger, "weaker": weaker, "budget_s": budget, "games": len(scores),
        "wins": scores.count(1.0), "draws": scores.count(0.5), "losses": scores.count(0.0),
        "score_share": round(share, 3), "wilson95": [low, high],
        "mean_plies": round(sum(len(r.moves) for _, r in results) / max(1, len(results)), 1),
        "late_answers": sum(1 for t in timings if t.late > 0), "answers": len(timings),
        "max_late_s": round(max((t.late for t in timings), default=0.0), 3),
        "rerequests": sum(r.rerequests for _, r in results), "errors": errors,
        "wall_s": round(time.monotonic() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ladder", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing and game kind")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per move, both sides")
    parser.add_argument("--game", action="append", choices=("hexagon", "bullet", "general", "hanse"),
                        help="only these games (repeatable); default all with a player")
    parser.add_argument("--workers", type=int, default=2, help="Celery workers, one child each (= games at once)")
    parser.add_argument("--out", type=Path, help="also write the JSON lines here")
    args = parser.parse_args(argv)

    from services.ai_worker.players import PLAYERS

    games = [g for g in (args.game or ("hexagon", "bullet", "general", "hanse")) if g in PLAYERS]
    with tempfile.TemporaryDirectory(prefix="ladder-") as tmp:
        infra = start_infra(Path(tmp))
        workers = []
        try:
            for _ in range(args.workers):
                workers.append(CeleryWorker(infra, Path(tmp) / "logs", queues="interactive", concurrency=1).start())
            client = redis.Redis.from_url(infra.redis_url, decode_responses=True)
            app = sender_app(infra.redis_url)
            for _ in workers:  # each child compiles its players once before the clock matters
                MatchDriver(client, celery_sender(app)).warm_up()
            lines = []
            for game in games:
                for stronger, weaker in PAIRINGS:
                    line = play_pairing(client, app, game, stronger, weaker, args.games, args.budget, args.workers)
                    lines.append(line)
                    print(json.dumps(line, ensure_ascii=False), flush=True)
            if args.out:
                args.out.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
            print(f"\n{'game':8} {'pairing':16} {'games':>5} {'W-D-L':>9} {'share':>6}  95% interval   plies")
            for line in lines:
                wdl = f"{line['wins']}-{line['draws']}-{line['losses']}"
                print(f"{line['game']:8} {line['stronger'] + '>' + line['weaker']:16} {line['games']:5} {wdl:>9} "
                      f"{line['score_share']:6.3f}  [{line['wilson95'][0]:.3f}, {line['wilson95'][1]:.3f}]"
                      f"  {line['mean_plies']}")
            app.close()
        finally:
            for worker in workers:
                worker.stop()
            infra.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
