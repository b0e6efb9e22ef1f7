"""``REDIS_URL`` in its two forms, as each client is given it (``shared.redis_address``)."""

from __future__ import annotations

import pytest
import redis
from redis.sentinel import SentinelConnectionPool
from socketio.redis_manager import parse_redis_sentinel_url

from shared import redis_address

SENTINEL_URL = "redis+sentinel://:s%40cret@sentinel-0:26379,sentinel-1:26380/2/spielcenter"


def test_a_plain_url_is_no_sentinel_group_and_goes_to_celery_as_it_is() -> None:
    assert redis_address.sentinel_address("redis://:pw@redis:6379/0") is None
    settings = redis_address.celery_settings("redis://:pw@redis:6379/0")
    assert settings == {"broker_url": "redis://:pw@redis:6379/0", "result_backend": "redis://:pw@redis:6379/0",
                        "transport_options": {}}


def test_a_sentinel_url_names_its_sentinels_database_service_and_password() -> None:
    address = redis_address.sentinel_address(SENTINEL_URL)
    assert address == redis_address.SentinelAddress(
        (("sentinel-0", 26379), ("sentinel-1", 26380)), "spielcenter", 2, None, "s@cret")
    # python-socketio's RedisManager reads the same URL the same way.
    sentinels, service, kwargs = parse_redis_sentinel_url(SENTINEL_URL)
    assert sentinels == list(address.sentinels) and service == address.service and kwargs["db"] == address.db


def test_celery_gets_kombus_sentinel_transport_for_broker_and_results() -> None:
    settings = redis_address.celery_settings(SENTINEL_URL)
    expected = "sentinel://:s%40cret@sentinel-0:26379/2;sentinel://:s%40cret@sentinel-1:26380/2"
    assert settings["broker_url"] == settings["result_backend"] == expected
    assert settings["transport_options"] == {"master_name": "spielcenter"}


def test_redis_py_clients_ask_the_sentinels_for_the_primary() -> None:
    client = redis_address.client(SENTINEL_URL, socket_timeout=5)
    pool = client.connection_pool
    assert isinstance(pool, SentinelConnectionPool) and pool.service_name == "spielcenter"
    assert pool.connection_kwargs["db"] == 2 and pool.connection_kwargs["password"] == "s@cret"
    shared = redis_address.blocking_client(SENTINEL_URL, 7, 3.0, socket_timeout=5)
    assert isinstance(shared.connection_pool, redis.BlockingConnectionPool)
    assert isinstance(shared.connection_pool, SentinelConnectionPool) and shared.connection_pool.max_connections == 7
    plain = redis_address.blocking_client("redis://localhost:6379/0", 7, 3.0)
    assert type(plain.connection_pool) is redis.BlockingConnectionPool


@pytest.mark.parametrize("url", ["redis+sentinel://sentinel-0:26379/spielcenter",
                                 "redis+sentinel://sentinel-0/0/spielcenter",
                                 "redis+sentinel://sentinel-0:26379/0/"])
def test_an_incomplete_sentinel_url_is_refused(url: str) -> None:
    with pytest.raises(ValueError):
        redis_address.sentinel_address(url)
