"""Fixtures and helpers for lobby tests: real lobby processes, HTTP sessions, real Socket.IO clients.

``lobby`` and ``second_lobby`` are shared by every module of a test process (``tests/conftest.py``
imports them); import the helpers and the function fixtures you use into a test module.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
import requests
import socketio

from tests.stack import Infra, ServiceProcess

SESSION_COOKIE = "sc_session"
# Short, so a killed lobby's users leave the list within seconds in tests.
PRESENCE_TTL = "2"


def start_lobby(infra: Infra, log_dir: Path) -> ServiceProcess:
    return ServiceProcess("services.lobby", infra, "LOBBY_PORT", log_dir, PRESENCE_TTL_SECONDS=PRESENCE_TTL).start()


@pytest.fixture(scope="session")
def lobby(infra: Infra, log_dir: Path) -> Iterator[ServiceProcess]:
    """One lobby process for the whole session."""
    service = start_lobby(infra, log_dir)
    yield service
    service.stop()


@pytest.fixture(scope="session")
def second_lobby(infra: Infra, log_dir: Path, lobby: ServiceProcess) -> Iterator[ServiceProcess]:
    """Another lobby process on the same PostgreSQL and Redis."""
    service = start_lobby(infra, log_dir)
    yield service
    service.stop()


@pytest.fixture
def redis_client(infra: Infra) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(infra.redis_url)
    yield client
    client.close()


def registered(base_url: str, lang: str = "de", password: str = "richtig-12345") -> requests.Session:
    """An HTTP session signed in as a freshly registered account (with its start Taler; guests hold none)."""
    session = requests.Session()
    session.headers["X-Lang"] = lang
    name = f"konto{uuid.uuid4().hex[:10]}"
    response = session.post(f"{base_url}/api/register", json={"name": name, "password": password}, timeout=30)
    response.raise_for_status()
    session.user = response.json()["user"]  # type: ignore[attr-defined]
    return session


def guest(base_url: str, lang: str = "de") -> requests.Session:
    """An HTTP session signed in as a fresh guest."""
    session = requests.Session()
    session.headers["X-Lang"] = lang
    response = session.post(f"{base_url}/api/guest", timeout=10)
    response.raise_for_status()
    session.user = response.json()["user"]  # type: ignore[attr-defined]
    return session


class WartesaalClient:
    """A real python-socketio client that records every event it receives."""

    def __init__(self, base_url: str, session: requests.Session, lang: str = "de") -> None:
        self.events: list[tuple[str, object]] = []
        self._changed = threading.Condition()
        self.sio = socketio.Client(reconnection=False)

        @self.sio.on("*")
        def record(event: str, *args: object) -> None:
            with self._changed:
                self.events.append((event, args[0] if len(args) == 1 else args))
                self._changed.notify_all()

        cookie = session.cookies.get(SESSION_COOKIE)
        headers = {"Cookie": f"{SESSION_COOKIE}={cookie}"} if cookie else {}
        self.sio.connect(base_url, headers=headers, auth={"lang": lang}, transports=["websocket"], wait_timeout=10)

    def wait_for(self, event: str, predicate: Callable[[object], bool] = lambda _p: True, timeout: float = 10) -> object:
        """The first recorded ``event`` whose payload satisfies ``predicate`` (waiting for it)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for name, payload in self.events:
                    if name == event and predicate(payload):
                        return payload
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {event!r} matching within {timeout} s; got {self.events[-10:]}")
                self._changed.wait(left)

    def received(self, event: str) -> list[object]:
        with self._changed:
            return [payload for name, payload in self.events if name == event]

    def latest_players(self) -> list[dict]:
        """The newest player list by version (snapshots from two processes may arrive out of order)."""
        snapshots = self.received("players")
        return max(snapshots, key=lambda s: s["version"])["players"] if snapshots else []

    def wait_players(self, predicate: Callable[[list[dict]], bool], timeout: float = 10) -> list[dict]:
        deadline = time.monotonic() + timeout
        while True:
            players = self.latest_players()
            if predicate(players):
                return players
            if time.monotonic() > deadline:
                raise AssertionError(f"player list never matched; last: {players}")
            time.sleep(0.05)

    def emit(self, event: str, *args: object) -> None:
        self.sio.emit(event, args[0] if len(args) == 1 else args if args else None)

    def close(self) -> None:
        if self.sio.connected:
            self.sio.disconnect()


def names(players: list[dict]) -> set[str]:
    return {p["name"] for p in players}
