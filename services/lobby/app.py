"""Assemble the lobby: Flask app, Socket.IO server on the Redis queue, stores, routes."""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import redis
from flask import Flask, Response, send_from_directory
from flask_socketio import SocketIO
from gevent.event import Event
from psycopg_pool import ConnectionPool
from socketio import RedisManager

from services import oversized_frames
from services.socketio_flask import SocketIOFlask
from shared import db, presence, redis_pool, scrape_metrics
from shared.health import health_blueprint, redis_check
from shared.session_sockets import SessionSockets
from shared.settings import Settings
from shared.socket_errors import TRANSPORT_MAX_BYTES

WEB_DIST = Path(__file__).resolve().parents[2] / "web" / "dist"
# Changes within this many seconds go out as one player list: a burst of joins (say,
# after a restart, when every browser reconnects) costs one snapshot, not one per join.
BROADCAST_COALESCE_SECONDS = 0.1


@dataclass
class Lobby:
    app: Flask
    socketio: SocketIO
    pool: ConnectionPool
    redis: redis.Redis
    presence: presence.ProcessPresence
    settings: Settings
    log: logging.Logger
    sessions: SessionSockets  # this process's sockets per session, ended at logout
    _players_changed: Event = field(default_factory=Event)
    stopping: Event = field(default_factory=Event)  # set at SIGTERM: /readyz says 503 from then on
    # Loops other lobby features add (e.g. challenge expiry); started with the rest.
    background_tasks: list[Callable[[], None]] = field(default_factory=list)

    def broadcast_players(self) -> None:
        """Have the current list sent to every Wartesaal page, on every lobby process, shortly."""
        self._players_changed.set()

    def start_background(self) -> None:
        self.socketio.start_background_task(self._heartbeat_loop)
        self.socketio.start_background_task(self._broadcast_loop)
        self.socketio.start_background_task(self.sessions.run_listener, self.socketio.sleep)
        self.socketio.start_background_task(self.sessions.run_sweeper, self.socketio.sleep)
        for task in self.background_tasks:
            self.socketio.start_background_task(task)

    def _broadcast_loop(self) -> None:
        while True:
            self._players_changed.wait()
            self.socketio.sleep(BROADCAST_COALESCE_SECONDS)
            self._players_changed.clear()
            try:
                presence.announce(self.redis, self.socketio)
            except Exception:
                self.log.exception("player list broadcast failed")

    def _heartbeat_loop(self) -> None:
        interval = max(self.settings.presence_ttl_seconds / 3, 0.2)
        while True:
            try:
                if self.presence.heartbeat():
                    self.broadcast_players()
            except Exception:
                # Redis away for a moment: keep beating; /readyz reports the outage.
                self.log.exception("presence heartbeat failed")
            self.socketio.sleep(interval)

    def shutdown(self) -> None:
        self.stopping.set()
        try:
            self.presence.shutdown()
            presence.announce(self.redis, self.socketio)  # now: the process is about to exit
        except Exception:
            self.log.exception("presence shutdown failed")


def _serve_client(app: Flask) -> None:
    @app.get("/")
    def index() -> Response:
        if not (WEB_DIST / "index.html").is_file():
            return Response(
                "Web-Client nicht gebaut: cd web && npm ci && npm run build\n"
                "Web client not built: cd web && npm ci && npm run build\n",
                status=503,
                mimetype="text/plain",
            )
        response = send_from_directory(WEB_DIST, "index.html")
        response.headers["Cache-Control"] = "no-cache"
        return response

    @app.get("/assets/<path:filename>")
    def assets(filename: str) -> Response:
        # Vite puts a content hash into every asset name: cache them for good.
        return send_from_directory(WEB_DIST / "assets", filename, max_age=365 * 24 * 3600)


def create_lobby(settings: Settings, log: logging.Logger) -> Lobby:
    from services.lobby.account_routes import account_blueprint
    from services.lobby.challenges import register_challenges
    from services.lobby.client_address import trust_proxies
    from services.lobby.daily_market_routes import daily_market_blueprint
    from services.lobby.game_page_routes import game_page_blueprint
    from services.lobby.game_result_routes import game_result_blueprint
    from services.lobby.game_ticket import game_ticket_blueprint
    from services.lobby.hanse_puzzle_routes import hanse_puzzle_blueprint
    from services.lobby.mailbox_routes import mailbox_blueprint
    from services.lobby.profile_routes import profile_blueprint
    from services.lobby.puzzle_routes import puzzle_blueprint
    from services.lobby.quick_match import register_quick_match
    from services.lobby.rating_proxy import rating_proxy_blueprint
    from services.lobby.wartesaal import register_wartesaal

    # Socket.IO at its default path (socket.io): its events are not routed.
    app = SocketIOFlask(__name__, socketio_path="socket.io", static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024  # account requests are tiny
    socketio = SocketIO(
        app,
        async_mode="gevent",
        # Built here rather than from ``message_queue``: Flask-SocketIO hands anything but a
        # redis:// URL to kombu, and a redis+sentinel:// one is python-socketio's own.
        client_manager=RedisManager(settings.redis_url, channel=presence.LOBBY_CHANNEL),
        # Same origin only (the default); the client is served by this very service.
        max_http_buffer_size=TRANSPORT_MAX_BYTES,
    )
    oversized_frames.install(app, socketio, "socket.io")
    trust_proxies(app, settings.trusted_proxy_hops)
    pool = db.make_pool(settings.database_url, max_size=settings.db_pool_max)
    client = redis_pool.shared_client(settings.redis_url)  # shared by every socket handler
    process_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    lobby = Lobby(
        app=app,
        socketio=socketio,
        pool=pool,
        redis=client,
        presence=presence.ProcessPresence(client, process_id, settings.presence_ttl_seconds),
        settings=settings,
        log=log,
        sessions=SessionSockets(pool, settings.redis_url),
    )
    app.register_blueprint(health_blueprint({"postgres": lambda: db.check(pool), "redis": redis_check(client)},
                                            stopping=lobby.stopping.is_set))
    # The Celery queues' names (services.ai_worker.app), not imported: the lobby never loads Celery.
    scrape_metrics.register(
        scrape_metrics.ExportedOnce(client, "lobby", scrape_metrics.CeleryQueueLengths(client, ("interactive", "batch")),
                                    scrape_metrics.RunningGames(pool),
                                    lease_ms=int(settings.metrics_lease_seconds * 1000)),
        scrape_metrics.DatastoresUp({"postgres": lambda: db.check(pool), "redis": redis_check(client)}))
    app.register_blueprint(account_blueprint(lobby))
    wartesaal_sockets = register_wartesaal(lobby)
    register_challenges(lobby, wartesaal_sockets)
    register_quick_match(lobby, wartesaal_sockets)
    app.register_blueprint(rating_proxy_blueprint(settings))
    app.register_blueprint(game_ticket_blueprint(lobby))
    app.register_blueprint(profile_blueprint(lobby))
    app.register_blueprint(mailbox_blueprint(lobby))
    app.register_blueprint(game_page_blueprint(lobby))
    app.register_blueprint(game_result_blueprint(lobby))
    app.register_blueprint(daily_market_blueprint(lobby))
    app.register_blueprint(hanse_puzzle_blueprint(lobby))
    app.register_blueprint(puzzle_blueprint(lobby))
    _serve_client(app)
    return lobby
