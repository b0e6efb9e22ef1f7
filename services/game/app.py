"""The game service's Flask + Flask-SocketIO application and its start-up.

Import only from ``services.game.__main__`` (after gevent's monkey patching).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from urllib.parse import urlsplit, urlunsplit

import redis
from flask import Flask
from flask_socketio import SocketIO

from services import gevent_start
from services.game import sockets
from shared import db, logs, outbox, settings
from shared.health import health_blueprint, redis_check
from shared.socket_errors import TRANSPORT_MAX_BYTES

SOCKETIO_PATH = "game/socket.io"


def allowed_origins(lobby_url: str) -> list[str]:
    """The lobby's origin, plus its localhost/127.0.0.1 twin (both name the dev machine)."""
    parts = urlsplit(lobby_url)
    origin = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    origins = [origin]
    twins = {"localhost": "127.0.0.1", "127.0.0.1": "localhost"}
    if parts.hostname in twins:
        netloc = twins[parts.hostname] + (f":{parts.port}" if parts.port else "")
        origins.append(urlunsplit((parts.scheme, netloc, "", "", "")))
    return origins


def origin_check(lobby_url: str) -> Callable[[str | None, dict], bool]:
    """Engine.IO's CORS test: the lobby's origins, or same-origin (nginx in production)."""
    lobby_origins = set(allowed_origins(lobby_url))

    def allowed(origin: str | None, environ: dict) -> bool:
        if origin is None:  # not a browser: no cross-site request to guard against
            return True
        same_origin = f"{environ.get('wsgi.url_scheme', 'http')}://{environ.get('HTTP_HOST', '')}"
        return origin in lobby_origins or origin == same_origin

    return allowed


def create_app(config: settings.Settings) -> tuple[Flask, SocketIO]:
    app = Flask("services.game")
    app.config["SECRET_KEY"] = config.secret_key
    pool = db.make_pool(config.database_url, max_size=config.db_pool_max)
    redis_client = redis.Redis.from_url(config.redis_url, socket_timeout=5, socket_connect_timeout=2)
    app.extensions["db_pool"] = pool
    app.extensions["redis"] = redis_client
    app.register_blueprint(health_blueprint({"postgres": lambda: db.check(pool), "redis": redis_check(redis_client)}))

    socketio = SocketIO(
        app,
        async_mode="gevent",
        message_queue=config.redis_url,
        path=SOCKETIO_PATH,
        cors_allowed_origins=origin_check(config.lobby_url),
        max_http_buffer_size=TRANSPORT_MAX_BYTES,
    )
    sockets.register(socketio, config)
    return app, socketio


def main() -> None:
    gevent_start.assert_cooperative_db()
    config = settings.load()
    log = logs.configure("game", config.log_level)
    gevent_start.migrate_at_start(config.database_url, log)
    app, socketio = create_app(config)

    def relay_failed(exc: Exception) -> None:
        log.warning("outbox relay failed; retrying", extra={"fields": {"error": repr(exc)}})

    # The relay lives with the producer of the events (finished games are written here).
    relay_redis = redis.Redis.from_url(config.redis_url, socket_timeout=5, socket_connect_timeout=2)
    socketio.start_background_task(
        outbox.run_relay, app.extensions["db_pool"], relay_redis, relay_failed, 0.5, socketio.sleep
    )
    gevent_start.freeze_heap()
    logs.event(log, "game service listening", host=config.bind_host, port=config.game_port, path="/" + SOCKETIO_PATH)
    logging.getLogger("wsgi").setLevel(logging.WARNING)
    gevent_start.serve(app, config.bind_host, config.game_port)
