"""The durable path for events that must never be lost, e.g. "game finished".

1. ``record(conn, "game_finished", {...})`` inserts into ``outbox`` on the caller's
   connection, i.e. in the same transaction as the state change it announces: both
   commit or neither does (no dual write).  The payloads are defined (built and read)
   in ``shared.schemas.outbox_events``.
2. ``relay_batch`` (run in a loop by the game service) copies undispatched rows to
   the Redis stream ``EVENT_STREAM`` with XADD and then marks them dispatched.  A
   crash between the XADD and the UPDATE publishes the row again on the next pass;
   consumers deduplicate by ``event_id`` (``shared.event_stream``).

Stream entry fields: ``event_id`` (uuid), ``type``, ``payload`` (JSON object),
``created_at`` (ISO 8601).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import psycopg
import redis
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

EVENT_STREAM = "sc:events"
# Roughly how many entries the stream keeps; consumers ack within seconds, so this is
# days of history for inspection while bounding Redis memory.
STREAM_MAXLEN = 100_000
# Dispatched rows are kept this long for inspection, then pruned by the relay.
KEEP_DISPATCHED_DAYS = 7
PRUNE_EVERY_S = 600


def record(conn: psycopg.Connection, event_type: str, payload: dict[str, Any]) -> str:
    """Queue one event inside the caller's transaction; return its event id."""
    row = conn.execute(
        "INSERT INTO outbox (type, payload) VALUES (%s, %s) RETURNING event_id::text AS event_id",
        (event_type, Jsonb(payload)),
    ).fetchone()
    return row["event_id"] if isinstance(row, dict) else row[0]


def relay_batch(pool: ConnectionPool, client: redis.Redis, limit: int = 100) -> int:
    """Publish up to ``limit`` undispatched outbox rows to the stream; return how many."""
    with pool.connection() as conn, conn.transaction():
        # SKIP LOCKED lets several game-service processes relay side by side without
        # publishing the same row at the same moment.
        rows = conn.execute(
            "SELECT event_id::text AS event_id, type, payload, created_at FROM outbox"
            " WHERE dispatched_at IS NULL ORDER BY created_at LIMIT %s FOR UPDATE SKIP LOCKED",
            (limit,),
        ).fetchall()
        if not rows:
            return 0
        pipe = client.pipeline(transaction=False)
        for row in rows:
            pipe.xadd(
                EVENT_STREAM,
                {
                    "event_id": row["event_id"],
                    "type": row["type"],
                    "payload": json.dumps(row["payload"], separators=(",", ":")),
                    "created_at": row["created_at"].isoformat(),
                },
                maxlen=STREAM_MAXLEN,
                approximate=True,
            )
        pipe.execute()
        conn.execute(
            "UPDATE outbox SET dispatched_at = now() WHERE event_id = ANY(%s::uuid[])",
            ([row["event_id"] for row in rows],),
        )
    return len(rows)


def prune_dispatched(pool: ConnectionPool, older_than_days: float = KEEP_DISPATCHED_DAYS) -> int:
    """Delete rows dispatched more than ``older_than_days`` ago; return how many.

    Dispatched rows are only history by then (the stream has delivered them);
    undispatched rows are never deleted, however old.
    """
    with pool.connection() as conn:
        cur = conn.execute(
            "DELETE FROM outbox WHERE dispatched_at < now() - make_interval(secs => %s)",
            (older_than_days * 86400,),
        )
        return cur.rowcount


def run_relay(
    pool: ConnectionPool,
    client: redis.Redis,
    on_error: Callable[[Exception], None],
    interval: float = 0.5,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Relay forever: drain while there is work, otherwise poll every ``interval`` s; prune now and then."""
    next_prune = time.monotonic()
    while True:
        try:
            if time.monotonic() >= next_prune:
                prune_dispatched(pool)
                next_prune = time.monotonic() + PRUNE_EVERY_S
            if relay_batch(pool, client) > 0:
                continue
        except Exception as exc:  # PG or Redis away: keep the row, try again later
            on_error(exc)
        sleep(interval)
