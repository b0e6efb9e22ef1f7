"""Socket.IO events of the solo features at the game service: Tipp and Rückblick.

``table:hint`` {game_id, version}     Tipp (:mod:`services.game.solo.hint`); the answer comes
                                       from the worker as ``ai_hint`` to the asker's sockets.
``review:request`` {game_id, seat}    queue one's own Rückblick of a finished game; answered
                                       with ``review:state``; this socket joins the room
                                       ``review:<id>`` for ``review_progress`` / ``review_done``.
``review:public`` {game_id, public}   show one's Rückblick to everyone (or hide it again).

Refusals are ``error`` {code, message, event} in the client's language; nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_socketio import SocketIO, emit, join_room
from psycopg_pool import ConnectionPool

from services.game.fanout.publisher import TablePublisher
from services.game.sockets import session_user_id, table_events
from services.game.solo.hint import HintDesk
from services.game.solo.review_access import request_review, review_id_of, set_public
from services.game.tables.table import Tables


class SoloSocketHandlers:
    """The solo features' Socket.IO handlers, one method per event."""

    def __init__(self, pool: ConnectionPool, hints: HintDesk, send_review: Callable[[int], None]) -> None:
        self.pool, self.hints, self.send_review = pool, hints, send_review

    def hint(self, data: dict[str, Any]) -> None:
        found = self.hints.request(session_user_id(), data["game_id"], data["version"])
        if isinstance(found, dict):  # asked again at the same version: the Tipp found then
            emit("ai_hint", found)

    def review(self, data: dict[str, Any]) -> None:
        with self.pool.connection() as conn:
            state = request_review(conn, session_user_id(), data["game_id"], data["seat"], self.send_review)
        if state["review_id"] is not None:
            join_room(f"review:{state['review_id']}")
        emit("review:state", state)

    def public(self, data: dict[str, Any]) -> None:
        with self.pool.connection() as conn:
            state = set_public(conn, session_user_id(), data["game_id"], data["public"])
            review_id = review_id_of(conn, data["game_id"], state["seat"])
        if review_id is not None:
            join_room(f"review:{review_id}")
        emit("review:state", state)


def register(socketio: SocketIO, pool: ConnectionPool, tables: Tables, publisher: TablePublisher,
             hints: HintDesk, send_review: Callable[[int], None]) -> None:
    """Attach the solo handlers to ``socketio``."""
    handlers = SoloSocketHandlers(pool, hints, send_review)
    solo_event = table_events(socketio, tables, publisher)
    solo_event("table:hint")(handlers.hint)
    solo_event("review:request")(handlers.review)
    solo_event("review:public")(handlers.public)
