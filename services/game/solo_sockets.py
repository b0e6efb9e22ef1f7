"""Socket.IO events of the solo features at the game service: Tipp and Rückblick.

``table:hint`` {game_id, version}     Tipp (:mod:`services.game.hint`); the answer comes
                                       from the worker as ``ai_hint`` to the asker's sockets.
``review:request`` {game_id, seat}    queue one's own Rückblick of a finished game; answered
                                       with ``review:state``; this socket joins the room
                                       ``review:<id>`` for ``review_progress`` / ``review_done``.
``review:public`` {game_id, public}   show one's Rückblick to everyone (or hide it again).

Refusals are ``error`` {code, message, event} in the client's language; nothing changes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import request, session
from flask_socketio import SocketIO, emit, join_room
from psycopg_pool import ConnectionPool

from services.game.hint import HintDesk
from services.game.publisher import TablePublisher
from services.game.refusals import TableRefusal
from services.game.review_access import request_review, review_id_of, set_public
from services.game.table import Tables
from shared import i18n
from shared.socket_errors import guarded, validated


def _lang() -> str:
    return session.get("lang", i18n.DEFAULT_LANGUAGE)


def _uid() -> int:
    return session["user"]["uid"]


def register(socketio: SocketIO, pool: ConnectionPool, tables: Tables, publisher: TablePublisher,
             hints: HintDesk, send_review: Callable[[int], None]) -> None:
    """Attach the solo handlers to ``socketio``."""

    def solo_event(event: str) -> Callable:
        def decorate(handler: Callable[[dict[str, Any]], None]) -> Callable:
            @socketio.on(event)
            @guarded(event, lambda payload: emit("error", payload), _lang)
            @functools.wraps(handler)
            def wrapper(*args: object) -> None:
                data = validated(event, args)
                try:
                    handler(data)
                except TableRefusal as exc:
                    emit("error", {"code": exc.code, "message": exc.message(_lang()), "event": event})
                    if exc.current_game_id is not None:
                        publisher.send_to(request.sid, tables.current(exc.current_game_id), _uid())

            return wrapper

        return decorate

    @solo_event("table:hint")
    def hint(data: dict[str, Any]) -> None:
        hints.request(_uid(), data["game_id"], data["version"])

    @solo_event("review:request")
    def review(data: dict[str, Any]) -> None:
        with pool.connection() as conn:
            state = request_review(conn, _uid(), data["game_id"], data["seat"], send_review)
        if state["review_id"] is not None:
            join_room(f"review:{state['review_id']}")
        emit("review:state", state)

    @solo_event("review:public")
    def public(data: dict[str, Any]) -> None:
        with pool.connection() as conn:
            state = set_public(conn, _uid(), data["game_id"], data["public"])
            review_id = review_id_of(conn, data["game_id"], state["seat"])
        if review_id is not None:
            join_room(f"review:{review_id}")
        emit("review:state", state)
