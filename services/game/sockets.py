"""The game service's Socket.IO events: authenticated connect, the tables, ``ping_worker``.

Every client event carries exactly one JSON object, validated against its schema in
``shared.schemas.table_events.GAME_CLIENT_EVENTS``; the table events are documented there.  A
refused event (malformed, unknown table, not your turn, stale version …) is answered
with ``error`` ``{code, message, event}`` in the client's language and changes
nothing; a refusal that means "your picture of the table is out of date" (stale
version, finished table) also sends the current ``table:state`` to the sender.

Connect with ``auth: {token, lang}`` (the lobby's signed session token, refused once its
session logged out).
"""

from __future__ import annotations

import functools
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import redis
from flask import current_app, request, session
from flask_socketio import ConnectionRefusedError, SocketIO, emit, join_room, leave_room
from psycopg_pool import ConnectionPool

from services.ai_worker.ping import pending_key
from services.ai_worker.ping import ping as ping_task
from services.game import table_metrics
from services.game.fanout.publisher import TablePublisher, seat_room, table_room, watch_room
from services.game.presence.player_status import PlayerStatus
from services.game.presence.seat_connections import SeatConnections
from services.game.presence.table_presence import TablePresence
from services.game.rules.private_tables import check_onlooker, may_look
from services.game.tables.refusals import TableRefusal
from services.game.tables.table import Settled, Tables
from shared import creation_quota, i18n, reserved_events, session_sockets, session_tokens, settings
from shared.schemas.mechanism import ProtocolError
from shared.socket_errors import OVERSIZED_EVENT, error_payload, guarded, oversized_error, validated

log = logging.getLogger("game.sockets")

# An answer that arrives after the player gave up waiting is worthless.
PING_EXPIRES_S = 30


def session_lang() -> str:
    return session.get("lang", i18n.DEFAULT_LANGUAGE)


def session_user_id() -> int:
    """The socket's user; refused once its session has logged out (shared.session_sockets)."""
    user = session["user"]
    current_app.extensions["session_sockets"].check(user["sid"])
    return user["uid"]


def _emit_error(payload: dict) -> None:
    emit("error", payload)


def current_sender(tables: Tables, publisher: TablePublisher) -> Callable[[str, int, int], None]:
    """``send(sid, game_id, user_id)``: the table as it stands now after a refusal that says the
    sender's picture is out of date, to a socket of someone who may look at it: a stranger's
    move at a private or sealed table is refused like any other, and shows it nothing."""

    def send(sid: str, game_id: int, user_id: int) -> None:
        settled = tables.current(game_id)
        if may_look(settled.row, user_id):
            publisher.send_to(sid, settled, user_id)

    return send


def table_events(socketio: SocketIO, tables: Tables,
                 publisher: TablePublisher) -> Callable[[str], Callable[[Callable[[dict[str, Any]], None]], Callable]]:
    """The decorator every table event handler of the game service is registered with:
    validate the payload, run the handler, turn a table refusal into ``error`` (+ state)."""
    send_current = current_sender(tables, publisher)

    def table_event(event: str) -> Callable:
        def decorate(handler: Callable[[dict[str, Any]], None]) -> Callable:
            @socketio.on(event)
            @guarded(event, _emit_error, session_lang)
            @functools.wraps(handler)
            def wrapper(*args: object) -> None:
                data = validated(event, args)
                try:
                    handler(data)
                except TableRefusal as exc:
                    _emit_error({"code": exc.code, "message": exc.message(session_lang()), "event": event})
                    if exc.current_game_id is not None:
                        send_current(request.sid, exc.current_game_id, session_user_id())

            return wrapper

        return decorate

    return table_event


