"""/healthz tells the truth about the backing stores; ``python -m shared.migrate`` is idempotent."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import requests

from tests.stack import ROOT, ServiceProcess, start_infra


@pytest.fixture
def own_infra(tmp_path):  # noqa: ANN001, ANN201
    """PostgreSQL and Redis of this test alone, because the test stops Redis."""
    with start_infra(tmp_path / "infra") as infra:
        yield infra


@pytest.mark.parametrize("module,port_env", [("services.game", "GAME_PORT"), ("services.rating", "RATING_PORT")])
def test_healthz_is_503_while_redis_is_down(own_infra, tmp_path, module, port_env) -> None:
    with ServiceProcess(module, own_infra, port_env, tmp_path / "logs") as service:
        healthy = requests.get(service.url + "/healthz", timeout=5)
        assert healthy.status_code == 200 and healthy.json()["checks"]["redis"] is True
        metrics = requests.get(service.url + "/metrics", timeout=5)
        assert metrics.status_code == 200 and "python_gc_objects_collected_total" in metrics.text

        own_infra.stop_redis()
        down = requests.get(service.url + "/healthz", timeout=15)
        assert down.status_code == 503
        assert down.json()["checks"]["redis"] is False
        assert down.json()["checks"]["postgres"] is True
        assert service.process.poll() is None  # degraded, not dead


def _migrate(database_url: str) -> dict:
    env = {"DATABASE_URL": database_url, "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "shared.migrate"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_migrate_command_applies_everything_once(tmp_path) -> None:
    from services.embedded import start_postgres

    pg = start_postgres(tmp_path / "pg", database="migrate_check")
    try:
        first = _migrate(pg.url)
        assert "0001_platform.sql" in first["applied"]
        assert first["applied"] == sorted(first["applied"])
        assert _migrate(pg.url) == {"applied": []}
    finally:
        pg.stop()
