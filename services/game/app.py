"""The game service's Flask + Flask-SocketIO application and its start-up.

Import only from ``services.game.__main__`` (after gevent's monkey patching).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, Request, Response, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask_socketio import SocketIO
from gevent.event import Event
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from services import gevent_start, oversized_frames
from services.ai_worker.app import app as celery_app
from services.ai_worker.ping import SOCKETIO_CHANNEL
from services.game import sockets, table_metrics
from services.game.fanout.publisher import TablePublisher, table_room, watch_room
from services.game.fanout.table_handover import TableHandover
from services.game.fanout.watchers import Watchers
from services.game.fanout.wire_packet import JsonPacket, JsonQueue
from services.game.fleet import Fleet
from services.game.http_routes import games_blueprint
from services.game.presence.player_status import PlayerStatus
from services.game.presence.seat_connections import SeatConnections
from services.game.solo import sockets as solo_sockets
from services.game.solo.computer_seat import ComputerSeat
from services.game.solo.hint import HintDesk
from services.game.solo.review_routes import review_blueprint
from services.game.table_reactions import TableReactions
from services.game.tables.flag_schedule import FlagSchedule
from services.game.tables.table import Tables
from services.socketio_flask import SocketIOFlask
from shared import ai_protocol, db, logs, outbox, redis_address, redis_pool, scrape_metrics, settings
from shared.health import health_blueprint, redis_check
from shared.session_sockets import SessionSockets
from shared.socket_errors import TRANSPORT_MAX_BYTES
from shared.table_replay import StateCache

SOCKETIO_PATH = "game/socket.io"
# Young-generation collections every 700 allocations (Python's default) pause every
# socket of the process many times a second under load; with the start-up heap
# frozen, rarer collections stay short.  bench/tables.py runs its echo server with
# the same settings so the comparison is fair.
GC_THRESHOLDS = (50_000, 50, 100)
# Stopping: the longest wait for this process's sockets to close, then for their last events
# (a move being written) to end.  deploy/k8s/game.yaml's terminationGracePeriodSeconds covers
# its preStop pause plus twice this.
HAND_OVER_S = 10.0


def tune_collector() -> None:
    """Freeze the start-up heap and raise the collector's thresholds."""
    gevent_start.freeze_heap()
    gc.set_threshold(*GC_THRESHOLDS)


class NoCookieSessions(SecureCookieSessionInterface):
    """Flask's session without its signed cookie.

    Socket handlers keep their session per socket (Flask-SocketIO's managed session) and
    the HTTP routes read the session token themselves, yet every Socket.IO event pushes a
    request context, which opened the cookie session each time: a signing serializer
    built and the Cookie header parsed, about 45 µs per move for nothing."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession:
        return self.session_class()

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        return None


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


class TableRuntime:
    """What one game-service process runs besides its handlers and its tables' listener
    (services.game.table_reactions): the background loops, and the tables resent to its sockets."""

    def __init__(self, tables: Tables, reactions: TableReactions) -> None:
        self.tables, self.reactions, self.publisher = tables, reactions, reactions.publisher

    def resend(self, game_ids: list[int]) -> None:
        """The current state of each table to this process's own sockets (TableReactions.resend)."""
        self.reactions.resend(self.tables, game_ids)

    def start(self, socketio: SocketIO, log: logging.Logger) -> None:
        def failed(name: str) -> Callable[[Exception], None]:
            def report(exc: Exception) -> None:
                log.warning(f"{name} failed; retrying", extra={"fields": {"error": repr(exc)}})

            return report

        reactions = self.reactions
        socketio.start_background_task(reactions.flags.run, self.tables, socketio.sleep, failed("flag scheduler"))
        socketio.start_background_task(reactions.connections.run, self.tables, socketio.sleep, failed("seat check"))
        socketio.start_background_task(reactions.computer.run, self.tables, socketio.sleep, failed("computer answers"))
        socketio.start_background_task(self.publisher.watchers.run, socketio.sleep, failed("spectator marks"))


