"""A Redis client that many greenlets share: callers wait for a free connection.

redis-py 8's default pool opens at most 100 connections and then fails the caller with
"Too many connections".  Under gevent every socket handler is a greenlet; when 1,000
sockets drop at once (a game process's clients at the end of ``bench.tables``, a network
blip), their disconnect handlers all reached Redis together and 295 of them failed, so
those players' departures were never recorded.  A blocking pool bounds the connections
and makes the rest wait their turn, each for a round trip.
"""

from __future__ import annotations

from typing import Any

import redis

from shared import redis_address

CONNECTIONS = 64  # per process; a connection is held for one round trip
WAIT_S = 10.0  # then the caller fails as it would on a dead Redis


def shared_client(url: str, **options: Any) -> redis.Redis:
    """A client whose callers queue for one of ``CONNECTIONS`` connections (up to ``WAIT_S``)."""
    return redis_address.blocking_client(url, CONNECTIONS, WAIT_S, **options)
