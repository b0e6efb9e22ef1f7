"""Latency and throughput of the platform's two message paths, as JSON.

* ``ai_ping``: socket → game service → Celery (``interactive``) → worker → Socket.IO
  message queue → the same socket; round trips one after another, in milliseconds.
* ``events``: a batch of ``game_finished`` rows committed to the outbox at once, until
  the rating service has applied every one (relay poll + stream + consumer).

Starts its own embedded PostgreSQL/Redis, game and rating service and one worker on
free ports (the same harness as the tests).  Figures depend on the machine's load;
compare runs on an idle machine only.
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg

from shared import auth_token, outbox
from tests.stack import TEST_SECRET, CeleryWorker, ServiceProcess, SocketProbe, start_infra


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ai_ping(game_url: str, rounds: int) -> dict[str, float]:
    millis = []
    with SocketProbe(game_url, auth_token.issue(1, "bench", TEST_SECRET), "game/socket.io") as probe:
        for _ in range(rounds):
            nonce = uuid.uuid4().hex
            started = time.perf_counter()
            probe.emit("ping_worker", {"nonce": nonce})
            probe.wait_for("pong_worker", timeout=30, where=lambda data, n=nonce: data["nonce"] == n)
            millis.append((time.perf_counter() - started) * 1000)
    return {"rounds": rounds, "p50_ms": round(statistics.median(millis), 2),
            "p95_ms": round(_percentile(millis, 0.95), 2), "max_ms": round(max(millis), 2)}


def events(database_url: str, count: int) -> dict[str, float]:
    with psycopg.connect(database_url) as conn, conn.transaction():
        started = time.perf_counter()
        ids = [outbox.record(conn, "game_finished", {"game_id": f"bench-{i}", "game": "hexagon"})
               for i in range(count)]
    deadline = time.monotonic() + 120
    with psycopg.connect(database_url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            done = conn.execute("SELECT count(*) FROM rating_finished_games WHERE event_id = ANY(%s::uuid[])",
                                (ids,)).fetchone()[0]
            if done == count:
                break
            time.sleep(0.02)
    seconds = time.perf_counter() - started
    return {"events": count, "applied": done, "seconds": round(seconds, 3), "per_second": round(done / seconds, 1)}


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="spielcenter-bench-"))
    infra = start_infra(tmp / "infra")
    try:
        with ServiceProcess("services.game", infra, "GAME_PORT", tmp / "logs") as game, \
                ServiceProcess("services.rating", infra, "RATING_PORT", tmp / "logs",
                               EVENT_CONSUMER_NAME="bench") as _rating, \
                CeleryWorker(infra, tmp / "logs"):
            ai_ping(game.url, 5)  # warm-up: worker child, connections
            result = {"ai_ping": ai_ping(game.url, 100), "events": events(infra.database_url, 500)}
    finally:
        infra.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
