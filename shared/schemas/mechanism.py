"""How a message is defined and checked: field types, records, events, validation, TypeScript.

One mechanism for every boundary: the Socket.IO events and HTTP bodies of the web client
(catalogues ``lobby_events``, ``table_events``, ``http_records``, ``game_views``), the
computer's requests and answers (``ai_messages``) and the outbox's events
(``outbox_events``).  A catalogue defines its records with :func:`define`, which also
makes them known by name to :class:`Ref`; importing ``shared.schemas`` loads every
catalogue, so a reference always resolves.

Types are deliberately few: strings with length bounds, integers, numbers, booleans,
string enums, lists, fixed-length tuples, string-keyed maps, optional and omittable
values, alternatives, JSON passed through unchecked, and named records.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# Largest accepted event payload, as compact JSON.  Far above any legal message, far
# below Engine.IO's transport limit, so oversized input gets an error, not a hang-up.
MAX_EVENT_BYTES = 8192


class ProtocolError(Exception):
    """Input that does not match its schema; ``code`` and ``params`` pick the i18n text."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


# --- types -----------------------------------------------------------------------


@dataclass(frozen=True)
class Str:
    min_length: int = 0
    max_length: int | None = None

    def ts(self) -> str:
        return "string"


@dataclass(frozen=True)
class Int:
    def ts(self) -> str:
        return "number"


@dataclass(frozen=True)
class Number:
    """An integer or a fraction (epoch seconds, milliseconds measured)."""

    def ts(self) -> str:
        return "number"


@dataclass(frozen=True)
class Bool:
    def ts(self) -> str:
        return "boolean"


@dataclass(frozen=True)
class Enum:
    values: tuple[str, ...]

    def ts(self) -> str:
        return " | ".join(json.dumps(v) for v in self.values)


@dataclass(frozen=True)
class ListOf:
    item: Any

    def ts(self) -> str:
        inner = self.item.ts()
        named = isinstance(self.item, (Str, Int, Number, Bool, Ref)) or isinstance(self.item, AnyOf) and self.item.name
        return f"{inner}[]" if named else f"({inner})[]"


@dataclass(frozen=True)
class TupleOf:
    """A list of fixed length whose items each have their own type (a coordinate pair)."""

    items: tuple[Any, ...]

    def ts(self) -> str:
        return "[" + ", ".join(item.ts() for item in self.items) + "]"


@dataclass(frozen=True)
class MapOf:
    """An object whose keys are free strings and whose values all have one type."""

    value: Any

    def ts(self) -> str:
        return f"Record<string, {self.value.ts()}>"


@dataclass(frozen=True)
class Optional:
    inner: Any

    def ts(self) -> str:
        return f"{self.inner.ts()} | null"


@dataclass(frozen=True)
class Omittable:
    """A field that may be left out of its record (TypeScript ``key?: T``), e.g. what a view
    carries only for the seat to move; present, it is ``inner``."""

    inner: Any

    def ts(self) -> str:
        return self.inner.ts()


@dataclass(frozen=True)
class AnyOf:
    """The first of ``kinds`` the value matches; ``name``: the TypeScript type that stands for
    the alternatives (declared by whoever writes the catalogue as TypeScript)."""

    kinds: tuple[Any, ...]
    name: str | None = None

    def ts(self) -> str:
        return self.name or " | ".join(kind.ts() for kind in self.kinds)


@dataclass(frozen=True)
class Json:
    """Any JSON value the server passes through untouched (a score, game options)."""

    object_only: bool = False

    def ts(self) -> str:
        return "Record<string, unknown>" if self.object_only else "unknown"


@dataclass(frozen=True)
class Ref:
    """A named record defined with :func:`define`."""

    name: str

    def ts(self) -> str:
        return self.name


@dataclass(frozen=True)
class Record:
    """A named object.  ``open``: fields it does not know are dropped, not refused (a
    message a newer sender may extend, e.g. the computer's answer)."""

    name: str
    doc: str
    fields: dict[str, Any]
    open: bool = False


@dataclass(frozen=True)
class Event:
    """A Socket.IO event; its single argument is a record with ``fields``.  ``ts_name``:
    the TypeScript type of that argument, where the event's name does not give an English one."""

    name: str
    doc: str
    fields: dict[str, Any] = field(default_factory=dict)
    ts_name: str | None = None

    def payload_type(self) -> str:
        if self.ts_name is not None:
            return self.ts_name
        return "".join(part.capitalize() for part in self.name.replace(":", "_").split("_")) + "Payload"


# Every record of every catalogue, by name (what a Ref points to).
RECORDS: dict[str, Record] = {}


def define(*records: Record) -> dict[str, Record]:
    """Make ``records`` known by name; returns them as a catalogue (name → record)."""
    for record in records:
        if record.name in RECORDS:
            raise ValueError(f"two records named {record.name!r}")
        RECORDS[record.name] = record
    return {record.name: record for record in records}


def events(*defined: Event) -> dict[str, Event]:
    """An event table: name → event."""
    return {event.name: event for event in defined}


# --- validation ------------------------------------------------------------------


