"""Shared fixtures: the real infrastructure, started once per test session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.stack import CeleryWorker, Infra, ServiceProcess, start_infra


@pytest.fixture(scope="session")
def infra(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Infra]:
    """Embedded (or env-given) PostgreSQL and Redis with all migrations applied."""
    tmp = tmp_path_factory.mktemp("infra")
    infra = start_infra(tmp)
    yield infra
    infra.stop()


@pytest.fixture(scope="session")
def log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where service subprocesses write their logs (shown when a start fails)."""
    return tmp_path_factory.mktemp("logs")


@pytest.fixture(scope="session")
def game_service(infra: Infra, log_dir: Path) -> Iterator[ServiceProcess]:
    """The real game service (``python -m services.game``) on a free port."""
    with ServiceProcess("services.game", infra, "GAME_PORT", log_dir) as service:
        yield service


@pytest.fixture(scope="session")
def ai_worker(infra: Infra, log_dir: Path) -> Iterator[CeleryWorker]:
    """A real prefork Celery worker on both queues."""
    with CeleryWorker(infra, log_dir) as worker:
        yield worker
