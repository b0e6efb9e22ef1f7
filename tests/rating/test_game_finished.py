"""Which ``game_finished`` payloads the rating service reads (``GameFinished.read``), without infrastructure."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from shared.schemas.outbox_events import OUTBOX_RECORDS, GameFinished


def _payload(**changes: Any) -> dict[str, Any]:
    payload = {"game_id": 7, "game": "hexagon", "seats": [1, 2],
               "result": {"winner": 0, "reason": "aufgabe", "de": "Aufgegeben", "en": "Resigned", "score": None},
               "rated": True, "stake": 10, "mode": "wartesaal", "plies": 12, "duration_ms": 90_000}
    return {**payload, **changes}


def test_the_class_has_the_records_fields() -> None:
    # The record is open, so payload() would silently drop a field only the class has.
    assert [field.name for field in fields(GameFinished)] == list(OUTBOX_RECORDS["GameFinished"].fields)


def test_the_game_services_payload_reads_back_field_for_field() -> None:
    finished = GameFinished.read(_payload())
    assert finished is not None and finished.payload() == _payload()
    assert finished.winner == 0 and finished.reason == "aufgabe"


def test_a_field_a_newer_writer_adds_is_ignored_not_fatal() -> None:
    finished = GameFinished.read(_payload(new_field="x"))
    assert finished is not None and finished.payload() == _payload()


def test_what_is_no_tables_event_is_ignored() -> None:
    assert GameFinished.read({"probe": True}) is None
    assert GameFinished.read([1, 2]) is None
    assert GameFinished.read(_payload(seats=[1])) is None
    assert GameFinished.read(_payload(game_id=True)) is None
    assert GameFinished.read(_payload(mode=None)) is None
