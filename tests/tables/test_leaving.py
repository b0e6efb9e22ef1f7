"""Leaving a running game loses it, in every game, and Live shows all four games to spectators.

The leave rule is the game service's (``services.game.presence.seat_connections``: no connection to a
table for 30 s → ``Tables.abandon``).  ``tests/tables/test_rules.py`` proves the 30 s (and that a
reload within them keeps the table) through the real service for Battlehexagon; here the same two pieces (the seat watch and the tables)
run in the test process on the real PostgreSQL and Redis with a short leave time, at the
moments where a game is not "in play": Battlegeneral's setup and Battlehanse's round pause.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest
import requests

from services.game.presence import seat_connections
from services.game.presence.seat_connections import SeatConnections
from services.game.rules.round_pause import in_round_pause
from services.game.tables.table import Tables
from shared.games import get_game
from shared.games.general.setups import STANDARD_SETUPS
from shared.table_replay import StateCache, replay
from tests.stack import Infra, ServiceProcess
from tests.table_client import StubListener, TableClient, load, new_game, players, stored_when

LEAVE_AFTER_MS = 1500


class Stop(BaseException):
    """Ends the seat watch's loop (it retries on every Exception)."""


@pytest.fixture
def watch(infra: Infra, pool, monkeypatch) -> Iterator[tuple[Tables, SeatConnections]]:  # noqa: ANN001
    """The tables and the seat watch of one game process, its loop running in a thread."""
    import redis

    # A key of its own: the session's game service must not see these seats, nor this watch its.
    monkeypatch.setattr(seat_connections, "KEY", f"tables:seen:test-leaving:{time.monotonic_ns()}")
    client = redis.Redis.from_url(infra.redis_url)
    tables = Tables(pool, StateCache(), StubListener())
    connections = SeatConnections(client, leave_after_ms=LEAVE_AFTER_MS)
    stop = threading.Event()
    failures: list[Exception] = []

    def sleep(seconds: float) -> None:
        if stop.wait(seconds):
            raise Stop

    thread = threading.Thread(target=lambda: _run(connections, tables, sleep, failures.append), daemon=True)
    thread.start()
    yield tables, connections
    stop.set()
    thread.join(timeout=10)
    client.close()
    assert not failures, failures


def _run(connections: SeatConnections, tables: Tables, sleep, failed) -> None:  # noqa: ANN001
    try:
        connections.run(tables, sleep, failed)
    except Stop:
        pass


def test_leaving_during_the_battlegeneral_setup_loses_the_game(watch, pool) -> None:  # noqa: ANN001
    tables, connections = watch
    red, blue = players(pool)
    game_id = new_game(pool, "general", (red.id, blue.id), clock=None, rated=True)
    connections.joined("sid-red", game_id, red.id)
    connections.joined("sid-blue", game_id, blue.id)
    # Blue has set up and is ready; Red is still placing (its board half empty) and closes the window.
    settled = tables.move(blue.id, game_id, 0, f"aufstellung {STANDARD_SETUPS[0]}")
    settled = tables.move(blue.id, game_id, settled.row.version, "fertig")
    assert get_game("general").view(settled.state, None)["phase"] == "setup"
    left = time.monotonic()
    connections.left("sid-red")
    row = stored_when(pool, game_id, lambda r: not r.running, timeout=20)
    assert time.monotonic() - left >= LEAVE_AFTER_MS / 1000 - 0.1
    assert row.status == "finished" and row.result["reason"] == "verlassen" and row.result["winner"] == 1
    assert row.moves == [f"aufstellung {STANDARD_SETUPS[0]}", "fertig"]  # ended where it stood


def test_leaving_during_a_battlehanse_round_pause_loses_the_game(watch, pool) -> None:  # noqa: ANN001
    tables, connections = watch
    first, second = players(pool)
    game_id = new_game(pool, "hanse", (first.id, second.id), clock={"base_ms": 600_000, "inc_ms": 5000},
                       options={"seals_to_win": 2}, seed=5)
    engine = get_game("hanse")
    rng = random.Random(5)
    settled = tables.current(game_id)
    for _ in range(400):  # random legal moves to the end of the first round
        if in_round_pause(settled.row, settled.state):
            break
        seat = engine.to_move(settled.state)[0]
        text = rng.choice(engine.legal_moves(settled.state, seat)).text
        settled = tables.move(settled.row.seats[seat], game_id, settled.row.version, text)
    else:
        raise AssertionError("the first round did not end")
    # The Rundentafel stands (both clocks still); the second player closes the window.
    connections.joined("sid-first", game_id, first.id)
    connections.joined("sid-second", game_id, second.id)
    connections.left("sid-second")
    row = stored_when(pool, game_id, lambda r: not r.running, timeout=20)
    assert row.status == "finished" and row.result["reason"] == "verlassen" and row.result["winner"] == 0
    assert len(row.moves) == len(settled.row.moves)  # the pause was not ended by a move first


