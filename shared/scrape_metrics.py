"""Prometheus series that are read when Prometheus scrapes, not counted along the way.

Queue lengths and game counts live in Redis and PostgreSQL already; reading them at
scrape time (a few cheap queries every scrape interval) keeps them exact across
restarts and across processes, where a counter kept in one process would drift.  If a
store does not answer, its series are left out of that scrape (``/readyz`` reports
the outage) instead of failing ``/metrics`` as a whole.

- ``spielcenter_celery_queue_length{queue}`` — tasks waiting in the Celery queues ``interactive``
  and ``batch`` (the lobby exports it; every process could, one is enough).
- ``spielcenter_games_running{game,mode}`` — running games in the whole system (lobby).
- ``spielcenter_rating_games_rated{game}`` and ``spielcenter_rating_events_pending`` — settled games, and
  events delivered to the rating group but not yet acknowledged (rating service).
- ``spielcenter_datastore_up{store}`` — whether PostgreSQL and Redis answer this process
  (every service; the same checks as ``/healthz``).

The first four are cluster-wide: every lobby (or rating) replica would read the same
number, and Prometheus would hold one series per replica, which a ``sum`` counts N
times.  So they are exported once, by whichever replica holds a lease in Redis
(``ExportedOnce``): the holder renews it at each scrape, and when it stops being
scraped (it died, it was scaled away) another replica takes the lease over once it
expires (``METRICS_LEASE_SECONDS``; a process that stops cleanly gives it up at once).
A lease, rather than one designated replica, keeps every replica the same Deployment and
needs no leader election beside Redis, which these numbers come from.
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import uuid
from collections.abc import Callable, Iterator

import redis
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import REGISTRY, Collector
from psycopg_pool import ConnectionPool

log = logging.getLogger("scrape_metrics")

# kombu's Redis transport keeps a queue's messages of priority p > 0 in "<queue>\x06\x16<p>".
_PRIORITY_SUFFIXES = ("", "\x06\x163", "\x06\x166", "\x06\x169")


class CeleryQueueLengths(Collector):
    def __init__(self, client: redis.Redis, queues: tuple[str, ...]) -> None:
        self.client, self.queues = client, queues

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("spielcenter_celery_queue_length", "Tasks waiting in a Celery queue", labels=["queue"])
        try:
            with self.client.pipeline(transaction=False) as pipe:
                for queue in self.queues:
                    for suffix in _PRIORITY_SUFFIXES:
                        pipe.llen(queue + suffix)
                lengths = pipe.execute()
        except redis.RedisError as exc:
            log.warning("queue lengths unavailable: %r", exc)
            return
        per_queue = len(_PRIORITY_SUFFIXES)
        for i, queue in enumerate(self.queues):
            family.add_metric([queue], sum(lengths[i * per_queue:(i + 1) * per_queue]))
        yield family


class RunningGames(Collector):
    def __init__(self, pool: ConnectionPool) -> None:
        self.pool = pool

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("spielcenter_games_running", "Running games, all processes",
                                   labels=["game", "mode"])
        try:
            with self.pool.connection(timeout=2) as conn:
                rows = conn.execute("SELECT game, mode, count(*) AS n FROM games WHERE status = 'running'"
                                    " GROUP BY game, mode").fetchall()
        except Exception as exc:  # the pool's timeout or the server gone: leave the series out
            log.warning("running games unavailable: %r", exc)
            return
        for row in rows:
            family.add_metric([row["game"], row["mode"]], row["n"])
        yield family


class RatingProgress(Collector):
    def __init__(self, pool: ConnectionPool, client: redis.Redis, stream: str, group: str) -> None:
        self.pool, self.client, self.stream, self.group = pool, client, stream, group

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            with self.pool.connection(timeout=2) as conn:
                rows = conn.execute("SELECT game, count(*) AS n FROM rated_games GROUP BY game").fetchall()
        except Exception as exc:
            log.warning("rated games unavailable: %r", exc)
        else:
            family = GaugeMetricFamily("spielcenter_rating_games_rated", "Finished games the rating service has settled",
                                       labels=["game"])
            for row in rows:
                family.add_metric([row["game"]], row["n"])
            yield family
        try:
            pending = self.client.xpending(self.stream, self.group)
        except redis.RedisError as exc:  # also: the group does not exist yet
            log.warning("pending events unavailable: %r", exc)
            return
        yield GaugeMetricFamily("spielcenter_rating_events_pending", "Events delivered to the rating group, not yet acknowledged",
                                value=pending["pending"] if isinstance(pending, dict) else pending[0])


class DatastoresUp(Collector):
    """``spielcenter_datastore_up{store}``: 1 when the store's check passes in this process, else 0."""

    def __init__(self, checks: dict[str, Callable[[], bool]]) -> None:
        self.checks = checks

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("spielcenter_datastore_up", "Whether this process reaches the datastore",
                                   labels=["store"])
        for store, check in self.checks.items():
            try:
                up = bool(check())
            except Exception:
                up = False
            family.add_metric([store], 1.0 if up else 0.0)
        yield family


# Take the lease when it is free or already ours, and (re)set its expiry; one round trip.
_LEASE_SCRIPT = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
_RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
LEASE_PREFIX = "sc:metrics-exporter:"


class ExportedOnce(Collector):
    """``collectors``' series only from the one process of a group holding the lease ``name`` in Redis."""

    def __init__(self, client: redis.Redis, name: str, *collectors: Collector, lease_ms: int,
                 holder: str | None = None) -> None:
        """``lease_ms`` must exceed the scrape interval, or the holder loses the lease between scrapes."""
        self.client, self.key, self.collectors, self.lease_ms = client, LEASE_PREFIX + name, collectors, lease_ms
        self.holder = holder or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._take = client.register_script(_LEASE_SCRIPT)
        self._release = client.register_script(_RELEASE_SCRIPT)

    def release(self) -> None:
        """Give the lease up (a process that stops cleanly), so another replica exports at its next scrape."""
        try:
            self._release(keys=[self.key], args=[self.holder])
        except redis.RedisError:
            pass  # it runs out by itself

    def holds_lease(self) -> bool:
        try:
            return bool(self._take(keys=[self.key], args=[self.holder, self.lease_ms]))
        except redis.RedisError as exc:  # no lease, no cluster-wide series (/healthz reports Redis)
            log.warning("metrics lease %s unavailable: %r", self.key, exc)
            return False

    def describe(self) -> list:
        """Nothing: without it, registering would collect once, and so take the lease at start-up."""
        return []

    def collect(self) -> Iterator[GaugeMetricFamily]:
        if not self.holds_lease():
            return
        for collector in self.collectors:
            yield from collector.collect()


def register(*collectors: Collector) -> None:
    """Add ``collectors`` to the process's default registry (what ``/metrics`` serves)."""
    for collector in collectors:
        REGISTRY.register(collector)
        if isinstance(collector, ExportedOnce):
            atexit.register(collector.release)
