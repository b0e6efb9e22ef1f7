"""Holding the servers to the protocol: every event the lobby or the game service sends, by name."""

from __future__ import annotations

from typing import Any

from shared.schemas.lobby_events import SERVER_EVENTS
from shared.schemas.mechanism import check_fields
from shared.schemas.table_events import GAME_SERVER_EVENTS


def validate_server_event(event: str, payload: Any) -> dict[str, Any]:
    """Check something the server sends; used by tests to hold the server to the protocol."""
    schema = SERVER_EVENTS.get(event) or GAME_SERVER_EVENTS[event]
    return check_fields(schema.fields, payload)
