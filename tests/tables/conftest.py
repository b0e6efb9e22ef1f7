"""Fixtures of the table tests that run more than one game process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.nginx_router import NginxRouter
from services.embedded import free_port
from tests.stack import Infra, ServiceProcess


@pytest.fixture
def cluster(infra: Infra, log_dir: Path, tmp_path: Path) -> Iterator[tuple[NginxRouter, list[ServiceProcess]]]:
    """Two game processes and nginx routing to them as the deploy does."""
    games = [ServiceProcess("services.game", infra, "GAME_PORT", log_dir) for _ in range(2)]
    router = None
    try:
        for game in games:
            game.start()
        urls = [game.url for game in games]
        router = NginxRouter(free_port(), urls[:1], urls, tmp_path / "nginx").start()
        yield router, games
    finally:
        if router is not None:
            router.stop()
        for game in games:
            game.stop()
