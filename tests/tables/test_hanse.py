"""Battlehanse at the real game service: the round pause, and hidden means hidden.

Two python-socketio clients play random legal moves to the end of a match while every
``table:state`` each of them receives is kept; one of them reconnects on the way.  No
message may hold the deck order, a card of the opponent's hand that is not a gemerkte
Karte, or the value of a Ratsmarke before its round ends.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

from services.game.rules.round_pause import COUNTDOWN_MS
from shared.games import get_game
from tests.stack import ServiceProcess
from tests.table_client import TableClient, legal_texts, load, my_turn, new_game, players, stored_when

PAUSE_WAIT_S = COUNTDOWN_MS["wartesaal"] / 1000 + 15


class RecordingClient(TableClient):
    """A table client that keeps every ``table:state`` it receives, in order."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.received: list[dict[str, Any]] = []

    def _pump(self, timeout: float) -> None:
        name, data = self.probe.events.get(timeout=timeout)
        if name == "table:state":
            self.received.append(data)
            known = self.states.get(data["game_id"])
            if known is None or data["version"] >= known["version"]:
                self.states[data["game_id"]] = data
        elif name == "error":
            self.errors.append(data)


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def assert_hidden_kept(message: dict[str, Any]) -> None:
    """What a running table's message to a seat must not hold."""
    view = message["view"]
    you = message["you"]
    if message["status"] != "running":
        return
    assert view["hidden"] is None and "deck" not in set(_keys(view)), "deck order leaked"
    for player in view["players"]:
        if player["seat"] != you:
            assert player["hand"] is None, "the opponent's hand leaked"
            if view["phase"] == "spiel":
                assert player["rats"] is None, "an opponent's Ratsmarke value leaked"
    for move in view["moves"]:
        if move["seat"] != you and move["round"] == view["round"] and view["phase"] == "spiel":
            assert move["rats"] is None, "a Ratsmarke value leaked through the move list"
    if you is not None and view["phase"] == "spiel" and view["turn"] != you:
        assert view["legal_moves"] == [], "the opponent's legal moves leaked"


def assert_opponent_hand_unseen(message: dict[str, Any], true_hand: list[str], known: list[str]) -> None:
    """The opponent's hidden cards appear nowhere except as the gemerkte Karten."""
    opponent = next(p for p in message["view"]["players"] if p["seat"] != message["you"])
    assert sorted(opponent["known"]) == sorted(known)
    assert len(true_hand) == opponent["hand_count"]
    text = json.dumps(opponent)
    assert '"card"' not in text


def wait_all(clients: list[TableClient], game_id: int, version: int, timeout: float = 15) -> list[dict]:
    return [c.state(game_id, lambda s, v=version: s["version"] >= v, timeout=timeout) for c in clients]


def play_match(url: str, game_id: int, clients: list[RecordingClient], rng: random.Random,
               reconnect_at: int) -> tuple[dict, list[RecordingClient], int]:
    """Random legal moves to the end; seat 1 reconnects after ``reconnect_at`` moves.  Returns the
    final state, the clients (with the new seat-1 client) and how many pauses were seen."""
    recorded = list(clients)
    pauses = 0
    for ply in range(2000):
        version = max(c.state(game_id)["version"] for c in clients)
        states = wait_all(clients, game_id, version)
        if states[0]["status"] != "running":
            return states[0], recorded, pauses
        if ply == reconnect_at:
            clients[1].close()
            fresh = RecordingClient(url, clients[1].account).connect()
            fresh.join(game_id)
            clients = [clients[0], fresh]
            recorded.append(fresh)
            continue
        view = states[0]["view"]
        if view["phase"] == "pause":
            pauses += 1
            for s in states:
                assert s["clocks"]["running"] is None and s["clocks"]["pause_until_ms"] is not None
                assert s["clocks"]["pause_until_ms"] > s["clocks"]["server_now_ms"] - 1000
            # In the Wartesaal only the countdown ends the pause.
            clients[0].emit("table:move", {"game_id": game_id, "version": version, "move": "weiter"})
            assert clients[0].error()["code"] == "round_pause_countdown"
            started = time.monotonic()
            after = wait_all(clients, game_id, version + 1, timeout=PAUSE_WAIT_S)
            assert time.monotonic() - started >= COUNTDOWN_MS["wartesaal"] / 1000 - 3
            assert after[0]["view"]["phase"] in ("spiel", "ende") or after[0]["status"] != "running"
            if after[0]["status"] == "running":
                # The loser of the round (or, on a tie, the same player) begins; a clock runs again.
                rounds = after[0]["view"]["rounds"]
                assert after[0]["view"]["round"] == len(rounds) + 1
                last = rounds[-1]
                loser = last["starter"] if last["seal"] is None else 1 - last["seal"]
                assert after[0]["view"]["turn"] == after[0]["view"]["starter"] == loser
                assert after[0]["clocks"]["running"] == after[0]["view"]["turn"]
            continue
        mover_index = next(i for i, s in enumerate(states) if my_turn(s))
        mover = clients[mover_index]
        state = mover.states[game_id]
        opponent_view = states[1 - mover_index]
        # The mover's true hand (it sees it) never reaches the other side beyond its gemerkte Karten.
        mover_player = state["view"]["players"][state["you"]]
        assert_opponent_hand_unseen(opponent_view, [c["card"] for c in mover_player["hand"]],
                                    [c["card"] for c in mover_player["hand"] if c["known"]])
        mover.emit("table:move", {"game_id": game_id, "version": state["version"],
                                  "move": rng.choice(legal_texts(state))})
        wait_all(clients, game_id, state["version"] + 1)
    raise AssertionError("match did not end")


