"""Refusing malformed Socket.IO input on the game service with an ``error`` event.

The lobby's protocol lives in ``shared.schemas``; the game service reuses its
refusal exception (``ProtocolError``), its size limit and its ``error`` event shape
``{"code", "message", "event"}`` so one client-side handler serves both sockets.
``validated`` checks the single JSON object an event must carry against its schema
in ``shared.schemas.table_events.GAME_CLIENT_EVENTS``; ``guarded`` turns a refusal (or any unexpected exception) into
an ``error`` event to the sender, so the input changes nothing and the connection
stays up.  Messages come from ``shared.i18n`` in the language the client chose at
connect time (German unless it asked for English).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from shared import i18n
from shared.schemas.mechanism import MAX_EVENT_BYTES, ProtocolError, validate_event
from shared.schemas.table_events import GAME_CLIENT_EVENTS

# Engine.IO's transport limit: the largest legitimate message is one event of at most
# MAX_EVENT_BYTES (every client event's schema keeps to it) plus its name and framing.
# A longer message is never held beyond this; the socket receives OVERSIZED_EVENT in
# its place (services.oversized_frames) and answers it with ``payload_too_large``.
TRANSPORT_MAX_BYTES = 2 * MAX_EVENT_BYTES
OVERSIZED_EVENT = "transport:oversized"

log = logging.getLogger("socket_errors")


def error_payload(code: str, lang: str = i18n.DEFAULT_LANGUAGE, refused_event: str | None = None,
                  **params: object) -> dict[str, Any]:
    """The ``error`` event body, as the lobby sends it; ``params`` fill the i18n text."""
    return {"code": code, "message": i18n.text(code, lang, **params), "event": refused_event}


def validated(event: str, args: tuple) -> dict[str, Any]:
    """The single object of game-service event ``event``, checked against its schema in
    ``shared.schemas.table_events.GAME_CLIENT_EVENTS`` (the one way input is validated)."""
    return validate_event(event, args, GAME_CLIENT_EVENTS)


def guarded(event: str, emit_error: Callable[[dict[str, Any]], None], lang: Callable[[], str]) -> Callable:
    """Decorator for the handler of ``event``: a refusal or a crash becomes an ``error`` event."""

    def decorate(handler: Callable) -> Callable:
        @functools.wraps(handler)
        def wrapper(*args: Any) -> Any:
            try:
                return handler(*args)
            except ProtocolError as exc:
                emit_error(error_payload(exc.code, lang(), event, **exc.params))
            except Exception:
                log.exception("socket handler for %s failed", event)
                emit_error(error_payload("internal_error", lang(), event))
            return None

        return wrapper

    return decorate


def oversized_error(lang: str = i18n.DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The ``error`` for a message the transport cut (OVERSIZED_EVENT): the same as for an event over
    MAX_EVENT_BYTES."""
    return error_payload("payload_too_large", lang, None, limit=MAX_EVENT_BYTES)
