"""Events that must not be lost: outbox → relay → Redis stream → rating consumer, exactly once.

Real parts only: the game service relays the outbox, the rating service consumes the
stream, and the tests kill the consumer with SIGKILL at the worst moment.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable

import psycopg
import pytest
import redis
from psycopg.rows import dict_row

from shared import outbox
from tests.stack import Infra, ServiceProcess

GROUP = "rating"


def _db(infra: Infra) -> psycopg.Connection:
    return psycopg.connect(infra.database_url, autocommit=True, row_factory=dict_row)


def _redis(infra: Infra) -> redis.Redis:
    return redis.Redis.from_url(infra.redis_url, decode_responses=True)


def _finish_game(infra: Infra, game_id: str) -> str:
    """What the game service will do when a game ends: state change + outbox row in one transaction."""
    with psycopg.connect(infra.database_url, row_factory=dict_row) as conn, conn.transaction():
        return outbox.record(conn, "game_finished", {"game_id": game_id, "game": "hexagon", "result": "1-0"})


def _counts(infra: Infra, event_id: str) -> tuple[int, int]:
    with _db(infra) as conn:
        effects = conn.execute("SELECT count(*) AS n FROM rating_finished_games WHERE event_id = %s",
                               (event_id,)).fetchone()["n"]
        processed = conn.execute("SELECT count(*) AS n FROM processed_events WHERE consumer = %s AND event_id = %s",
                                 (GROUP, event_id)).fetchone()["n"]
    return effects, processed


def _entries_of(infra: Infra, event_id: str) -> list[str]:
    return [eid for eid, fields in _redis(infra).xrange(outbox.EVENT_STREAM) if fields.get("event_id") == event_id]


def _pending_ids(infra: Infra) -> set[str]:
    try:
        return {p["message_id"] for p in _redis(infra).xpending_range(outbox.EVENT_STREAM, GROUP, "-", "+", 1000)}
    except redis.ResponseError:  # no group yet
        return set()


def _wait(condition: Callable[[], bool], timeout: float, what: str,
          context: Callable[[], str] = lambda: "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}\n{context()[-3000:]}")


def _rating(infra: Infra, log_dir, **env: str) -> ServiceProcess:  # noqa: ANN001
    return ServiceProcess("services.rating", infra, "RATING_PORT", log_dir, **env)


def test_finished_game_reaches_the_rating_service_once(infra, log_dir, game_service) -> None:
    with _rating(infra, log_dir, EVENT_CONSUMER_NAME=f"rating-{uuid.uuid4().hex[:6]}"):
        event_id = _finish_game(infra, "g-plain")
        _wait(lambda: _counts(infra, event_id) == (1, 1), 20, "the event to be applied")
        with _db(infra) as conn:
            row = conn.execute("SELECT game_id, game, payload FROM rating_finished_games WHERE event_id = %s",
                               (event_id,)).fetchone()
            dispatched = conn.execute("SELECT dispatched_at FROM outbox WHERE event_id = %s", (event_id,)).fetchone()
        assert (row["game_id"], row["game"], row["payload"]["result"]) == ("g-plain", "hexagon", "1-0")
        assert dispatched["dispatched_at"] is not None
        entries = _entries_of(infra, event_id)
        assert len(entries) == 1
        _wait(lambda: entries[0] not in _pending_ids(infra), 10, "the entry to be acknowledged")


@pytest.mark.parametrize("restart_as", ["same consumer", "other consumer"])
def test_consumer_killed_inside_the_transaction_applies_the_event_exactly_once(
    infra, log_dir, game_service, restart_as
) -> None:
    name = f"rating-{uuid.uuid4().hex[:6]}"
    game_id = f"g-kill-{restart_as.split()[0]}"
    paused = _rating(infra, log_dir, EVENT_CONSUMER_NAME=name, RATING_TEST_PAUSE_EVENT_TYPE="game_finished",
                     RATING_TEST_PAUSE_GAME_ID=game_id).start()
    try:
        event_id = _finish_game(infra, game_id)
        _wait(lambda: any("paused inside event transaction" in line and event_id in line
                          for line in paused.log().splitlines()), 30,
              "the consumer to pause inside the event's transaction", paused.log)
        paused.kill()
    finally:
        paused.stop()
    # The handler's insert died with the uncommitted transaction; the entry is still pending.
    assert _counts(infra, event_id) == (0, 0)
    entries = _entries_of(infra, event_id)
    assert len(entries) == 1 and entries[0] in _pending_ids(infra)

    if restart_as == "same consumer":
        # A restarted consumer of the same name re-reads its own pending entries at once.
        env = {"EVENT_CONSUMER_NAME": name}
    else:
        # Another consumer takes the dead one's entry over (XAUTOCLAIM) once it is idle long enough.
        env = {"EVENT_CONSUMER_NAME": f"rating-{uuid.uuid4().hex[:6]}", "EVENT_CLAIM_IDLE_MS": "1000"}
    with _rating(infra, log_dir, **env):
        _wait(lambda: _counts(infra, event_id) == (1, 1), 20, "the event to be applied after the restart")
        _wait(lambda: entries[0] not in _pending_ids(infra), 10, "the entry to be acknowledged")
        # A duration: a further claim round must not apply it again, and a claim round that finds
        # nothing (the entry is acknowledged) leaves no log line or Redis change to wait for.
        time.sleep(1.5)
        assert _counts(infra, event_id) == (1, 1)


def test_the_same_event_delivered_twice_is_applied_once(infra, log_dir, game_service) -> None:
    with _rating(infra, log_dir, EVENT_CONSUMER_NAME=f"rating-{uuid.uuid4().hex[:6]}"):
        event_id = _finish_game(infra, "g-twice")
        _wait(lambda: _counts(infra, event_id) == (1, 1), 20, "the first delivery")
        # The relay crashed after XADD but before marking the row dispatched: it publishes again.
        with _db(infra) as conn:
            conn.execute("UPDATE outbox SET dispatched_at = NULL WHERE event_id = %s", (event_id,))
        _wait(lambda: len(_entries_of(infra, event_id)) == 2, 10, "the relay to publish the row again")
        # And a third copy straight onto the stream, as any at-least-once hop may produce.
        first = _redis(infra).xrange(outbox.EVENT_STREAM, min=_entries_of(infra, event_id)[0], count=1)[0][1]
        third = _redis(infra).xadd(outbox.EVENT_STREAM, first)
        _wait(lambda: not (set(_entries_of(infra, event_id)) & _pending_ids(infra)) and third not in _pending_ids(infra)
              and _acked_through(infra, third), 10, "every copy to be acknowledged")
        assert _counts(infra, event_id) == (1, 1)
        assert json.loads(first["payload"])["game_id"] == "g-twice"


def _acked_through(infra: Infra, entry_id: str) -> bool:
    """True once the group has read past ``entry_id`` (delivered) and it is no longer pending."""
    groups = {g["name"]: g for g in _redis(infra).xinfo_groups(outbox.EVENT_STREAM)}
    last = groups[GROUP]["last-delivered-id"]
    return _stream_order(last) >= _stream_order(entry_id) and entry_id not in _pending_ids(infra)


def _stream_order(entry_id: str) -> tuple[int, int]:
    millis, seq = entry_id.split("-")
    return int(millis), int(seq)


def test_relay_prunes_old_dispatched_rows_only(infra) -> None:
    from shared.db import make_pool

    with _db(infra) as conn:
        old_sent, old_unsent, fresh_sent = (
            conn.execute(
                "INSERT INTO outbox (type, payload, created_at, dispatched_at) VALUES ('test_prune', '{}', %s, %s)"
                " RETURNING event_id::text AS id",
                (created, dispatched),
            ).fetchone()["id"]
            for created, dispatched in (
                ("2026-01-01", "2026-01-01"),
                ("2026-01-01", None),
                ("now", "now"),
            )
        )
    pool = make_pool(infra.database_url, max_size=1)
    try:
        assert outbox.prune_dispatched(pool, older_than_days=7) >= 1
    finally:
        pool.close()
    with _db(infra) as conn:
        left = {r["id"] for r in conn.execute("SELECT event_id::text AS id FROM outbox WHERE type = 'test_prune'")}
        conn.execute("DELETE FROM outbox WHERE type = 'test_prune'")  # the undispatched one would reach the stream
    assert left == {old_unsent, fresh_sent}


@pytest.mark.slow
def test_many_events_survive_repeated_consumer_crashes_exactly_once(infra, log_dir, game_service) -> None:
    """`make proof`: 300 events while the rating service is SIGKILLed at arbitrary moments, 6 times."""
    import random

    rng = random.Random(20261130)
    name = f"rating-chaos-{uuid.uuid4().hex[:6]}"
    with psycopg.connect(infra.database_url, row_factory=dict_row) as conn, conn.transaction():
        ids = [outbox.record(conn, "game_finished", {"game_id": f"chaos-{i}", "game": "bullet"}) for i in range(300)]
    for _ in range(6):
        service = _rating(infra, log_dir, EVENT_CONSUMER_NAME=name).start()
        time.sleep(rng.uniform(0.05, 0.8))
        service.kill()
    with _rating(infra, log_dir, EVENT_CONSUMER_NAME=name):
        def all_applied() -> bool:
            with _db(infra) as conn:
                return conn.execute("SELECT count(*) AS n FROM rating_finished_games WHERE event_id = ANY(%s::uuid[])",
                                    (ids,)).fetchone()["n"] == len(ids)

        _wait(all_applied, 60, "every event to be applied")
        _wait(lambda: not _pending_ids(infra), 20, "nothing left pending")
    with _db(infra) as conn:
        per_event = conn.execute(
            "SELECT (SELECT count(*) FROM processed_events p WHERE p.consumer = %s AND p.event_id = e) AS processed,"
            "       (SELECT count(*) FROM rating_finished_games r WHERE r.event_id = e) AS applied"
            " FROM unnest(%s::uuid[]) AS e",
            (GROUP, ids),
        ).fetchall()
    assert {(row["processed"], row["applied"]) for row in per_event} == {(1, 1)}
