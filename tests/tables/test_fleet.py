"""The game processes share their background polls (services.game.fleet): each waits its
period times the number of processes listening to the queue's base channel; against the real Redis."""

from __future__ import annotations

import random

import redis

from services.game import fleet as fleet_module
from services.game.fleet import Fleet
from tests.stack import Infra


def test_each_process_polls_as_often_as_one_process_did_divided_by_their_number(infra: Infra) -> None:
    client = redis.Redis.from_url(infra.redis_url)
    channel = f"fleet-test-{random.randrange(10**9)}"
    listeners = []
    try:
        fleet = Fleet(client, channel, random.Random(1))
        # Nobody listens yet (Redis away would read the same): a lone process polls as before.
        assert fleet.size() == 1
        assert all(0.5 <= fleet.period(2.0) / 2.0 <= 1.5 for _ in range(50))
        for _ in range(3):
            pubsub = client.pubsub()
            pubsub.subscribe(channel)
            pubsub.get_message(timeout=2)  # the subscription confirmed
            listeners.append(pubsub)
        assert fleet.size() == 1  # counted at most every RECOUNT_S
        fleet._counted_at -= fleet_module.RECOUNT_S
        assert fleet.size() == 3
        periods = [fleet.period(0.2) for _ in range(2000)]
        assert all(0.3 <= p <= 0.9 for p in periods)
        # On average the three together poll every 0.2 s, as one process alone did.
        assert abs(sum(periods) / len(periods) / 3 - 0.2) < 0.01
        assert fleet.period(0) == 0  # a pause to let others run stays a pause
    finally:
        for pubsub in listeners:
            pubsub.close()
        client.close()


def test_a_fleet_without_redis_keeps_its_last_count() -> None:
    fleet = Fleet(redis.Redis(port=1, socket_connect_timeout=0.2), "fleet-test")
    assert fleet.size() == 1
    assert 0.1 <= fleet.period(0.2) <= 0.3
