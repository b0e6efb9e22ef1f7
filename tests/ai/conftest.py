"""Fixtures of the AI task tests: a Redis client, a Celery sender, workers per queue."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from shared.ai_protocol import celery_sender, new_request
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


@pytest.fixture(scope="session")
def interactive_worker(infra: Infra, log_dir: Path) -> Iterator[CeleryWorker]:
    """One prefork child on ``interactive`` only: moves and hints."""
    with CeleryWorker(infra, log_dir, queues="interactive", concurrency=1) as worker:
        warm_up(redis_client_for(infra), sender_app(infra.redis_url))
        yield worker


def redis_client_for(infra: Infra) -> redis.Redis:
    return redis.Redis.from_url(infra.redis_url, decode_responses=True)


def warm_up(client: redis.Redis, app) -> None:  # noqa: ANN001
    """Wait until the worker's child finished its warm-up (JIT) and answers a move."""
    from shared.games import get_game

    game = get_game("hexagon")
    state = game.new_game(game.default_options(), 1)
    driver = MatchDriver(client, celery_sender(app))
    from tests.ai.remote_match import MatchResult

    request = new_request("move", "hexagon", "warm-up", 0, 0, game.view(state, 0), "leicht", 120.0)
    driver.requester.request(request)
    driver.wait_answer("warm-up", 0, 0, 120.0, 180.0, MatchResult("hexagon", {}, 1, ("leicht", "leicht")))


@pytest.fixture
def driver(redis_client: redis.Redis, celery_sender_app) -> MatchDriver:  # noqa: ANN001
    return MatchDriver(redis_client, celery_sender(celery_sender_app))
