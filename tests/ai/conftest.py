"""Fixtures of the AI task tests: a Redis client, a Celery sender, workers per queue."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import redis

from shared.ai_protocol import celery_sender
from tests.ai.remote_match import MatchDriver, sender_app
from tests.stack import CeleryWorker, Infra


@pytest.fixture(scope="session")
def redis_client(infra: Infra) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(infra.redis_url, decode_responses=True)
    yield client
    client.close()


@pytest.fixture(scope="session")
def celery_sender_app(infra: Infra):  # noqa: ANN201
    app = sender_app(infra.redis_url)
    yield app
    app.close()


@pytest.fixture(scope="module")
def interactive_worker(infra: Infra, log_dir: Path) -> Iterator[CeleryWorker]:
    """One prefork child on ``interactive`` only: moves and hints (per module, as ``ai_worker``)."""
    with CeleryWorker(infra, log_dir, queues="interactive", concurrency=1) as worker:
        client = redis.Redis.from_url(infra.redis_url, decode_responses=True)
        app = sender_app(infra.redis_url)
        MatchDriver(client, celery_sender(app)).warm_up()
        app.close()
        client.close()
        yield worker


@pytest.fixture
def driver(redis_client: redis.Redis, celery_sender_app) -> MatchDriver:  # noqa: ANN001
    """The game service's part: requests moves and consumes answers (its own consumer group)."""
    return MatchDriver(redis_client, celery_sender(celery_sender_app))


@pytest.fixture(scope="module")
def batch_worker(infra: Infra, log_dir: Path) -> Iterator[CeleryWorker]:
    """One prefork child on ``batch`` only: reviews and puzzle searches (per module, as ``ai_worker``)."""
    with CeleryWorker(infra, log_dir, queues="batch", concurrency=1) as worker:
        yield worker


@pytest.fixture
def db(infra: Infra) -> Iterator[psycopg.Connection]:
    """An autocommit connection to the test database, for rows a test plants or reads back."""
    with psycopg.connect(infra.database_url, autocommit=True) as conn:
        yield conn
