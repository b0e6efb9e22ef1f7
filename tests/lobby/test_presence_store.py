"""shared.presence directly against Redis: a stalled process that was swept announces itself again."""

from __future__ import annotations

import uuid

from shared import presence
from tests.lobby_fixtures import redis_client  # noqa: F401


def listed(client, user_id: int) -> int:  # noqa: ANN001
    return sum(1 for p in presence.snapshot(client)["players"] if p["user_id"] == user_id)


def test_swept_process_reannounces_its_sockets_and_late_leaves_do_not_go_negative(redis_client):  # noqa: F811
    proc = presence.ProcessPresence(redis_client, f"test-{uuid.uuid4().hex}", ttl_seconds=30)
    user_id = 900_000 + uuid.uuid4().int % 100_000
    try:
        assert proc.join(user_id, "Stau") == 1
        assert proc.join(user_id, "Stau") == 2
        version = presence.snapshot(redis_client)["version"]

        # Another process decides we are dead (our heartbeat looks ancient) and sweeps us.
        # A live lobby of this test session shares the Redis and sweeps too: it may forget us
        # between these two lines (our sweep then finds nothing), so what counts is that we are gone.
        redis_client.zadd("presence:procs", {proc.process_id: 0})
        presence.sweep(redis_client, 1)
        assert redis_client.zscore("presence:procs", proc.process_id) is None
        assert listed(redis_client, user_id) == 0
        assert presence.snapshot(redis_client)["version"] > version

        # We were only stalled: the next heartbeat puts both sockets back.
        assert proc.heartbeat() is True
        assert listed(redis_client, user_id) == 1
        assert int(redis_client.hget("presence:users", user_id)) == 2

        # A leave for a socket the store no longer knows is ignored, not counted below zero.
        redis_client.zadd("presence:procs", {proc.process_id: 0})
        presence.sweep(redis_client, 1)
        assert proc.leave(user_id) == -1
        assert redis_client.hget("presence:users", user_id) is None
    finally:
        proc.shutdown()
    assert listed(redis_client, user_id) == 0