def allow_lobby_origin(app: Flask, lobby_url: str) -> None:
    """CORS for the HTTP API: the lobby's page (another port in development) may read it with its cookie."""
    origins = set(allowed_origins(lobby_url))

    @app.after_request
    def add_cors(response):  # noqa: ANN001, ANN202
        origin = request.headers.get("Origin")
        if origin in origins and request.path.startswith("/api/"):
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Allow-Credentials"] = "true"
            response.headers["Vary"] = "Origin"
            if request.method == "OPTIONS":
                # The page asks in its language with X-Lang (shared.i18n.request_language), a
                # header that needs the browser's preflight; remembered for 10 minutes.
                response.headers["Access-Control-Allow-Headers"] = "X-Lang"
                response.headers["Access-Control-Max-Age"] = "600"
        return response


def create_app(config: settings.Settings) -> tuple[Flask, SocketIO]:
    app = SocketIOFlask("services.game", socketio_path=SOCKETIO_PATH)
    app.config["SECRET_KEY"] = config.secret_key
    app.session_interface = NoCookieSessions()
    pool = db.make_pool(config.database_url, max_size=config.db_pool_max)
    # Socket handlers share it (a mass disconnect reaches Redis from every socket at once).
    redis_client = redis_pool.shared_client(config.redis_url, socket_timeout=5, socket_connect_timeout=2)
    app.extensions["db_pool"] = pool
    app.extensions["redis"] = redis_client
    app.extensions["session_sockets"] = SessionSockets(pool, config.redis_url)
    scrape_metrics.register(scrape_metrics.DatastoresUp({"postgres": lambda: db.check(pool),
                                                         "redis": redis_check(redis_client)}))
    stopping = Event()  # SIGTERM: the process hands its tables over and takes no new ones (/readyz 503)
    app.extensions["stopping"] = stopping
    app.register_blueprint(health_blueprint({"postgres": lambda: db.check(pool), "redis": redis_check(redis_client)},
                                            stopping=stopping.is_set))

    queue = JsonQueue(config.redis_url, channel=SOCKETIO_CHANNEL)
    socketio = SocketIO(
        app,
        async_mode="gevent",
        client_manager=queue,
        path=SOCKETIO_PATH,
        cors_allowed_origins=origin_check(config.lobby_url),
        max_http_buffer_size=TRANSPORT_MAX_BYTES,
        serializer=JsonPacket,
        # A socket's events are handled one after the other in its own reader greenlet:
        # a tab's move and its resignation never race each other, and an event costs no
        # greenlet of its own (no handler here waits for another event of its socket).
        async_handlers=False,
    )
    oversized_frames.install(app, socketio, SOCKETIO_PATH)
    cache = StateCache()
    # The tables' own pool lends connections without a test query (one round trip less
    # per move); Tables retries an action once on a connection that died.  A move's
    # commit does not wait for the disk (synchronous_commit off: PostgreSQL stays
    # consistent, but a crash of PostgreSQL itself, not of this service, may lose the
    # last fraction of a second of moves); a game's end does wait (Tables._finish).
    # Autocommit: a move on a cached row is one UPDATE, its own transaction (one round
    # trip); everything else opens its transaction explicitly (conn.transaction()).
    tables_pool = ConnectionPool(config.database_url, min_size=1, max_size=config.db_pool_max,
                                 kwargs={"row_factory": dict_row, "options": "-c synchronous_commit=off",
                                         "autocommit": True},
                                 open=True)
    app.extensions["tables_pool"] = tables_pool
    watchers = Watchers(redis_client,
                        lambda: ((room, len(members)) for room, members in queue.rooms.get("/", {}).items()),
                        lambda game_id: bool(queue.rooms.get("/", {}).get(watch_room(game_id))))
    publisher = TablePublisher(socketio, pool, queue, watchers)

    def drop_connection(sid: str) -> None:
        # The Engine.IO connection, not the Socket.IO session: a client told "io server
        # disconnect" would not reconnect; one whose transport closed does.
        eio_sid = socketio.server.manager.eio_sid_from_sid(sid, "/")
        if eio_sid is not None:
            socketio.server.eio.disconnect(eio_sid)

    publisher.handover = TableHandover(
        redis_client, lambda: queue.host_id,
        lambda game_id: list(queue.rooms.get("/", {}).get(table_room(game_id), {})),
        lambda sid: socketio.server.get_environ(sid, "/"), drop_connection, socketio.start_background_task)
    answers = redis_address.client(config.redis_url, decode_responses=True, socket_timeout=10,
                                   socket_connect_timeout=2)
    fleet = Fleet(redis_client, queue.channel)
    app.extensions["fleet"] = fleet
    computer = ComputerSeat(ai_protocol.MoveRequester(redis_client, ai_protocol.celery_sender(celery_app)), answers,
                            config.event_consumer_name, serves=queue.channels.serves, forward=queue.forward_answer,
                            period=fleet.period)
    queue.on_forwarded_answer = computer.forwarded
    connections = SeatConnections(redis_client, period=fleet.period)
    status = PlayerStatus(redis_client, config.redis_url)
    reactions = TableReactions(publisher, FlagSchedule(redis_client, fleet.period), computer, connections, status)
    tables = Tables(tables_pool, cache, reactions)
    runtime = TableRuntime(tables, reactions)
    app.extensions["table_runtime"] = runtime
    queue.channels.on_resubscribed = lambda game_ids: socketio.start_background_task(runtime.resend, game_ids)
    app.register_blueprint(games_blueprint(pool, cache, config))
    allow_lobby_origin(app, config.lobby_url)
    sockets.register(socketio, config, pool, tables, publisher, connections, status)
    table_metrics.watch(socketio)
    # Battlehanse alone: Tipp and Rückblick.
    app.register_blueprint(review_blueprint(pool, config))
    solo_sockets.register(socketio, pool, tables, publisher,
                          HintDesk(tables, ai_protocol.celery_sender(celery_app), redis_client),
                          lambda review_id: celery_app.send_task("ai.review_game", args=[review_id]))
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
    relay_redis = redis_address.client(config.redis_url, socket_timeout=5, socket_connect_timeout=2)
    fleet: Fleet = app.extensions["fleet"]
    # The relay's idle poll is shared by the game processes too (services.game.fleet).
    socketio.start_background_task(
        outbox.run_relay, app.extensions["db_pool"], relay_redis, relay_failed, 0.5,
        lambda seconds: socketio.sleep(fleet.period(seconds))
    )
    app.extensions["table_runtime"].start(socketio, log)
    sessions = app.extensions["session_sockets"]
    socketio.start_background_task(sessions.run_listener, socketio.sleep)
    socketio.start_background_task(sessions.run_sweeper, socketio.sleep)
    tune_collector()
    logs.event(log, "game service listening", host=config.bind_host, port=config.game_port, path="/" + SOCKETIO_PATH)
    logging.getLogger("wsgi").setLevel(logging.WARNING)
    runtime: TableRuntime = app.extensions["table_runtime"]

    def stopping() -> None:
        # From now on moves are written before they are shown: a greenlet killed at the end of
        # the grace would otherwise lose a move its players saw (services.game.tables.table).
        app.extensions["stopping"].set()
        runtime.tables.stop_showing_first()

    def hand_over() -> None:
        eio = socketio.server.eio
        rooms = socketio.server.manager.rooms.get("/", {})
        # A table's room is "game:<id>" (publisher.table_room); its spectators' "game:<id>:watch".
        tables = sum(1 for room in rooms if isinstance(room, str) and room.removeprefix("game:").isdigit())
        runtime.publisher.handover.leave(list(eio.sockets), eio.disconnect, tables, HAND_OVER_S)

    gevent_start.serve(app, config.bind_host, config.game_port, stopping=stopping, hand_over=hand_over,
                       grace_s=HAND_OVER_S)