def test_live_lists_all_four_games_and_spectators_see_only_the_public_view(game_service: ServiceProcess,
                                                                          pool) -> None:  # noqa: ANN001
    accounts = players(pool, 9)
    games = {}
    for i, game in enumerate(("hexagon", "bullet", "general", "hanse")):
        games[game] = new_game(pool, game, (accounts[2 * i].id, accounts[2 * i + 1].id),
                               clock={"base_ms": 300_000, "inc_ms": 3000}, seed=i + 1)
    live = requests.get(f"{game_service.url}/api/games/live", timeout=10).json()["games"]
    listed = {g["game_id"]: g for g in live}
    for game, game_id in games.items():
        assert listed[game_id]["game"] == game and listed[game_id]["status"] == "running"
        names = {s["name"] for s in listed[game_id]["seats"]}
        assert names == {accounts[2 * list(games).index(game)].name, accounts[2 * list(games).index(game) + 1].name}
    spectator = TableClient(game_service.url, accounts[8]).connect()
    try:
        for game, game_id in games.items():
            seen = spectator.join(game_id)
            row = load(pool, game_id)
            engine = get_game(game)
            state = replay(row.game, row.options, row.seed, row.moves, row.move_seats)
            assert seen["you"] is None and seen["view"] == engine.view(state, None)
            if game in ("general", "hanse"):  # hidden information: a seat sees more than a spectator
                assert engine.view(state, 0) != engine.view(state, None)
    finally:
        spectator.close()


@pytest.mark.slow
def test_through_the_game_service_leaving_loses_after_30_seconds_in_setup_and_pause(game_service: ServiceProcess,
                                                                                    pool) -> None:  # noqa: ANN001
    red, blue, first, second = players(pool, 4)
    general = new_game(pool, "general", (red.id, blue.id), clock=None, rated=True)
    hanse = new_game(pool, "hanse", (first.id, second.id), clock={"base_ms": 600_000, "inc_ms": 5000},
                     options={"seals_to_win": 2}, seed=5)
    # Battlehanse to its first Rundentafel, played in this process before the service sees the table.
    tables, engine, rng = Tables(pool, StateCache(), StubListener()), get_game("hanse"), random.Random(5)
    settled = tables.current(hanse)
    while not in_round_pause(settled.row, settled.state):
        seat = engine.to_move(settled.state)[0]
        text = rng.choice(engine.legal_moves(settled.state, seat)).text
        settled = tables.move(settled.row.seats[seat], hanse, settled.row.version, text)
    clients = {who.id: TableClient(game_service.url, who).connect() for who in (red, blue, first, second)}
    try:
        for who, game_id in ((red, general), (blue, general), (first, hanse), (second, hanse)):
            clients[who.id].join(game_id)
        clients[blue.id].emit("table:move", {"game_id": general, "version": 0,
                                             "move": f"aufstellung {STANDARD_SETUPS[0]}"})
        clients[blue.id].state(general, lambda s: s["version"] == 1)
        # Red, still setting up, and the second Battlehanse player during the pause close their windows.
        clients[red.id].close()
        clients[second.id].close()
        left = time.monotonic()
        ended_general = clients[blue.id].state(general, lambda s: s["status"] == "finished", timeout=50)
        ended_hanse = clients[first.id].state(hanse, lambda s: s["status"] == "finished", timeout=50)
        assert 28 <= time.monotonic() - left <= 50
        assert ended_general["result"]["reason"] == "verlassen" and ended_general["result"]["winner"] == 1
        assert ended_hanse["result"]["reason"] == "verlassen" and ended_hanse["result"]["winner"] == 0
    finally:
        for client in clients.values():
            client.close()
