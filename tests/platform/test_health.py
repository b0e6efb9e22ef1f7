"""/readyz tells the truth about the backing stores, /livez about the process alone (a Redis outage
longer than the probes' windows must not restart anything); ``python -m shared.migrate`` is idempotent."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
import yaml

from services.embedded import start_redis
from tests.stack import ROOT, Infra, ServiceProcess, start_infra, wait_until

K8S = ROOT / "deploy" / "k8s"
SERVICES = (("services.lobby", "LOBBY_PORT", "lobby"), ("services.game", "GAME_PORT", "game"),
            ("services.rating", "RATING_PORT", "rating"))


@pytest.fixture
def own_infra(tmp_path):  # noqa: ANN001, ANN201
    """PostgreSQL and Redis of this test alone, because the test stops Redis."""
    with start_infra(tmp_path / "infra") as infra:
        yield infra


@pytest.mark.parametrize("module,port_env", [("services.game", "GAME_PORT"), ("services.rating", "RATING_PORT")])
def test_healthz_is_503_while_redis_is_down(own_infra, tmp_path, module, port_env) -> None:
    with ServiceProcess(module, own_infra, port_env, tmp_path / "logs") as service:
        healthy = requests.get(service.url + "/healthz", timeout=5)  # /readyz under its older name
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


def probe_window(name: str, probe: str) -> float:
    """Seconds of failed ``probe`` (readinessProbe, livenessProbe) before Kubernetes acts on the
    Deployment ``name`` in deploy/k8s: period × failure threshold, plus the last probe's time-out."""
    for document in yaml.safe_load_all((K8S / f"{name}.yaml").read_text()):
        if document and document["kind"] == "Deployment":
            spec = document["spec"]["template"]["spec"]["containers"][0][probe]
            return spec.get("periodSeconds", 10) * spec.get("failureThreshold", 3) + spec.get("timeoutSeconds", 1)
    raise AssertionError(f"no Deployment in {name}.yaml")


def status(url: str, timeout: float) -> int:
    try:
        return requests.get(url, timeout=timeout).status_code
    except requests.RequestException:
        return 0


def redis_outage_keeps_every_process_alive(infra: Infra, tmp_path: Path, outage_s: float) -> None:
    """Lobby, game and rating on ``infra``: Redis stopped for ``outage_s``; every /livez answer in the
    outage is 200 within the liveness probe's time-out, /readyz turns 503 within the readiness
    window, and both are 200 again once the same Redis is back on its port."""
    assert infra.redis_server is not None
    services = [ServiceProcess(module, infra, port_env, tmp_path / "logs") for module, port_env, _ in SERVICES]
    try:
        for service in services:
            service.start()
        for service in services:
            assert status(service.url + "/livez", 2) == 200 and status(service.url + "/readyz", 5) == 200
        port, data_dir = infra.redis_server.port, tmp_path / "infra" / "redis"
        infra.stop_redis()
        began = time.monotonic()
        unready_after: dict[str, float] = {}
        livez_answers = 0
        while time.monotonic() - began < outage_s:
            for service, (_, _, name) in zip(services, SERVICES, strict=True):
                live_timeout = probe_timeout(name, "livenessProbe")
                assert status(service.url + "/livez", live_timeout) == 200, f"{name} /livez failed in the outage"
                livez_answers += 1
                if name not in unready_after and status(service.url + "/readyz", 10) == 503:
                    unready_after[name] = time.monotonic() - began
                assert service.process is not None and service.process.poll() is None, f"{name} exited"
            time.sleep(0.5)
        for _, _, name in SERVICES:
            assert name in unready_after, f"{name} /readyz never said 503 in a {outage_s} s outage"
            assert unready_after[name] < probe_window(name, "readinessProbe"), (name, unready_after[name])
        assert livez_answers >= 3 * len(services)
        restarted = start_redis(data_dir, port=port)
        infra.redis_server = restarted
        infra._stoppers.append(restarted.stop)
        for service, (_, _, name) in zip(services, SERVICES, strict=True):
            wait_until(lambda s=service: status(s.url + "/readyz", 5) == 200, 30, f"{name} /readyz 200 after Redis")
            assert status(service.url + "/livez", 2) == 200
    finally:
        for service in services:
            service.stop()


def probe_timeout(name: str, probe: str) -> float:
    for document in yaml.safe_load_all((K8S / f"{name}.yaml").read_text()):
        if document and document["kind"] == "Deployment":
            return document["spec"]["template"]["spec"]["containers"][0][probe].get("timeoutSeconds", 1)
    raise AssertionError(f"no Deployment in {name}.yaml")


def test_a_redis_outage_longer_than_readiness_leaves_livez_alone(own_infra, tmp_path) -> None:
    """Short variant: an outage just past the longest readiness window of the three Deployments."""
    window = max(probe_window(name, "readinessProbe") for _, _, name in SERVICES)
    redis_outage_keeps_every_process_alive(own_infra, tmp_path, window + 2)


@pytest.mark.slow
def test_a_redis_outage_longer_than_liveness_restarts_nothing(own_infra, tmp_path) -> None:
    """``make proof``: an outage past the liveness window, after which a /healthz-based liveness
    probe would have restarted every process."""
    window = max(probe_window(name, "livenessProbe") for _, _, name in SERVICES)
    redis_outage_keeps_every_process_alive(own_infra, tmp_path, window + 5)
