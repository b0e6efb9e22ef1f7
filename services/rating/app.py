"""The rating service's HTTP app (health, metrics, lists) and its event consumer and Elo cache greenlets.

Import only from ``services.rating.__main__`` (after gevent's monkey patching).
"""

from __future__ import annotations

import logging
import os

import gevent
from flask import Flask

from services import gevent_start
from services.rating import elo_cache
from services.rating.handlers import HANDLERS
from services.rating.http_routes import rating_blueprint
from shared import db, logs, redis_address, scrape_metrics, settings
from shared.event_stream import EventConsumer, StreamEvent
from shared.health import health_blueprint, redis_check
from shared.outbox import EVENT_STREAM

CONSUMER_GROUP = "rating"
# Test hook, deliberately not a Setting: when set to an event type, the consumer
# sleeps inside the transaction of such an event, so a test can kill the process
# at exactly the worst moment (effect written, nothing committed or acked).
# PAUSE_GAME_ENV narrows it to one game: other games of a shared test stack
# (a clock running out in a table left open) finish too and must pass.
PAUSE_ENV = "RATING_TEST_PAUSE_EVENT_TYPE"
PAUSE_GAME_ENV = "RATING_TEST_PAUSE_GAME_ID"


def pause_inside_transaction(log: logging.Logger) -> object:
    pause_type = os.environ.get(PAUSE_ENV)
    if not pause_type:
        return None
    pause_game = os.environ.get(PAUSE_GAME_ENV)

    def pause(event: StreamEvent) -> None:
        if event.type == pause_type and pause_game in (None, event.payload.get("game_id")):
            logs.event(log, "paused inside event transaction", event_id=event.event_id, type=event.type)
            gevent.sleep(3600)

    return pause


def main() -> None:
    gevent_start.assert_cooperative_db()
    config = settings.load()
    log = logs.configure("rating", config.log_level)
    gevent_start.migrate_at_start(config.database_url, log)

    pool = db.make_pool(config.database_url, max_size=config.db_pool_max)
    health_redis = redis_address.client(config.redis_url, socket_timeout=5, socket_connect_timeout=2)
    # The consumer blocks in XREADGROUP for up to block_ms, so its socket timeout is longer.
    stream_redis = redis_address.client(
        config.redis_url, decode_responses=True, socket_timeout=10, socket_connect_timeout=2
    )
    consumer = EventConsumer(
        pool,
        stream_redis,
        group=CONSUMER_GROUP,
        consumer=config.event_consumer_name,
        handlers=HANDLERS,
        claim_idle_ms=config.event_claim_idle_ms,
        inside_transaction=pause_inside_transaction(log),
        retention_s=config.event_retention_days * 86400,
    )
    consumer_greenlet = gevent.spawn(consumer.run, sleep=gevent.sleep)
    gevent.spawn(elo_cache.run, pool, health_redis, config.redis_url, log, gevent.sleep)

    app = Flask("services.rating")
    app.register_blueprint(health_blueprint({
        "postgres": lambda: db.check(pool),
        "redis": redis_check(health_redis),
    }, vital={"consumer": lambda: not consumer_greenlet.dead}))
    app.register_blueprint(rating_blueprint(pool))
    scrape_metrics.register(
        scrape_metrics.ExportedOnce(health_redis, "rating",
                                    scrape_metrics.RatingProgress(pool, health_redis, EVENT_STREAM, CONSUMER_GROUP),
                                    lease_ms=int(config.metrics_lease_seconds * 1000)),
        scrape_metrics.DatastoresUp({"postgres": lambda: db.check(pool), "redis": redis_check(health_redis)}))
    gevent_start.freeze_heap()
    logs.event(log, "rating service listening", host=config.bind_host, port=config.rating_port,
               consumer=config.event_consumer_name)
    gevent_start.serve(app, config.bind_host, config.rating_port)
