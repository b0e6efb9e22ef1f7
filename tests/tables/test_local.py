"""Local tables: two on one device, and against the computer through a real Celery worker."""

from __future__ import annotations

import pytest
import requests

from tests.stack import CeleryWorker, ServiceProcess
from tests.table_client import TableClient, legal_texts, load, players


def new_local(client: TableClient, **settings: object) -> dict:
    payload = {"options": {}, **settings}
    known = set(client.states)
    client.emit("table:new_local", payload)
    while not set(client.states) - known:
        client.quiet(0.2)
    return client.states[(set(client.states) - known).pop()]


def test_same_device_both_seats_one_person_with_undo(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    (a,) = players(pool, 1)
    client = TableClient(game_service.url, a).connect()
    try:
        state = new_local(client, game="bullet", mode="same_device", clock={"base_ms": 60_000, "inc_ms": 0})
        game_id = state["game_id"]
        assert state["mode"] == "same_device" and state["rated"] is False and state["stake"] == 0
        assert [s["user_id"] for s in state["seats"]] == [a.id, a.id] and state["you"] == 0
        assert state["clocks"]["running"] == 0
        for ply in range(3):
            state = client.state(game_id, lambda s, v=ply: s["version"] == v)
            assert state["you"] == ply % 2  # the screen shows the side to move
            client.emit("table:move", {"game_id": game_id, "version": ply, "move": legal_texts(state)[0]})
        state = client.state(game_id, lambda s: s["version"] == 3)
        client.emit("table:undo", {"game_id": game_id})
        state = client.state(game_id, lambda s: s["version"] == 4)
        assert len(state["moves"]) == 2 and state["you"] == 0
        assert load(pool, game_id).moves == state["moves"]
        # ↶ Zurück at a local table needs nobody's consent.
        client.emit("table:takeback", {"game_id": game_id, "action": "offer"})
        state = client.state(game_id, lambda s: s["version"] == 5)
        assert len(state["moves"]) == 1 and state["offers"]["takeback"] is None
        client.emit("table:draw", {"game_id": game_id, "action": "offer"})
        assert client.error()["code"] == "draw_not_here"
        client.emit("table:new_local", {"game": "hexagon", "mode": "same_device", "options": {"map": "nirgendwo"}})
        assert client.error()["code"] == "bad_options"
        client.emit("table:new_local", {"game": "hexagon", "mode": "same_device", "options": {}, "strength": "stark"})
        assert client.error()["code"] == "bad_local_table"
        # Local games are never in the live list.
        live = requests.get(f"{game_service.url}/api/games/live", timeout=10).json()["games"]
        assert game_id not in [g["game_id"] for g in live]
    finally:
        client.close()


@pytest.mark.parametrize("game", ["hexagon", "bullet"])
def test_against_the_computer_with_undo(game_service: ServiceProcess, ai_worker: CeleryWorker, pool,  # noqa: ANN001
                                        game: str) -> None:
    (a,) = players(pool, 1)
    client = TableClient(game_service.url, a).connect()
    try:
        # The computer takes the first colour, so it begins.
        state = new_local(client, game=game, mode="computer", strength="leicht", seat=1)
        game_id = state["game_id"]
        assert state["you"] == 1 and state["seats"][0]["computer"] == "leicht"
        assert state["clocks"]["running"] is None and state["clocks"]["remaining_ms"] == []
        state = client.state(game_id, lambda s: len(s["moves"]) == 1, timeout=30)
        for _ in range(3):
            plies = len(state["moves"])
            client.emit("table:move", {"game_id": game_id, "version": state["version"],
                                       "move": legal_texts(state)[0]})
            state = client.state(game_id, lambda s, p=plies: len(s["moves"]) == p + 2, timeout=30)
        assert state["status"] == "running" and len(state["moves"]) == 7
        # A move while the computer thinks is refused.
        client.emit("table:move", {"game_id": game_id, "version": state["version"], "move": legal_texts(state)[0]})
        client.emit("table:move", {"game_id": game_id, "version": state["version"] + 1,
                                   "move": legal_texts(state)[0]})
        assert client.error(timeout=30)["code"] in ("computer_thinking", "stale_version")
        client.state(game_id, lambda s: len(s["moves"]) == 9, timeout=30)
        client.emit("table:undo", {"game_id": game_id})
        state = client.state(game_id, lambda s: len(s["moves"]) == 7, timeout=10)
        client.quiet(2.0)  # the computer does not answer a position that is the human's to move
        assert len(client.states[game_id]["moves"]) == 7 and load(pool, game_id).moves == state["moves"]
        client.emit("table:resign", {"game_id": game_id})
        final = client.state(game_id, lambda s: s["status"] == "finished")
        assert final["result"]["winner"] == 0
    finally:
        client.close()