def test_wartesaal_match_pauses_with_countdown_and_hides_everything(
        game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    a, b, watcher = players(pool, 3)
    game_id = new_game(pool, "hanse", (a.id, b.id), clock={"base_ms": 600_000, "inc_ms": 5000},
                       options={"seals_to_win": 2}, seed=11)
    clients = [RecordingClient(game_service.url, a).connect(), RecordingClient(game_service.url, b).connect()]
    spectator = RecordingClient(game_service.url, watcher).connect()
    recorded = [*clients, spectator]
    try:
        for seat, c in enumerate(clients):
            assert c.join(game_id)["you"] == seat
        assert spectator.join(game_id)["you"] is None
        final, recorded, pauses = play_match(game_service.url, game_id, clients, random.Random(3), reconnect_at=9)
        spectator.quiet(1.0)
        recorded.append(spectator)
        assert any(m["view"]["phase"] == "pause" for m in spectator.received)
        assert final["status"] == "finished" and final["result"]["reason"] == "ratssiegel"
        assert pauses >= 1
        row = load(pool, game_id)
        assert row.moves.count("weiter") == pauses and row.move_seats[row.moves.index("weiter")] is None
        messages = [m for c in recorded for m in c.received if m["game_id"] == game_id]
        assert len(messages) > 50
        for message in messages:
            assert_hidden_kept(message)
        # The checks met what they guard: the opponent's Ratsmarken while their round ran.
        assert any(m["seat"] != message["you"] and m["ratsmarke"] is not None and m["round"] == message["view"]["round"]
                   for message in messages if message["view"]["phase"] == "spiel" for m in message["view"]["moves"])
        # After the end everything is open, the deck included.
        assert final["view"]["hidden"] is not None
    finally:
        for c in recorded:
            c.close()


def test_local_table_pause_waits_for_weiter(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    (a,) = players(pool, 1)
    game_id = new_game(pool, "hanse", (a.id, a.id), options={"seals_to_win": 2}, seed=11, mode="same_device")
    client = RecordingClient(game_service.url, a).connect()
    rng = random.Random(3)
    try:
        state = client.join(game_id)
        while state["view"]["phase"] == "spiel":
            client.emit("table:move", {"game_id": game_id, "version": state["version"],
                                       "move": rng.choice(legal_texts(state))})
            state = client.state(game_id, lambda s, v=state["version"]: s["version"] > v)
        assert state["view"]["phase"] == "pause" and state["clocks"]["pause_until_ms"] is None
        table = state["view"]["rounds"][-1]
        client.quiet(2.0)  # nothing ends the pause by itself
        assert client.states[game_id]["version"] == state["version"]
        assert [m["text"] for m in state["view"]["legal_moves"]] == ["weiter"]
        client.emit("table:move", {"game_id": game_id, "version": state["version"], "move": "weiter"})
        nxt = client.state(game_id, lambda s, v=state["version"]: s["version"] > v)
        assert nxt["view"]["phase"] == "spiel" and nxt["view"]["round"] == 2 and nxt["view"]["rounds"][0] == table
        row = stored_when(pool, game_id, lambda r: r.version == nxt["version"])
        assert row.moves[-1] == "weiter" and row.move_seats[-1] == 0
        # The engine's own reading of who begins holds at the table.
        engine = get_game("hanse")
        replayed = engine.new_game({"seals_to_win": 2}, 11)
        for text, seat in zip(row.moves, row.move_seats, strict=True):
            replayed = engine.apply(replayed, text, seat)
        assert engine.view(replayed, 0)["turn"] == nxt["view"]["turn"]
    finally:
        client.close()
