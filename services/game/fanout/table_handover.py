"""A table moves to the process the router now sends it to.

The router hashes a table's id onto one game process (deploy/nginx.conf).  When a process
is added, or comes back after a crash, the ring sends some tables to it, but the sockets
already at those tables stay where they are: only new sockets (a reload, a spectator, a
reconnect) reach the new owner, and the table is served by two processes, which write
every move before showing it and hear each other through Redis.  Correct, but slower, and
for as long as the old sockets live.

So every sit-down that a table-hashing router placed (nginx marks the connection with
``X-Routed-By: table``) is recorded in Redis with its time, per table and process.  When a table's publication
reaches more than one process, a process whose latest routed sit-down at the table is older
than another process's disconnects its own routed sockets at the table: the clients
reconnect by themselves (the browser's Socket.IO client does), the router sends them where
it sends the table now, and they find it as PostgreSQL holds it.  Sockets that reached a
process directly or through another router (development, tests that put two processes at one
table on purpose) are never sent away.

A process that is stopping (SIGTERM: a rolling update, a node drained) hands every table over
at once (:meth:`TableHandover.leave`): it has stopped accepting connections, so each socket it
closes reconnects through the router to the table's next owner on the ring.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis

from shared.lru_map import LruMap

log = logging.getLogger("game.handover")

KEY = "sc:table-sitdowns:{}"
KEEP_S = 24 * 3600  # a table's record outlives any game on it
CHECK_EVERY_S = 2.0  # per table: publications come with every move


def routed(environ: dict[str, Any] | None) -> bool:
    """Whether a connection was placed by a router that hashes tables (deploy/nginx.conf says so
    with ``X-Routed-By: table``).  Behind any other router (one pinning connections or addresses)
    a socket sent away could come back to the same process, and the two would take turns."""
    return bool(environ and environ.get("HTTP_X_ROUTED_BY") == "table")


class TableHandover:
    def __init__(self, client: redis.Redis, host_id: Callable[[], str], sockets_at: Callable[[int], Iterable[str]],
                 environ_of: Callable[[str], dict[str, Any] | None], disconnect: Callable[[str], None],
                 spawn: Callable[..., Any]) -> None:
        self.redis = client
        self.host_id = host_id
        self.sockets_at, self.environ_of, self.disconnect, self.spawn = sockets_at, environ_of, disconnect, spawn
        self._checked: LruMap[int, float] = LruMap(4096)

    def sat_down(self, game_id: int, sid: str) -> None:
        """A socket sat down at the table here: recorded if it came through the router."""
        if not routed(self.environ_of(sid)):
            return
        key = KEY.format(game_id)
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.hset(key, self.host_id(), time.time())
            pipe.expire(key, KEEP_S)
            pipe.execute()
        except redis.RedisError as exc:  # the handover is an optimisation: the table works without it
            log.warning("sit-down not recorded", extra={"fields": {"game_id": game_id, "error": repr(exc)}})

    def heard(self, game_id: int, receivers: int) -> None:
        """A publication of the table reached ``receivers`` processes."""
        if receivers <= 1:
            return
        now = time.monotonic()
        last = self._checked.get(game_id)
        if last is not None and now - last < CHECK_EVERY_S:
            return
        self._checked.put(game_id, now)
        self.spawn(self.yield_if_older, game_id)

    def yield_if_older(self, game_id: int) -> list[str]:
        """Send this process's routed sockets at the table away if another process had a later
        routed sit-down there; the sockets sent away."""
        try:
            times = {host.decode() if isinstance(host, bytes) else host: float(at)
                     for host, at in self.redis.hgetall(KEY.format(game_id)).items()}
        except redis.RedisError as exc:
            log.warning("sit-downs not read", extra={"fields": {"game_id": game_id, "error": repr(exc)}})
            return []
        mine = times.get(self.host_id())
        if mine is None or max(times.values()) <= mine:
            return []
        gone = [sid for sid in list(self.sockets_at(game_id)) if routed(self.environ_of(sid))]
        for sid in gone:
            self.disconnect(sid)
        if gone:
            log.info("table handed over", extra={"fields": {"game_id": game_id, "sockets": len(gone)}})
        return gone

    def leave(self, connections: list[str], close: Callable[[str], None], tables: int, wait_s: float) -> int:
        """Close every one of ``connections`` (this process's, at ``tables`` tables, routed or not:
        the process is going away), each in a greenlet of its own so that one slow disconnect
        handler holds back no other; wait up to ``wait_s`` s for them.  How many were closed in time.

        A socket's events run in its reader greenlet: a move being written when its socket is
        closed is committed (or refused) all the same, and its players find it on their table
        when they reconnect."""
        log.info("handing tables over", extra={"fields": {"tables": tables, "sockets": len(connections)}})
        tasks = [self.spawn(close, connection) for connection in connections]
        deadline = time.monotonic() + wait_s
        for task in tasks:
            task.join(max(0.0, deadline - time.monotonic()))
        done = sum(1 for task in tasks if task.dead)
        log.info("tables handed over", extra={"fields": {"tables": tables, "sockets": done,
                                                        "unfinished": len(tasks) - done}})
        return done
