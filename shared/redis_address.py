"""``REDIS_URL``: one Redis, or a primary found through Redis Sentinel, for every client.

Two forms:

- ``redis://[:password@]host:port/db`` (or ``rediss://``): one server;
- ``redis+sentinel://[:password@]sentinel1:26379,sentinel2:26379/db/service``: the primary of
  the Sentinel group ``service``, asked of the Sentinels listed.  When the primary fails, the
  Sentinels promote a replica and every client's next connection goes to it.  The password is
  the Redis servers' (primary and replicas); the Sentinels themselves are reached without one.
  Keep it URL-safe: python-socketio takes it from the URL without percent-decoding it.

The second is python-socketio's own Sentinel form (``socketio.RedisManager``), so its message
queue takes the URL as it is; redis-py and Celery (broker and result backend, kombu's
``sentinel://`` transport) are given the same address in their own terms here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import redis
from redis.sentinel import Sentinel, SentinelConnectionPool

SENTINEL_SCHEME = "redis+sentinel"


@dataclass(frozen=True)
class SentinelAddress:
    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int
    username: str | None
    password: str | None

    def server_options(self) -> dict[str, Any]:
        """What a connection to the primary needs besides its address."""
        options: dict[str, Any] = {"db": self.db}
        if self.username:
            options["username"] = self.username
        if self.password:
            options["password"] = self.password
        return options


def sentinel_address(url: str) -> SentinelAddress | None:
    """The Sentinel group ``url`` names, or None for a plain ``redis://`` URL."""
    parts = urlsplit(url)
    if parts.scheme != SENTINEL_SCHEME:
        return None
    hosts = parts.netloc.rsplit("@", 1)[-1]
    sentinels = []
    for host_port in hosts.split(","):
        host, _, port = host_port.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"REDIS_URL: a Sentinel needs host:port, got {host_port!r}")
        sentinels.append((host, int(port)))
    path = [part for part in parts.path.split("/") if part]
    if len(path) != 2 or not path[0].isdigit():
        raise ValueError("REDIS_URL: redis+sentinel://[:password@]host:port[,host:port…]/<db>/<service name>")
    return SentinelAddress(tuple(sentinels), path[1], int(path[0]),
                           unquote(parts.username) if parts.username else None,
                           unquote(parts.password) if parts.password else None)


def _sentinel(address: SentinelAddress, options: dict[str, Any]) -> Sentinel:
    # The Sentinels get the same time-outs as the servers: a dead Sentinel must not hang a caller.
    sentinel_options = {k: v for k, v in options.items() if k.startswith("socket_")}
    return Sentinel(list(address.sentinels), sentinel_kwargs=sentinel_options)


def client(url: str, **options: Any) -> redis.Redis:
    """A redis-py client of ``url``'s server, or of its Sentinel group's current primary."""
    address = sentinel_address(url)
    if address is None:
        return redis.Redis.from_url(url, **options)
    return _sentinel(address, options).master_for(address.service, **{**options, **address.server_options()})


class SentinelBlockingConnectionPool(SentinelConnectionPool, redis.BlockingConnectionPool):
    """The primary's connections, handed out as ``redis.BlockingConnectionPool`` does (callers
    wait for a free one); the Sentinel pool's part finds the primary for each new connection."""


def blocking_client(url: str, max_connections: int, timeout: float, **options: Any) -> redis.Redis:
    """A client whose callers wait up to ``timeout`` s for one of ``max_connections`` connections."""
    address = sentinel_address(url)
    if address is None:
        return redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
            url, max_connections=max_connections, timeout=timeout, **options))
    return _sentinel(address, options).master_for(
        address.service, connection_pool_class=SentinelBlockingConnectionPool,
        max_connections=max_connections, timeout=timeout, **{**options, **address.server_options()})


def celery_settings(url: str) -> dict[str, Any]:
    """Celery's ``broker_url`` and ``result_backend`` for ``url``, and for a Sentinel group the
    transport options naming it (to merge into ``broker_transport_options`` and
    ``result_backend_transport_options``)."""
    address = sentinel_address(url)
    if address is None:
        return {"broker_url": url, "result_backend": url, "transport_options": {}}
    credentials = ""
    if address.username or address.password:
        credentials = f"{quote(address.username or '', safe='')}:{quote(address.password or '', safe='')}@"
    # kombu and Celery read the password and database of the first URL for the primary.
    joined = ";".join(f"sentinel://{credentials}{host}:{port}/{address.db}" for host, port in address.sentinels)
    return {"broker_url": joined, "result_backend": joined,
            "transport_options": {"master_name": address.service}}