class GameSocketHandlers:
    """The game service's Socket.IO handlers, one method per event, and what they share."""

    def __init__(self, socketio: SocketIO, config: settings.Settings, pool: ConnectionPool, tables: Tables,
                 publisher: TablePublisher, connections: SeatConnections, status: PlayerStatus) -> None:
        self.socketio, self.config, self.pool, self.tables = socketio, config, pool, tables
        self.publisher, self.connections, self.status = publisher, connections, status
        self.presence = TablePresence(connections, publisher)
        self.send_current = current_sender(tables, publisher)

    def sit_down(self, settled: Settled) -> Settled:
        """Put this socket into the table's rooms (a spectator's: then the table marked watched),
        read the table again and send it, in this order, so that no change falls between: a
        change published after ``settled`` was read and before this socket was in the rooms (and
        its process subscribed to the table's channel) would otherwise never reach it
        (services.game.fanout.watchers). At a new computer table that change is the computer's first
        move, asked for at the commit, which another process may play."""
        sid, uid = request.sid, session_user_id()
        for room in self.publisher.rooms_for(settled, uid):
            join_room(room)
        if not settled.row.seats_of(uid):
            try:
                self.publisher.watchers.mark(settled.row.id)
            except redis.RedisError:
                log.warning("spectator mark not set", extra={"fields": {"game_id": settled.row.id}})
        settled = self.tables.current(settled.row.id)
        self.publisher.send_to(sid, settled, uid)
        self.presence.seated(sid, settled, uid)
        return settled

    def connect(self, auth: object = None) -> None:
        if reserved_events.sent_as_event(self.socketio):
            _emit_error(error_payload("unknown_event", session_lang(), None, event="connect"))
            return
        token = auth.get("token") if isinstance(auth, dict) else None
        lang = i18n.pick_language(auth.get("lang") if isinstance(auth, dict) else None)
        user = session_tokens.claims(self.pool, token, self.config)
        if user is None:
            # The payload reaches the client as connect_error data.
            raise ConnectionRefusedError(error_payload("not_logged_in", lang))
        session["user"] = user
        session["lang"] = lang
        current_app.extensions["session_sockets"].opened(user["sid"], request.sid,
                                                         functools.partial(session_sockets.end_socket, self.socketio,
                                                                           request.sid, lang))
        # A personal room so workers and other processes can reach this account's sockets.
        join_room(f"user:{user['uid']}")

    def disconnect(self, *_args: object) -> None:
        if reserved_events.sent_as_event(self.socketio):
            _emit_error(error_payload("unknown_event", session_lang(), None, event="disconnect"))
            return
        self.presence.left(request.sid)
        if "user" in session:
            current_app.extensions["session_sockets"].closed(session["user"]["sid"], request.sid)

    def join(self, data: dict[str, Any]) -> None:
        settled = self.tables.current(data["game_id"])
        check_onlooker(settled.row, session_user_id())
        settled = self.sit_down(settled)
        if settled.row.running and settled.row.mode == "wartesaal" and settled.row.seats_of(session_user_id()):
            self.status.playing(session_user_id())

    def move(self, sid: str, *args: object) -> None:
        """``table:move``, registered with python-socketio itself, outside Flask's request
        context: a move is the event every player sends over and over, and building and
        tearing down a request context for it (with the managed session swapped in) cost
        about a tenth of the service's CPU per move (bench/tables.py).  It reads the
        socket's session as the other handlers do (Flask-SocketIO keeps it in the socket's
        environ), and answers exactly as they do (``table_events``, ``guarded``)."""
        socketio = self.socketio
        environ = socketio.server.get_environ(sid, "/")
        if not environ:
            return  # an event of a socket already gone
        socket_session = environ.get("saved_session") or {}
        lang = socket_session.get("lang", i18n.DEFAULT_LANGUAGE)

        def refuse(payload: dict[str, Any]) -> None:
            socketio.emit("error", payload, to=sid)

        try:
            data = validated("table:move", args)
            user = socket_session["user"]
            environ["flask.app"].extensions["session_sockets"].check(user["sid"])
            started = time.perf_counter()
            try:
                settled = self.tables.move(user["uid"], data["game_id"], data["version"], data["move"],
                                           data["lag_ms"] or 0)
            except TableRefusal as exc:
                table_metrics.MOVES_REFUSED.inc()
                refuse({"code": exc.code, "message": exc.message(lang), "event": "table:move"})
                if exc.current_game_id is not None:
                    self.send_current(sid, exc.current_game_id, user["uid"])
                return
            except Exception:
                table_metrics.MOVES_REFUSED.inc()
                raise
            table_metrics.moved(settled.row.game, time.perf_counter() - started)
        except ProtocolError as exc:
            refuse(error_payload(exc.code, lang, "table:move", **exc.params))
        except Exception:
            log.exception("socket handler for %s failed", "table:move")
            refuse(error_payload("internal_error", lang, "table:move"))

    def resign(self, data: dict[str, Any]) -> None:
        self.tables.resign(session_user_id(), data["game_id"])

    def draw(self, data: dict[str, Any]) -> None:
        self.tables.draw(session_user_id(), data["game_id"], data["action"])

    def takeback(self, data: dict[str, Any]) -> None:
        self.tables.takeback(session_user_id(), data["game_id"], data["action"])

    def undo(self, data: dict[str, Any]) -> None:
        self.tables.undo(session_user_id(), data["game_id"])

    def new_local(self, data: dict[str, Any]) -> None:
        uid = session_user_id()
        creation_quota.admit(current_app.extensions["redis"], "table", str(uid), creation_quota.TABLES_PER_HOUR)
        self.sit_down(self.tables.create_local(uid, data["game"], data["mode"], data["options"], data["strength"],
                                               data["seat"], data["clock"], secrets.randbits(62)))

    def leave(self, data: dict[str, Any]) -> None:
        game_id = data["game_id"]
        session_user_id()  # refused once the session has logged out
        for room in (table_room(game_id), watch_room(game_id), seat_room(game_id, 0), seat_room(game_id, 1)):
            leave_room(room)
        self.presence.left(request.sid, game_id)

    def claim(self, data: dict[str, Any]) -> None:
        self.tables.claim(session_user_id(), data["game_id"], data["action"], self.presence.away_ms,
                          self.connections.leave_after_ms)

    def table_ping(self, *args: object) -> None:
        # The client's clock on both ends: the round trip it credits as a move's lag.
        data = validated("table:ping", args)
        session_user_id()  # refused once the session has logged out
        emit("table:pong", {"sent_ms": data["sent_ms"]})

    def ping_worker(self, *args: object) -> None:
        data = validated("ping_worker", args)
        # One ping per account waits in the queue at a time: it is the queue of the computer's
        # moves and the Tipps.  The worker clears the mark before it answers.
        pending, client = pending_key(session_user_id()), current_app.extensions["redis"]
        if not client.set(pending, 1, nx=True, ex=PING_EXPIRES_S):
            raise ProtocolError("ping_pending")
        try:
            # apply_async only publishes to Redis; never wait for a result in a greenlet.
            ping_task.apply_async(args=[request.sid, data["nonce"], pending], expires=PING_EXPIRES_S)
        except Exception:
            client.delete(pending)
            raise

    def oversized(self, *_args: object) -> None:
        _emit_error(oversized_error(session_lang()))

    def unknown(self, event: object, *args: object) -> None:
        _emit_error(error_payload("unknown_event", session_lang(), None, event=str(event)[:40]))

    def failed(self, exc: Exception) -> None:
        log.error("socket handler failed", exc_info=exc)
        _emit_error(error_payload("internal_error", session_lang()))


