"""The game service's Socket.IO events: authenticated connect, the tables, ``ping_worker``.

Every client event carries exactly one JSON object, validated against its schema in
``shared.schemas.GAME_CLIENT_EVENTS``; the table events are documented there.  A
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
from flask import request, session
from flask_socketio import ConnectionRefusedError, SocketIO, emit, join_room, leave_room
from psycopg_pool import ConnectionPool

from services.ai_worker.ping import ping as ping_task
from services.game import table_metrics
from services.game.player_status import PlayerStatus
from services.game.private_tables import check_onlooker
from services.game.publisher import TablePublisher, seat_room, table_room, watch_room
from services.game.refusals import TableRefusal
from services.game.seat_connections import SeatConnections
from services.game.table import Settled, Tables
from services.game.table_presence import TablePresence
from shared import i18n, reserved_events, session_tokens, settings
from shared.socket_errors import error_payload, guarded, validated

log = logging.getLogger("game.sockets")

# An answer that arrives after the player gave up waiting is worthless.
PING_EXPIRES_S = 30


def session_lang() -> str:
    return session.get("lang", i18n.DEFAULT_LANGUAGE)


def session_user_id() -> int:
    return session["user"]["uid"]


def _emit_error(payload: dict) -> None:
    emit("error", payload)


def table_events(socketio: SocketIO, tables: Tables,
                 publisher: TablePublisher) -> Callable[[str], Callable[[Callable[[dict[str, Any]], None]], Callable]]:
    """The decorator every table event handler of the game service is registered with:
    validate the payload, run the handler, turn a table refusal into ``error`` (+ state)."""

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
                        publisher.send_to(request.sid, tables.current(exc.current_game_id), session_user_id())

            return wrapper

        return decorate

    return table_event


def register(socketio: SocketIO, config: settings.Settings, pool: ConnectionPool, tables: Tables,
             publisher: TablePublisher, connections: SeatConnections, status: PlayerStatus) -> None:
    """Attach every handler to ``socketio``."""

    presence = TablePresence(connections, publisher)
    table_event = table_events(socketio, tables, publisher)

    def sit_down(settled: Settled) -> Settled:
        """Put this socket into the table's rooms (a spectator's: then the table marked watched),
        read the table again and send it, in this order, so that no change falls between: a
        change published after ``settled`` was read and before this socket was in the rooms (and
        its process subscribed to the table's channel) would otherwise never reach it
        (services.game.watchers). At a new computer table that change is the computer's first
        move, asked for at the commit, which another process may play."""
        sid, uid = request.sid, session_user_id()
        for room in publisher.rooms_for(settled, uid):
            join_room(room)
        if not settled.row.seats_of(uid):
            try:
                publisher.watchers.mark(settled.row.id)
            except redis.RedisError:
                log.warning("spectator mark not set", extra={"fields": {"game_id": settled.row.id}})
        settled = tables.current(settled.row.id)
        publisher.send_to(sid, settled, uid)
        presence.seated(sid, settled, uid)
        return settled

    @socketio.on("connect")
    def connect(auth: object = None) -> None:
        if reserved_events.sent_as_event(socketio):
            _emit_error(error_payload("unknown_event", session_lang(), None, event="connect"))
            return
        token = auth.get("token") if isinstance(auth, dict) else None
        lang = i18n.pick_language(auth.get("lang") if isinstance(auth, dict) else None)
        user = session_tokens.claims(pool, token, config)
        if user is None:
            # The payload reaches the client as connect_error data.
            raise ConnectionRefusedError(error_payload("not_logged_in", lang))
        session["user"] = user
        session["lang"] = lang
        # A personal room so workers and other processes can reach this account's sockets.
        join_room(f"user:{user['uid']}")

    @socketio.on("disconnect")
    def disconnect(*_args: object) -> None:
        if reserved_events.sent_as_event(socketio):
            _emit_error(error_payload("unknown_event", session_lang(), None, event="disconnect"))
            return
        presence.left(request.sid)

    @table_event("table:join")
    def join(data: dict[str, Any]) -> None:
        settled = tables.current(data["game_id"])
        check_onlooker(settled.row, session_user_id())
        settled = sit_down(settled)
        if settled.row.running and settled.row.mode == "wartesaal" and settled.row.seats_of(session_user_id()):
            status.playing(session_user_id())

    @table_event("table:move")
    def move(data: dict[str, Any]) -> None:
        started = time.perf_counter()
        try:
            settled = tables.move(session_user_id(), data["game_id"], data["version"], data["move"], data["lag_ms"] or 0)
        except Exception:
            table_metrics.MOVES_REFUSED.inc()
            raise
        table_metrics.MOVE_SECONDS.labels(settled.row.game).observe(time.perf_counter() - started)
        table_metrics.MOVES.labels(settled.row.game).inc()

    @table_event("table:resign")
    def resign(data: dict[str, Any]) -> None:
        tables.resign(session_user_id(), data["game_id"])

    @table_event("table:draw")
    def draw(data: dict[str, Any]) -> None:
        tables.draw(session_user_id(), data["game_id"], data["action"])

    @table_event("table:takeback")
    def takeback(data: dict[str, Any]) -> None:
        tables.takeback(session_user_id(), data["game_id"], data["action"])

    @table_event("table:undo")
    def undo(data: dict[str, Any]) -> None:
        tables.undo(session_user_id(), data["game_id"])

    @table_event("table:new_local")
    def new_local(data: dict[str, Any]) -> None:
        sit_down(tables.create_local(session_user_id(), data["game"], data["mode"], data["options"], data["strength"],
                                     data["seat"], data["clock"], secrets.randbits(62)))

    @table_event("table:leave")
    def leave(data: dict[str, Any]) -> None:
        game_id = data["game_id"]
        for room in (table_room(game_id), watch_room(game_id), seat_room(game_id, 0), seat_room(game_id, 1)):
            leave_room(room)
        presence.left(request.sid, game_id)

    @table_event("table:claim")
    def claim(data: dict[str, Any]) -> None:
        tables.claim(session_user_id(), data["game_id"], data["action"], presence.away_ms, connections.leave_after_ms)

    @socketio.on("table:ping")
    @guarded("table:ping", _emit_error, session_lang)
    def table_ping(*args: object) -> None:
        # The client's clock on both ends: the round trip it credits as a move's lag.
        emit("table:pong", {"sent_ms": validated("table:ping", args)["sent_ms"]})

    @socketio.on("ping_worker")
    @guarded("ping_worker", _emit_error, session_lang)
    def ping_worker(*args: object) -> None:
        data = validated("ping_worker", args)
        # apply_async only publishes to Redis; never wait for a result in a greenlet.
        ping_task.apply_async(args=[request.sid, data["nonce"]], expires=PING_EXPIRES_S)

    @socketio.on("*")
    def unknown(event: object, *args: object) -> None:
        _emit_error(error_payload("unknown_event", session_lang(), None, event=str(event)[:40]))

    @socketio.on_error_default
    def failed(exc: Exception) -> None:
        log.error("socket handler failed", exc_info=exc)
        _emit_error(error_payload("internal_error", session_lang()))
