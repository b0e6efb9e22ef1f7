"""Shared fixtures: the real infrastructure, started once per test process (each parallel worker has its own)."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from psycopg_pool import ConnectionPool

from services.embedded import PORT_BLOCK_ENV
from shared import db

# Shared by every module of a test process: fixtures imported here are set up once per process,
# while one imported into a test module would be set up again for each module that imports it.
from tests.browser_fixtures import browser, playwright_driver, services  # noqa: F401
from tests.lobby_fixtures import lobby, second_lobby  # noqa: F401
from tests.stack import CeleryWorker, Infra, ServiceProcess, start_infra

_PRIVATE_BASETEMP: Path | None = None
_BASETEMP_PREFIX = "spielcenter-pytest-"
_KEEP_FAILED_BASETEMP_S = 12 * 3600


_PORT_BLOCK_FIRST = 10_000  # below the kernel's ephemeral ports (32768 and up)
_PORT_BLOCK_SIZE = 1_500
_PORT_BLOCK_LOCK: object | None = None  # held open: the block is this process's while it runs


def _claim_port_block() -> None:
    """Give this test process a block of ports no other test process on the machine draws from.

    Parallel workers, and other engineers' runs on the same machine, each lock a block's file;
    the lock goes with the process, so a killed run frees its block.
    """
    global _PORT_BLOCK_LOCK
    os.environ.pop(PORT_BLOCK_ENV, None)  # a worker's own block, not the one its controller holds
    for index in range((32_768 - _PORT_BLOCK_FIRST) // _PORT_BLOCK_SIZE):
        lock = open(Path(tempfile.gettempdir()) / f"spielcenter-test-ports-{index}.lock", "w")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            continue
        first = _PORT_BLOCK_FIRST + index * _PORT_BLOCK_SIZE
        os.environ[PORT_BLOCK_ENV] = f"{first}-{first + _PORT_BLOCK_SIZE - 1}"
        _PORT_BLOCK_LOCK = lock
        return
    # Every block taken: fall back to the kernel's choice.


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Give every test session a temporary root of its own, and every test process its ports.

    Several engineers' test runs share this machine and /tmp/pytest-of-<user>; a data
    directory of a running session's embedded PostgreSQL vanished there mid-run.  A
    private root (kept when tests fail, like pytest's default) cannot be touched by
    another session.  An explicit --basetemp still wins.
    """
    if config.getoption("numprocesses", None) and (os.environ.get("DATABASE_URL") or os.environ.get("REDIS_URL")):
        # Embedded servers are per test process; given ones would be shared by all of them.
        raise pytest.UsageError("DATABASE_URL / REDIS_URL name servers that every test process would share: "
                                "run the suite in one process (TEST_WORKERS=0 make test, or pytest -n 0)")
    _claim_port_block()
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
    with start_infra(tmp_path_factory.mktemp("infra")) as infra:
        yield infra


@pytest.fixture(scope="session")
def log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where service subprocesses write their logs (shown when a start fails)."""
    return tmp_path_factory.mktemp("logs")


@pytest.fixture(scope="session")
def game_service(infra: Infra, log_dir: Path) -> Iterator[ServiceProcess]:
    """The real game service (``python -m services.game``) on a free port."""
    with ServiceProcess("services.game", infra, "GAME_PORT", log_dir) as service:
        yield service


@pytest.fixture(scope="module")
def ai_worker(infra: Infra, log_dir: Path) -> Iterator[CeleryWorker]:
    """A real prefork Celery worker on both queues.

    Per module, not per session: a worker left running would also take the tasks of a later
    module that kills, stops or counts its own worker's tasks (tests/ai), and which module
    comes later depends on how the parallel run deals them out.
    """
    with CeleryWorker(infra, log_dir) as worker:
        yield worker


@pytest.fixture(scope="module")
def pool(infra: Infra) -> Iterator[ConnectionPool]:
    """A test module's own connections to the database, for what its tests create, read and check directly.

    Per module: a module's tests share it, another module's run cannot close it under them.  A module
    whose tests need a pool of another kind or lifetime defines its own ``pool``, which wins there.
    """
    pool = db.make_pool(infra.database_url, max_size=3)
    yield pool
    pool.close()
