"""Keeps the Wartesaal's Elo beside each name current: ``ratings:elo`` in Redis.

The lobby's player list (``shared.presence.snapshot``) reads that hash (user id →
JSON Elo per game).  This loop copies ratings changed since its last pass from
PostgreSQL, after they committed (so a rolled-back settlement never shows), and
then has the lobby re-send the list.  At start it copies everything once.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable

import redis
import socketio
from psycopg_pool import ConnectionPool

from services.rating.standings import elos_changed_since
from shared import presence

POLL_SECONDS = 1.0
# A transaction that began before the newest change seen may commit after it: look
# back this far each pass, and push only what differs from the last push.
OVERLAP = dt.timedelta(seconds=10)


def refresh(pool: ConnectionPool, client: redis.Redis, since: dt.datetime,
            pushed: dict[int, dict[str, int]]) -> tuple[int, dt.datetime]:
    """Copy changed Elos to Redis; return how many players changed and the new high-water mark."""
    with pool.connection() as conn:
        found, newest = elos_changed_since(conn, since - OVERLAP)
    changed = {uid: elos for uid, elos in found.items() if pushed.get(uid) != elos}
    pushed.update(changed)
    if changed:
        with client.pipeline() as pipe:
            pipe.hset(presence.ELO_CACHE, mapping={uid: json.dumps(elos, separators=(",", ":"))
                                                   for uid, elos in changed.items()})
            # A new list version, or pages would keep the snapshot they already hold (same version).
            pipe.incr("presence:version")
            pipe.execute()
    return len(changed), newest


def run(pool: ConnectionPool, client: redis.Redis, redis_url: str, log: logging.Logger,
        sleep: Callable[[float], None]) -> None:
    lobby = socketio.RedisManager(redis_url, channel=presence.LOBBY_CHANNEL, write_only=True)
    since = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
    pushed: dict[int, dict[str, int]] = {}
    while True:
        try:
            count, since = refresh(pool, client, since, pushed)
            if count:
                presence.announce(client, lobby)
        except Exception:
            log.exception("Elo cache refresh failed")
        sleep(POLL_SECONDS)
