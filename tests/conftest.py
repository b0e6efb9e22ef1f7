"""Shared fixtures: the real infrastructure, started once per test session."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.stack import CeleryWorker, Infra, ServiceProcess, start_infra

_PRIVATE_BASETEMP: Path | None = None
_BASETEMP_PREFIX = "spielcenter-pytest-"
_KEEP_FAILED_BASETEMP_S = 12 * 3600


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Give every test session a temporary root of its own.

    Several engineers' test runs share this machine and /tmp/pytest-of-<user>; a data
    directory of a running session's embedded PostgreSQL vanished there mid-run.  A
    private root (kept when tests fail, like pytest's default) cannot be touched by
    another session.  An explicit --basetemp still wins.
    """
    global _PRIVATE_BASETEMP
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        _PRIVATE_BASETEMP = Path(tempfile.mkdtemp(prefix=_BASETEMP_PREFIX))
        config.option.basetemp = str(_PRIVATE_BASETEMP)
        _remove_old_basetemps(_PRIVATE_BASETEMP.parent)


def _remove_old_basetemps(parent: Path) -> None:
    """Roots of failed sessions are kept for their logs, but not forever: no session runs this long."""
    cutoff = time.time() - _KEEP_FAILED_BASETEMP_S
    for old in parent.glob(_BASETEMP_PREFIX + "*"):
        try:
            if old.stat().st_mtime < cutoff:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            continue


@pytest.hookimpl(trylast=True)  # after the session fixtures (PostgreSQL!) are torn down
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _PRIVATE_BASETEMP is not None and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        shutil.rmtree(_PRIVATE_BASETEMP, ignore_errors=True)


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
