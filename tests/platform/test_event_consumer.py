"""The stream consumer's failure paths, driven in-process against real PostgreSQL and Redis."""

from __future__ import annotations

import datetime as dt
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


def test_processed_events_past_the_retention_are_pruned_and_such_old_events_never_applied(stream_and_pool) -> None:
    stream, pool, client = stream_and_pool
    group, other_group = f"g-{uuid.uuid4().hex[:6]}", f"g-{uuid.uuid4().hex[:6]}"
    seen = []
    consumer = EventConsumer(pool, client, group=group, consumer="c1", handlers={"known": lambda c, e: seen.append(e)},
                             claim_idle_ms=0, block_ms=10, stream=stream, retention_s=10 * 86400)
    consumer.ensure_group()
    ages = {"fresh": 0, "within": 10.5, "pruned": 11.5}  # days; pruned after the retention and a day's margin
    ids = {name: str(uuid.uuid4()) for name in ages}
    with pool.connection() as conn:
        for name, days in ages.items():
            for owner in (group, other_group):
                conn.execute("INSERT INTO processed_events (consumer, event_id, type, processed_at)"
                             " VALUES (%s, %s, 'known', now() - make_interval(secs => %s))",
                             (owner, ids[name], days * 86400))

    # The consumer's loop prunes on its first pass (then once an hour): its own group only.
    consumer.run(should_stop=iter([False, True]).__next__)
    assert [_processed(pool, group, ids[n]) for n in ages] == [1, 1, 0]
    assert [_processed(pool, other_group, ids[n]) for n in ages] == [1, 1, 1]

    # An entry redelivered after its row was pruned (here: a re-read from the stream's start)
    # is too old to apply: dead-lettered, not applied a second time.
    too_old = {**_event("known"), "event_id": ids["pruned"],
               "created_at": (dt.datetime.now(dt.UTC) - dt.timedelta(days=11)).isoformat()}
    recent = {**_event("known"), "created_at": dt.datetime.now(dt.UTC).isoformat()}
    client.xadd(stream, too_old)
    client.xadd(stream, recent)
    assert consumer.read_new() == 2 and client.xpending(stream, group)["pending"] == 0
    assert [e.event_id for e in seen] == [recent["event_id"]]
    assert _processed(pool, group, ids["pruned"]) == 0
    assert [f["reason"] for _, f in client.xrange(f"{stream}:dead")] == ["older than the retention of processed_events"]
