"""Event type → handler, for the rating service's consumer group.

A handler runs inside the transaction that also records the event as processed,
on the connection it is given: its writes commit together with that record or
not at all.  Add a handler with ``@handles("event_type")``.
"""

from __future__ import annotations

from collections.abc import Callable

import psycopg
from psycopg.types.json import Jsonb

from services.rating.settlement import settle
from shared.event_stream import Handler, StreamEvent
from shared.schemas.outbox_events import GAME_FINISHED

HANDLERS: dict[str, Handler] = {}


def handles(event_type: str) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of ``event_type``."""

    def register(handler: Handler) -> Handler:
        if event_type in HANDLERS:
            raise ValueError(f"two handlers for {event_type!r}")
        HANDLERS[event_type] = handler
        return handler

    return register


@handles(GAME_FINISHED)
def record_finished_game(conn: psycopg.Connection, event: StreamEvent) -> None:
    """Keep the finished game and settle it: Elo, points, Taler (``services.rating.settlement``)."""
    conn.execute(
        "INSERT INTO rating_finished_games (event_id, game_id, game, payload) VALUES (%s, %s, %s, %s)",
        (event.event_id, str(event.payload.get("game_id", "")), str(event.payload.get("game", "")),
         Jsonb(event.payload)),
    )
    settle(conn, event)
