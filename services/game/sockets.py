"""The game service's Socket.IO events: authenticated connect, ``ping_worker``, refusals.

Client → server events (each carries exactly one JSON object):

    ping_worker  {"nonce": str ≤ 64}   round trip through a Celery worker;
                                       answered by ``pong_worker`` {"nonce", "worker", "pid"}

Server → client: ``pong_worker``; ``error`` {"code", "message", "event"} when an
event was refused (nothing changed).  Connect with ``auth: {token, lang}``.
"""

from __future__ import annotations

import logging

from flask import request, session
from flask_socketio import ConnectionRefusedError, SocketIO, emit, join_room

from services.ai_worker.ping import ping as ping_task
from shared import auth_token, i18n, settings
from shared.socket_errors import checked_object, error_payload, guarded

log = logging.getLogger("game.sockets")

# An answer that arrives after the player gave up waiting is worthless.
PING_EXPIRES_S = 30


def _lang() -> str:
    return session.get("lang", i18n.DEFAULT_LANGUAGE)


def _emit_error(payload: dict) -> None:
    emit("error", payload)


def register(socketio: SocketIO, config: settings.Settings) -> None:
    """Attach every handler to ``socketio``."""

    @socketio.on("connect")
    def connect(auth: object = None) -> None:
        token = auth.get("token") if isinstance(auth, dict) else None
        lang = i18n.pick_language(auth.get("lang") if isinstance(auth, dict) else None)
        user = auth_token.verify(token, config.secret_key, config.session_max_age) if token else None
        if user is None:
            # The payload reaches the client as connect_error data.
            raise ConnectionRefusedError(error_payload("not_logged_in", lang))
        session["user"] = user
        session["lang"] = lang
        # A personal room so workers and other processes can reach this account's sockets.
        join_room(f"user:{user['uid']}")

    @socketio.on("ping_worker")
    @guarded("ping_worker", _emit_error, _lang)
    def ping_worker(*args: object) -> None:
        data = checked_object("ping_worker", args, {"nonce": (str, 64)})
        # apply_async only publishes to Redis; never wait for a result in a greenlet.
        ping_task.apply_async(args=[request.sid, data["nonce"]], expires=PING_EXPIRES_S)

    @socketio.on("*")
    def unknown(event: object, *args: object) -> None:
        _emit_error(error_payload("unknown_event", _lang(), None, event=str(event)[:40]))

    @socketio.on_error_default
    def failed(exc: Exception) -> None:
        log.error("socket handler failed", exc_info=exc)
        _emit_error(error_payload("internal_error", _lang()))
