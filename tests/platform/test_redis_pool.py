"""shared.redis_pool against the real Redis: more callers at once than connections, none fails."""

from __future__ import annotations

import threading

import redis

from shared.redis_pool import CONNECTIONS, shared_client
from tests.stack import Infra

CALLERS = 150  # more than redis-py's default pool (100) and than ours


def _failures_of_concurrent_calls(client: redis.Redis) -> list[Exception]:
    """CALLERS threads each hold a connection for 0.3 s (a BLPOP that times out)."""
    failures: list[Exception] = []
    start = threading.Barrier(CALLERS)

    def call() -> None:
        start.wait()
        try:
            client.blpop(["redis-pool-test:nothing"], timeout=0.3)
        except redis.RedisError as exc:
            failures.append(exc)

    threads = [threading.Thread(target=call) for _ in range(CALLERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return failures


def test_the_default_pool_fails_callers_beyond_its_connections(infra: Infra) -> None:
    """What the shared client avoids: redis-py's default pool refuses the 101st caller."""
    failures = _failures_of_concurrent_calls(redis.Redis.from_url(infra.redis_url))
    assert failures and all("Too many connections" in str(exc) for exc in failures)


def test_the_shared_client_makes_callers_wait_for_a_connection(infra: Infra) -> None:
    client = shared_client(infra.redis_url)
    assert _failures_of_concurrent_calls(client) == []
    assert client.connection_pool.max_connections == CONNECTIONS < CALLERS
