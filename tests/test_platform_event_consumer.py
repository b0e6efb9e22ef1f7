"""The stream consumer's failure paths, driven in-process against real PostgreSQL and Redis."""

from __future__ import annotations

import json
import uuid

import psycopg
import pytest
import redis

from shared.db import make_pool
from shared.event_stream import MAX_DELIVERIES, EventConsumer, StreamEvent


@pytest.fixture
def stream_and_pool(infra):  # noqa: ANN001, ANN201
    """A stream of this test alone (the services' stream is left alone) and a DB pool."""
    stream = f"test:events:{uuid.uuid4().hex[:8]}"
    pool = make_pool(infra.database_url, max_size=2)
    client = redis.Redis.from_url(infra.redis_url, decode_responses=True)
    yield stream, pool, client
    client.delete(stream, f"{stream}:dead")
    pool.close()


def _event(event_type: str = "boom") -> dict[str, str]:
    return {"event_id": str(uuid.uuid4()), "type": event_type, "payload": json.dumps({"n": 1}), "created_at": ""}


def _consumer(pool, client, stream, handlers, group="g") -> EventConsumer:  # noqa: ANN001
    consumer = EventConsumer(pool, client, group=group, consumer="c1", handlers=handlers, claim_idle_ms=0,
                             block_ms=10, stream=stream)
    consumer.ensure_group()
    return consumer


def _processed(pool, group: str, event_id: str) -> int:  # noqa: ANN001
    with pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM processed_events WHERE consumer = %s AND event_id = %s",
                            (group, event_id)).fetchone()["n"]


def test_a_failing_handler_rolls_back_and_ends_in_the_dead_letter_stream(stream_and_pool) -> None:
    stream, pool, client = stream_and_pool
    calls = []

    def explode(conn: psycopg.Connection, event: StreamEvent) -> None:
        calls.append(event.event_id)
        raise RuntimeError("handler bug")

    group = f"g-{uuid.uuid4().hex[:6]}"
    consumer = _consumer(pool, client, stream, {"boom": explode}, group)
    fields = _event()
    entry = client.xadd(stream, fields)

    assert consumer.read_new() == 0
    assert _processed(pool, group, fields["event_id"]) == 0  # the ledger row was rolled back with the handler
    assert [p["message_id"] for p in client.xpending_range(stream, group, "-", "+", 10)] == [entry]

    for _ in range(MAX_DELIVERIES + 1):
        consumer.claim_abandoned()
    assert client.xpending(stream, group)["pending"] == 0
    dead = client.xrange(f"{stream}:dead")
    assert len(dead) == 1 and dead[0][1]["event_id"] == fields["event_id"] and dead[0][1]["entry_id"] == entry
    assert len(calls) == MAX_DELIVERIES


def test_malformed_entries_are_dead_lettered_and_unknown_types_acknowledged(stream_and_pool) -> None:
    stream, pool, client = stream_and_pool
    group = f"g-{uuid.uuid4().hex[:6]}"
    seen = []
    consumer = _consumer(pool, client, stream, {"known": lambda conn, event: seen.append(event.payload)}, group)
    client.xadd(stream, {"garbage": "1"})
    client.xadd(stream, {**_event("known"), "payload": "[1, 2]"})  # payload must be an object
    unknown = _event("somebody_elses")
    client.xadd(stream, unknown)
    known = _event("known")
    client.xadd(stream, known)

    assert consumer.read_new() == 4
    assert client.xpending(stream, group)["pending"] == 0
    assert [f["reason"] for _, f in client.xrange(f"{stream}:dead")] == ["malformed entry", "malformed entry"]
    assert seen == [{"n": 1}]
    assert _processed(pool, group, known["event_id"]) == 1
    assert _processed(pool, group, unknown["event_id"]) == 0  # no handler: nothing to remember