def register(socketio: SocketIO, config: settings.Settings, pool: ConnectionPool, tables: Tables,
             publisher: TablePublisher, connections: SeatConnections, status: PlayerStatus) -> None:
    """Attach every handler to ``socketio``."""
    handlers = GameSocketHandlers(socketio, config, pool, tables, publisher, connections, status)
    table_event = table_events(socketio, tables, publisher)
    socketio.on("connect")(handlers.connect)
    socketio.on("disconnect")(handlers.disconnect)
    table_event("table:join")(handlers.join)
    socketio.server.on("table:move", handlers.move, namespace="/")
    table_event("table:resign")(handlers.resign)
    table_event("table:draw")(handlers.draw)
    table_event("table:takeback")(handlers.takeback)
    table_event("table:undo")(handlers.undo)
    table_event("table:new_local")(handlers.new_local)
    table_event("table:leave")(handlers.leave)
    table_event("table:claim")(handlers.claim)
    socketio.on("table:ping")(guarded("table:ping", _emit_error, session_lang)(handlers.table_ping))
    socketio.on("ping_worker")(guarded("ping_worker", _emit_error, session_lang)(handlers.ping_worker))
    socketio.on(OVERSIZED_EVENT)(handlers.oversized)
    socketio.on("*")(handlers.unknown)
    socketio.on_error_default(handlers.failed)
