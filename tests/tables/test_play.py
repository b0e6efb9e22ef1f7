"""Two real clients play complete games through the real game service."""

from __future__ import annotations

import random

import pytest
import requests

from shared.games import get_game
from tests.stack import ServiceProcess
from tests.table_client import TableClient, legal_texts, load, my_turn, new_game, players


def play_out(game_id: int, clients: list[TableClient], rng: random.Random, max_plies: int = 600) -> dict:
    """Both clients move at random from their own views until the game ends; returns the final state."""
    for _ in range(max_plies):
        states = [c.state(game_id, lambda s, v=None: True) for c in clients]
        version = max(s["version"] for s in states)
        states = [c.state(game_id, lambda s, v=version: s["version"] >= v) for c in clients]
        if states[0]["status"] != "running":
            return states[0]
        mover = next(c for c, s in zip(clients, states, strict=True) if my_turn(s))
        state = mover.states[game_id]
        mover.emit("table:move", {"game_id": game_id, "version": state["version"],
                                  "move": rng.choice(legal_texts(state))})
        for c in clients:
            c.state(game_id, lambda s, v=state["version"]: s["version"] > v)
    raise AssertionError("game did not end")


@pytest.mark.parametrize(("game", "options"), [("hexagon", {}), ("bullet", {"move_limit": 100})])
def test_two_clients_play_a_complete_game(game_service: ServiceProcess, pool, game: str, options: dict) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, game, (a.id, b.id), clock={"base_ms": 600_000, "inc_ms": 5000}, options=options)
    clients = [TableClient(game_service.url, a).connect(), TableClient(game_service.url, b).connect()]
    try:
        for seat, c in enumerate(clients):
            state = c.join(game_id)
            assert state["you"] == seat and state["view"]["seat"] == seat
            assert [(s["user_id"], s["name"], s["elo"]) for s in state["seats"]] == [
                (a.id, a.name, 1500), (b.id, b.name, 1500)]
        final = play_out(game_id, clients, random.Random(5))
        assert final["status"] == "finished" and final["result"]["reason"]
        row = load(pool, game_id)
        engine = get_game(game)
        assert row.status == "finished" and row.result == final["result"]
        # The stored log replays to the same end; both saw the same final move list.
        assert final["moves"] == clients[1].states[game_id]["moves"] == row.moves
        assert len(row.move_times) == len(row.moves) and row.remaining_ms[0] > 0
        with pool.connection() as conn:
            event = conn.execute("SELECT payload FROM outbox WHERE type = 'game_finished'"
                                 " AND payload->>'game_id' = %s", (str(game_id),)).fetchall()
        assert len(event) == 1 and event[0]["payload"]["plies"] == len(row.moves)
        assert event[0]["payload"]["seats"] == [a.id, b.id] and event[0]["payload"]["mode"] == "wartesaal"
        # Replay and record over HTTP.
        replay = requests.get(f"{game_service.url}/api/games/{game_id}", timeout=10).json()
        assert replay["moves"] == engine.history(engine.parse_record(
            requests.get(f"{game_service.url}/api/games/{game_id}/record.txt", timeout=10).text))
        assert len(replay["plies"]) == len(row.moves) + 1
    finally:
        for c in clients:
            c.close()
