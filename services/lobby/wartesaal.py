"""The Wartesaal over Socket.IO: presence, chat, and refusal of malformed events.

A socket is accepted only with a valid session cookie, and ended when that session logs
out (``shared.session_sockets``).  Every incoming event is checked against ``shared.schemas`` first; anything malformed (unknown name, wrong
arity or type, missing or extra fields, oversized) is answered with an ``error``
event in the client's language and changes nothing; the connection stays up.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask import request
from flask_socketio import emit, join_room
from prometheus_client import Counter, Gauge
from socketio.exceptions import ConnectionRefusedError  # not the builtin OSError of that name

from services.lobby.session import session_from
from shared import accounts, chat, ledger, reserved_events, session_sockets
from shared.i18n import pick_language, text
from shared.logs import event
from shared.schemas.lobby_events import CLIENT_EVENTS
from shared.schemas.mechanism import ProtocolError, validate_event
from shared.socket_errors import OVERSIZED_EVENT, oversized_error

if TYPE_CHECKING:
    from services.lobby.app import Lobby

SOCKETS = Gauge("spielcenter_lobby_sockets", "Wartesaal sockets open on this process")
CHAT_MESSAGES = Counter("spielcenter_lobby_chat_messages_total", "Chat messages accepted")
REFUSED_EVENTS = Counter("spielcenter_lobby_refused_events_total", "Client events answered with an error", ["code"])


@dataclass
class Connection:
    user_id: int
    name: str
    lang: str
    session_id: str  # the login session it acts for (shared.session_sockets)


Handler = Callable[[Connection, dict], None]


def user_room(user_id: int) -> str:
    """Every Wartesaal socket of a user, on every lobby process (for challenges)."""
    return f"user:{user_id}"


@dataclass
class WartesaalSockets:
    """What other lobby features need of the Wartesaal socket."""

    handles: Callable[[str], Callable[[Handler], Handler]]  # register a validated event handler
    on_join: list[Callable[[Connection], None]]  # called after a socket joined
    # called when a user's last Wartesaal socket (on every process) closed
    on_leave: list[Callable[[Connection], None]] = field(default_factory=list)


class WartesaalHandlers:
    """The Wartesaal socket's handlers, one method per event, and this process's sockets."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.socketio = lobby.socketio
        self.connections: dict[str, Connection] = {}  # sid → who; this process's sockets only
        self.on_join: list[Callable[[Connection], None]] = []
        self.on_leave: list[Callable[[Connection], None]] = []

    def refuse(self, err: ProtocolError, event_name: str | None) -> None:
        conn = self.connections.get(request.sid)
        lang = conn.lang if conn else "de"
        REFUSED_EVENTS.labels(err.code).inc()
        emit("error", {"code": err.code, "message": text(err.code, lang, **err.params), "event": event_name})

    def end_socket(self, sid: str) -> None:
        """Its session logged out: say so, then disconnect it (shared.session_sockets)."""
        conn = self.connections.get(sid)
        session_sockets.end_socket(self.socketio, sid, conn.lang if conn else "de")

    def handles(self, event_name: str) -> Callable[[Handler], Handler]:
        """Register ``fn(connection, payload)`` for ``event_name`` behind schema validation."""

        def register(fn: Handler) -> Handler:
            def handler(*args: object) -> None:
                try:
                    connection = self.connections[request.sid]
                    self.lobby.sessions.check(connection.session_id)
                    payload = validate_event(event_name, args, CLIENT_EVENTS)
                    fn(connection, payload)
                except ProtocolError as err:
                    self.refuse(err, event_name)

            self.socketio.on_event(event_name, handler)
            return fn

        return register

    def connect(self, auth: object = None) -> None:
        lobby = self.lobby
        if reserved_events.sent_as_event(self.socketio):
            self.refuse(ProtocolError("unknown_event", event="connect"), None)
            return
        lang = pick_language(auth.get("lang") if isinstance(auth, dict) else None)
        try:
            claims = session_from(request, lobby.settings, lobby.pool)
            account = accounts.get(lobby.pool, claims["uid"]) if claims else None
        except Exception:
            # Fail closed: the default error handler would otherwise let the socket in.
            lobby.log.exception("session check failed")
            account = None
        if account is None:
            # Reaches the client as connect_error: message, then data.
            raise ConnectionRefusedError(text("not_logged_in", lang), {"code": "not_logged_in"})
        connection = Connection(account.id, account.name, lang, claims["sid"])
        self.connections[request.sid] = connection
        lobby.sessions.opened(connection.session_id, request.sid, functools.partial(self.end_socket, request.sid))
        join_room(user_room(account.id))
        SOCKETS.inc()
        lobby.presence.join(account.id, account.name)
        user = {"id": account.id, "name": account.name, "guest": account.guest, "balance": ledger.balance(lobby.pool, account.id)}
        emit("welcome", {"user": user, "history": chat.history(lobby.pool)})
        lobby.broadcast_players()
        for hook in self.on_join:
            hook(connection)
        event(lobby.log, "wartesaal join", user_id=account.id, sid=request.sid)

    def disconnect(self, *_reason: object) -> None:
        lobby = self.lobby
        if reserved_events.sent_as_event(self.socketio):
            self.refuse(ProtocolError("unknown_event", event="disconnect"), None)
            return
        conn = self.connections.pop(request.sid, None)
        if conn is None:
            return
        lobby.sessions.closed(conn.session_id, request.sid)
        SOCKETS.dec()
        if lobby.presence.leave(conn.user_id) == 0:
            lobby.broadcast_players()
            for hook in self.on_leave:
                hook(conn)
        event(lobby.log, "wartesaal leave", user_id=conn.user_id, sid=request.sid)

    def chat_send(self, conn: Connection, payload: dict) -> None:
        body = chat.clean_text(payload["text"])
        chat.admit(self.lobby.redis, conn.user_id)
        message = chat.store(self.lobby.pool, conn.user_id, conn.name, body)
        CHAT_MESSAGES.inc()
        self.socketio.emit("chat:message", {"message": message})

    def lang_set(self, conn: Connection, payload: dict) -> None:
        conn.lang = payload["lang"]

    def oversized(self, *_args: object) -> None:
        conn = self.connections.get(request.sid)
        REFUSED_EVENTS.labels("payload_too_large").inc()
        emit("error", oversized_error(conn.lang if conn else "de"))

    def unknown_event(self, event_name: object, *_args: object) -> None:
        self.refuse(ProtocolError("unknown_event", event=str(event_name)[:40]), None)

    def failed(self, err: Exception) -> None:
        self.lobby.log.exception("wartesaal handler failed", exc_info=err)
        self.refuse(ProtocolError("internal_error"), None)


def register_wartesaal(lobby: Lobby) -> WartesaalSockets:
    """Attach the Wartesaal handlers to the lobby's socket; other features add theirs through the result."""
    socketio = lobby.socketio
    handlers = WartesaalHandlers(lobby)
    wartesaal = WartesaalSockets(handles=handlers.handles, on_join=handlers.on_join, on_leave=handlers.on_leave)
    socketio.on("connect")(handlers.connect)
    socketio.on("disconnect")(handlers.disconnect)
    handlers.handles("chat:send")(handlers.chat_send)
    handlers.handles("lang:set")(handlers.lang_set)
    socketio.on(OVERSIZED_EVENT)(handlers.oversized)
    socketio.on("*")(handlers.unknown_event)
    socketio.on_error_default(handlers.failed)
    return wartesaal