def _check(kind: Any, value: Any, path: str) -> Any:
    if isinstance(kind, Optional):
        return None if value is None else _check(kind.inner, value, path)
    if isinstance(kind, Omittable):
        return _check(kind.inner, value, path)
    if isinstance(kind, Str):
        if not isinstance(value, str):
            raise ProtocolError("wrong_type", field=path, expected="string")
        if kind.max_length is not None and len(value) > kind.max_length:
            raise ProtocolError("too_long", field=path, limit=kind.max_length)
        if len(value) < kind.min_length:
            raise ProtocolError("too_short", field=path, limit=kind.min_length)
        return value
    if isinstance(kind, Int):
        # bool is an int subclass in Python; JSON true is not a number.
        if not isinstance(value, int) or isinstance(value, bool):
            raise ProtocolError("wrong_type", field=path, expected="number")
        return value
    if isinstance(kind, Number):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ProtocolError("wrong_type", field=path, expected="number")
        return value
    if isinstance(kind, Bool):
        if not isinstance(value, bool):
            raise ProtocolError("wrong_type", field=path, expected="boolean")
        return value
    if isinstance(kind, Enum):
        if not isinstance(value, str):
            raise ProtocolError("wrong_type", field=path, expected="string")
        if value not in kind.values:
            raise ProtocolError("not_allowed_value", field=path, allowed=", ".join(kind.values))
        return value
    if isinstance(kind, ListOf):
        if not isinstance(value, list):
            raise ProtocolError("wrong_type", field=path, expected="list")
        return [_check(kind.item, item, f"{path}[{i}]") for i, item in enumerate(value)]
    if isinstance(kind, TupleOf):
        if not isinstance(value, list) or len(value) != len(kind.items):
            raise ProtocolError("wrong_type", field=path, expected="list")
        return [_check(item_kind, item, f"{path}[{i}]") for i, (item_kind, item) in enumerate(zip(kind.items, value, strict=True))]
    if isinstance(kind, MapOf):
        if not isinstance(value, dict):
            raise ProtocolError("wrong_type", field=path, expected="object")
        return {key: _check(kind.value, item, f"{path}.{key}") for key, item in value.items()}
    if isinstance(kind, AnyOf):
        for option in kind.kinds[:-1]:
            try:
                return _check(option, value, path)
            except ProtocolError:
                continue
        return _check(kind.kinds[-1], value, path)
    if isinstance(kind, Ref):
        record = RECORDS[kind.name]
        return check_fields(record.fields, value, path, ignore_unknown=record.open)
    if isinstance(kind, Json):
        if kind.object_only and not isinstance(value, dict):
            raise ProtocolError("wrong_type", field=path, expected="object")
        return value
    raise TypeError(f"unknown schema type {kind!r}")


def check_fields(fields: dict[str, Any], value: Any, path: str = "", ignore_unknown: bool = False) -> dict[str, Any]:
    """``value`` checked field by field: missing optional fields come back as None."""
    if not isinstance(value, dict):
        raise ProtocolError("wrong_type", field=path or "(message)", expected="object")
    prefix = f"{path}." if path else ""
    if not ignore_unknown:
        for key in value:
            if key not in fields:
                raise ProtocolError("unexpected_field", field=f"{prefix}{key}"[:60])
    out = {}
    for key, kind in fields.items():
        if key not in value:
            if isinstance(kind, Omittable):
                continue
            if isinstance(kind, Optional):
                out[key] = None
                continue
            raise ProtocolError("missing_field", field=f"{prefix}{key}")
        out[key] = _check(kind, value[key], f"{prefix}{key}")
    return out


def check(kind: Any, value: Any, path: str = "") -> Any:
    """``value`` checked against type ``kind`` (a Ref, a ListOf …)."""
    return _check(kind, value, path)


def _placeholder(value: object) -> str:
    # Binary attachments count with their length; anything else odd with its repr.
    return "x" * len(value) if isinstance(value, (bytes, bytearray)) else repr(value)


def payload_size(args: tuple) -> int:
    """Bytes of ``args`` as compact JSON (how big the client's message was)."""
    return len(json.dumps(args, separators=(",", ":"), ensure_ascii=False, default=_placeholder).encode())


def validate_event(event: str, args: tuple, events: dict[str, Event]) -> dict[str, Any]:
    """The single argument of client event ``event``, checked against its schema in ``events``
    (the lobby's ``CLIENT_EVENTS`` or the game service's ``GAME_CLIENT_EVENTS``)."""
    schema = events.get(event) if isinstance(event, str) else None
    if schema is None:
        raise ProtocolError("unknown_event", event=str(event)[:40])
    if payload_size(args) > MAX_EVENT_BYTES:
        raise ProtocolError("payload_too_large", limit=MAX_EVENT_BYTES)
    if len(args) != 1 or not isinstance(args[0], dict):
        raise ProtocolError("bad_payload", event=event)
    return check_fields(schema.fields, args[0])


def validate_record(name: str, value: Any) -> dict[str, Any]:
    """``value`` checked against record ``name`` (HTTP bodies, messages between services,
    and outgoing messages in tests)."""
    if not isinstance(value, dict):
        raise ProtocolError("bad_json")
    record = RECORDS[name]
    return check_fields(record.fields, value, ignore_unknown=record.open)


# --- TypeScript ------------------------------------------------------------------


def ts_interface(name: str, doc: str, fields: dict[str, Any]) -> list[str]:
    """``fields`` as an exported TypeScript interface, with ``doc`` above it."""
    lines = [f"/** {doc} */", f"export interface {name} {{"]
    for key, kind in fields.items():
        name = json.dumps(key) if ":" in key else key
        lines.append(f"  {name}{'?' if isinstance(kind, Omittable) else ''}: {kind.ts()};")
    lines.append("}")
    return lines
