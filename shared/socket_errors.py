"""Refusing malformed Socket.IO input on the game service with an ``error`` event.

The lobby's protocol lives in ``shared.schemas``; the game service reuses its
refusal exception (``ProtocolError``), its size limit and its ``error`` event shape
``{"code", "message", "event"}`` so one client-side handler serves both sockets.
``checked_object`` validates the single JSON object an event must carry against a
small field spec; ``guarded`` turns a refusal (or any unexpected exception) into
an ``error`` event to the sender, so the input changes nothing and the connection
stays up.  Messages come from ``shared.i18n`` in the language the client chose at
connect time (German unless it asked for English).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping
from typing import Any

from shared import i18n
from shared.schemas import MAX_EVENT_BYTES, ProtocolError, payload_size

# Engine.IO's transport limit, far above MAX_EVENT_BYTES: an oversized event is then
# answered with an error instead of the transport dropping the connection.
TRANSPORT_MAX_BYTES = 1024 * 1024

_TYPE_NAMES = {str: "string", int: "number", bool: "boolean", dict: "object", list: "list"}

log = logging.getLogger("socket_errors")


def error_payload(code: str, lang: str = i18n.DEFAULT_LANGUAGE, refused_event: str | None = None,
                  **params: object) -> dict[str, Any]:
    """The ``error`` event body, as the lobby sends it; ``params`` fill the i18n text."""
    return {"code": code, "message": i18n.text(code, lang, **params), "event": refused_event}


def checked_object(event: str, args: tuple, fields: Mapping[str, tuple[type, int | None]]) -> dict[str, Any]:
    """The single object in ``args`` if it has exactly ``fields`` (name → (type, max length or None))."""
    if payload_size(args) > MAX_EVENT_BYTES:
        raise ProtocolError("payload_too_large", limit=MAX_EVENT_BYTES)
    if len(args) != 1 or not isinstance(args[0], dict):
        raise ProtocolError("bad_payload", event=event)
    data = args[0]
    for name in data:
        if name not in fields:
            raise ProtocolError("unexpected_field", field=str(name)[:40])
    for name, (kind, max_len) in fields.items():
        if name not in data:
            raise ProtocolError("missing_field", field=name)
        value = data[name]
        # bool is a subclass of int; JSON true is never a number.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ProtocolError("wrong_type", field=name, expected=_TYPE_NAMES.get(kind, kind.__name__))
        if max_len is not None and len(value) > max_len:
            raise ProtocolError("too_long", field=name, limit=max_len)
    return data


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
