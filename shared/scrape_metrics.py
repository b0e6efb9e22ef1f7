"""Prometheus series that are read when Prometheus scrapes, not counted along the way.

Queue lengths and game counts live in Redis and PostgreSQL already; reading them at
scrape time (a few cheap queries every scrape interval) keeps them exact across
restarts and across processes, where a counter kept in one process would drift.  If a
store does not answer, its series are left out of that scrape (``/healthz`` reports
the outage) instead of failing ``/metrics`` as a whole.

- ``celery_queue_length{queue}`` — tasks waiting in the Celery queues ``interactive``
  and ``batch`` (the lobby exports it; every process could, one is enough).
- ``spielcenter_games_running{game,mode}`` — running games in the whole system (lobby).
- ``rating_games_rated{game}`` and ``rating_events_pending`` — settled games, and
  events delivered to the rating group but not yet acknowledged (rating service).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

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
        family = GaugeMetricFamily("celery_queue_length", "Tasks waiting in a Celery queue", labels=["queue"])
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
            family = GaugeMetricFamily("rating_games_rated", "Finished games the rating service has settled",
                                       labels=["game"])
            for row in rows:
                family.add_metric([row["game"]], row["n"])
            yield family
        try:
            pending = self.client.xpending(self.stream, self.group)
        except redis.RedisError as exc:  # also: the group does not exist yet
            log.warning("pending events unavailable: %r", exc)
            return
        yield GaugeMetricFamily("rating_events_pending", "Events delivered to the rating group, not yet acknowledged",
                                value=pending["pending"] if isinstance(pending, dict) else pending[0])


def register(*collectors: Collector) -> None:
    """Add ``collectors`` to the process's default registry (what ``/metrics`` serves)."""
    for collector in collectors:
        REGISTRY.register(collector)
