"""The computer's request and answer on the wire, without infrastructure: their exact form,
their records, and what the game service's inbox does with an answer it cannot read."""

from __future__ import annotations

import json
from dataclasses import fields

from shared.ai_protocol import AnswerInbox, MoveAnswer, MoveRequest, PollResult
from shared.schemas.ai_messages import AI_RECORDS


def test_the_classes_have_their_records_fields() -> None:
    # The records are open: a field only the record had would reach the class as an unknown argument.
    assert [f.name for f in fields(MoveRequest)] == list(AI_RECORDS["MoveRequest"].fields)
    assert [f.name for f in fields(MoveAnswer) if f.name != "entry_id"] == list(AI_RECORDS["MoveAnswer"].fields)


def test_a_request_is_the_celery_argument_it_always_was() -> None:
    request = MoveRequest("r1", "hint", "hexagon", "42", 3, 1, "stark", {"game": "hexagon"}, 1765000000.25, 7, 2)
    assert json.dumps(request.to_dict()) == (
        '{"request_id": "r1", "kind": "hint", "game": "hexagon", "table_id": "42", "ply": 3, "seat": 1,'
        ' "strength": "stark", "view": {"game": "hexagon"}, "deadline": 1765000000.25, "user_id": 7, "attempt": 2}')
    assert MoveRequest.from_dict(json.loads(json.dumps(request.to_dict()))) == request


def test_an_answer_is_the_stream_entry_it_always_was() -> None:
    answer = MoveAnswer("r1", "hexagon", "42", 3, 1, "a1", 1765000000.25, 1765000001.5, "host:1", 2, None,
                        {"search_ms": 3.5, "nodes": 10})
    assert answer.to_fields() == {"answer": (
        '{"request_id":"r1","game":"hexagon","table_id":"42","ply":3,"seat":1,"move":"a1",'
        '"deadline":1765000000.25,"answered_at":1765000001.5,"worker":"host:1","attempt":2,"error":null,'
        '"stats":{"search_ms":3.5,"nodes":10}}')}
    assert MoveAnswer.from_fields("5-0", answer.to_fields()) == answer


class _Redis:
    def __init__(self) -> None:
        self.acked: list[str] = []

    def get_connection_kwargs(self) -> dict:
        return {"decode_responses": True}

    def xack(self, _stream: str, _group: str, entry_id: str) -> None:
        self.acked.append(entry_id)


def test_an_unreadable_answer_is_acknowledged_and_dropped() -> None:
    client = _Redis()
    good = MoveAnswer("r1", "hexagon", "42", 3, 1, "a1", 1.0, 2.0).to_fields()
    entries = [("1-0", {"answer": "{"}), ("2-0", {"answer": "[1]"}), ("3-0", {"other": "x"}),
               ("4-0", {"answer": json.dumps({"request_id": "r1"})}), ("5-0", good)]
    applied: list[MoveAnswer] = []
    result = PollResult()
    AnswerInbox(client, "group", "consumer")._handle(entries, lambda _answer: True, applied.append, result)  # type: ignore[arg-type]
    assert client.acked == ["1-0", "2-0", "3-0", "4-0", "5-0"]
    assert [answer.entry_id for answer in applied] == ["5-0"] and result.applied == applied
