"""Helpers for the table tests (no tests here): accounts, tokens, games, a stub listener, a table client."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from psycopg_pool import ConnectionPool

from shared import accounts, auth_token, game_store
from shared.schemas.server_events import validate_server_event
from shared.schemas.table_events import GAME_SERVER_EVENTS
from tests.stack import TEST_SECRET, SocketProbe

GAME_PATH = "game/socket.io"
SECRET = TEST_SECRET


@dataclass
class StubListener:
    """A ``TableListener`` for tests that build ``Tables`` themselves: ``on_<method>`` is what the
    listener's ``<method>`` does, a field the test may replace; by default nothing is published
    and nothing is shown first."""

    on_settled: Callable[[Any], None] = lambda settled: None
    on_may_show_first: Callable[[int], bool] = lambda game_id: False
    on_shown: Callable[[Any], list[dict[str, Any]] | None] = lambda settled: None
    on_retracted: Callable[[int], None] = lambda game_id: None

    def settled(self, settled: Any) -> None:
        self.on_settled(settled)

    def may_show_first(self, game_id: int) -> bool:
        return self.on_may_show_first(game_id)

    def shown(self, settled: Any) -> list[dict[str, Any]] | None:
        return self.on_shown(settled)

    def retracted(self, tables: Any, game_id: int) -> None:
        self.on_retracted(game_id)


def players(pool: ConnectionPool, n: int = 2) -> list[accounts.Account]:
    return [accounts.create_guest(pool) for _ in range(n)]


def token(account: accounts.Account) -> str:
    return auth_token.issue(account.id, account.name, SECRET)


def new_game(pool: ConnectionPool, game: str, seats: tuple[int | None, int | None] | list[int | None], *,
             clock: dict | None = None, options: dict | None = None, rated: bool = False, stake: int = 0, seed: int = 1,
             mode: str = "wartesaal") -> int:
    """Create a game as the lobby does (``game_store.create_game`` in a transaction)."""
    with pool.connection() as conn, conn.transaction():
        return game_store.create_game(conn, game=game, options=options or {}, seed=seed, seats=seats, mode=mode,
                                      clock=clock, rated=rated, stake=stake)


def load(pool: ConnectionPool, game_id: int) -> game_store.GameRow:
    with pool.connection() as conn:
        row = game_store.load(conn, game_id)
    assert row is not None
    return row


def stored_when(pool: ConnectionPool, game_id: int, until: Callable[[game_store.GameRow], bool],
                timeout: float = 5) -> game_store.GameRow:
    """The stored row once ``until`` holds for it.

    A move seen at a table one process serves may still be on its way to PostgreSQL
    (services/game/tables/table.py: shown first): a test that reads or edits the row after
    seeing a move waits here for it, or it races the write."""
    deadline = time.monotonic() + timeout
    while not until(row := load(pool, game_id)):
        assert time.monotonic() < deadline, f"table {game_id} never stored as expected (version {row.version})"
        time.sleep(0.01)
    return row


class TableClient:
    """A real python-socketio client at the game service, keeping the latest table:state per game."""

    def __init__(self, url: str, account: accounts.Account, lang: str = "de") -> None:
        self.account = account
        self.probe = SocketProbe(url, token(account), GAME_PATH, lang=lang)
        self.states: dict[int, dict[str, Any]] = {}
        self.errors: list[dict[str, Any]] = []
        self.others: list[tuple[str, Any]] = []  # every other event, in order

    def connect(self) -> TableClient:
        self.probe.connect()
        return self

    def close(self) -> None:
        self.probe.close()

    def emit(self, event: str, data: object) -> None:
        self.probe.emit(event, data)

    def _pump(self, timeout: float) -> None:
        name, data = self.probe.events.get(timeout=timeout)
        if name == "table:state":
            validate_server_event("table:state", data)  # the server keeps to the protocol
            known = self.states.get(data["game_id"])
            if known is None or data["version"] >= known["version"]:
                self.states[data["game_id"]] = data
        elif name == "error":
            self.errors.append(data)
        else:
            if name in GAME_SERVER_EVENTS:
                validate_server_event(name, data)
            self.others.append((name, data))

    def event(self, name: str, where: Callable[[Any], bool] = lambda d: True, timeout: float = 10) -> Any:
        """The first (not yet taken) ``name`` event satisfying ``where``; taken out of :attr:`others`."""
        deadline = time.monotonic() + timeout
        while True:
            for i, (seen, data) in enumerate(self.others):
                if seen == name and where(data):
                    del self.others[i]
                    return data
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no matching {name} event")
            try:
                self._pump(remaining)
            except queue.Empty:
                continue

    def state(self, game_id: int, where: Callable[[dict], bool] = lambda s: True, timeout: float = 10) -> dict:
        """The latest table:state of ``game_id`` once it satisfies ``where``."""
        deadline = time.monotonic() + timeout
        while True:
            current = self.states.get(game_id)
            if current is not None and where(current):
                return current
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no matching table:state for {game_id}; last: {current and current['version']}")
            try:
                self._pump(remaining)
            except queue.Empty:
                continue

    def error(self, timeout: float = 10) -> dict:
        """The next error event (errors seen earlier are consumed first)."""
        deadline = time.monotonic() + timeout
        while not self.errors:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no error event")
            try:
                self._pump(remaining)
            except queue.Empty:
                continue
        return self.errors.pop(0)

    def quiet(self, seconds: float = 0.5) -> None:
        """Take in everything that arrives until nothing did for ``seconds``."""
        while True:
            try:
                self._pump(seconds)
            except queue.Empty:
                return

    def join(self, game_id: int) -> dict:
        self.emit("table:join", {"game_id": game_id})
        return self.state(game_id)


def my_turn(state: dict) -> bool:
    return state["status"] == "running" and state["you"] is not None and state["you"] in _to_move(state)


def _to_move(state: dict) -> list[int]:
    to_move = state["view"].get("to_move")
    return list(to_move) if isinstance(to_move, list) else [to_move]


def legal_texts(state: dict) -> list[str]:
    """The recipient's legal moves as its view lists them (Battlegeneral calls them "moves")."""
    view = state["view"]
    listed = view.get("legal_moves", view.get("moves", []))
    return [m["text"] for m in listed if isinstance(m, dict)]
