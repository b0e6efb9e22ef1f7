"""Battlegeneral at the table through the real game service: simultaneous setup, the
five-minute move time, and "hidden means hidden" over complete games."""

from __future__ import annotations

import json
import queue
import random
from typing import Any

import pytest
import requests

from shared.games import get_game
from shared.games.general.board import square_name
from shared.games.general.pieces import TOKENS
from shared.games.general.setups import STANDARD_SETUPS, preset_squares
from tests.stack import ServiceProcess
from tests.table_client import TableClient, legal_texts, load, my_turn, new_game, players, stored_when

RED_ROWS, BLUE_ROWS = {1, 2, 3, 4}, {7, 8, 9, 10}


class RecordingQueue:
    """Wraps the probe's event queue: every message taken out is also kept."""

    def __init__(self, inner: queue.Queue, received: list[tuple[str, Any]]) -> None:
        self.inner = inner
        self.received = received

    def get(self, timeout: float | None = None) -> tuple[str, Any]:
        item = self.inner.get(timeout=timeout)
        self.received.append(item)
        return item

    def put(self, item: tuple[str, Any]) -> None:
        self.inner.put(item)


class RecordingClient(TableClient):
    """A table client that keeps every message it receives, whatever its kind."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.received: list[tuple[str, Any]] = []

    def connect(self) -> RecordingClient:
        super().connect()
        self.probe.events = RecordingQueue(self.probe.events, self.received)
        return self


def emit_move(client: TableClient, game_id: int, text: str, version: int | None = None) -> None:
    known = client.states[game_id]["version"] if version is None else version
    client.emit("table:move", {"game_id": game_id, "version": known, "move": text})


def own_half(seat: int) -> set[int]:
    return RED_ROWS if seat == 0 else BLUE_ROWS


def place_by_hand(client: TableClient, game_id: int, rng: random.Random) -> None:
    """Place all 40 pieces one at a time (the next available piece, on a random free square), then Fertig."""
    for _ in range(40):
        state = client.states[game_id]
        placed = len(state["view"]["setup"]["own"])
        options = [t for t in legal_texts(state) if t.startswith("setze ")
                   and t.endswith(" " + state["view"]["setup"]["next_piece"])]
        emit_move(client, game_id, rng.choice(options))
        client.state(game_id, lambda s, n=placed: len(s["view"]["setup"]["own"]) == n + 1)
    emit_move(client, game_id, "fertig")


def test_both_seats_set_up_at_once_and_stale_setup_versions_are_accepted(game_service: ServiceProcess,
                                                                        pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, "general", (a.id, b.id), clock=None)
    clients = [TableClient(game_service.url, x).connect() for x in (a, b)]
    try:
        for client in clients:
            assert client.join(game_id)["view"]["phase"] == "setup"
        # Each sends its next action at the version it saw after its own last one; the
        # other's actions came in between, so every version is stale, and none is refused.
        emit_move(clients[0], game_id, "setze a1 F", version=0)
        clients[0].state(game_id, lambda s: s["version"] == 1)
        emit_move(clients[1], game_id, "setze a10 F", version=0)
        clients[1].state(game_id, lambda s: s["version"] == 2)
        emit_move(clients[0], game_id, "setze b1 B", version=1)
        clients[0].state(game_id, lambda s: s["version"] == 3)
        emit_move(clients[1], game_id, "setze b10 B", version=2)
        for seat, client in enumerate(clients):
            own = client.state(game_id, lambda s: len(s["view"]["setup"]["own"]) == 2)["view"]["setup"]["own"]
            assert set(own) == ({"a1", "b1"} if seat == 0 else {"a10", "b10"})
        assert not [e for c in clients for e in c.errors if e["code"] == "stale_version"]
        assert stored_when(pool, game_id, lambda r: r.version >= 4).version == 4
        # A version from before one's own last action is stale: it may be a retry of it.
        emit_move(clients[0], game_id, "setze c1 B", version=1)
        assert clients[0].error()["code"] == "stale_version"
        # A reload in the middle of the setup returns to one's own placement, and only to it.
        clients[0].close()
        clients[0] = TableClient(game_service.url, a).connect()
        back = clients[0].join(game_id)
        assert back["view"]["phase"] == "setup" and set(back["view"]["setup"]["own"]) == {"a1", "b1"}
        assert back["view"]["setup"]["next_piece"] == "10"
        # A preset replaces the placement; both finish, the game begins with Red to move.
        emit_move(clients[0], game_id, f"aufstellung {STANDARD_SETUPS[0]}", version=4)
        emit_move(clients[1], game_id, f"aufstellung {STANDARD_SETUPS[3]} gespiegelt", version=4)
        for client in clients:
            client.state(game_id, lambda s: len(s["view"]["setup"]["own"]) == 40)
        emit_move(clients[0], game_id, "fertig")
        assert clients[1].state(game_id, lambda s: s["view"]["setup"]["ready"] == [True, False])
        emit_move(clients[1], game_id, "fertig")
        for client in clients:
            state = client.state(game_id, lambda s: s["view"]["phase"] == "play")
            assert state["view"]["to_move"] == [0]
        # A stale version in play is refused again.
        emit_move(clients[1], game_id, "a7-a6", version=0)
        assert clients[1].error()["code"] == "stale_version"
    finally:
        for client in clients:
            client.close()


def _own_squares(name: str, seat: int, mirrored: bool) -> dict[str, str]:
    return {square_name(sq): TOKENS[rank] for sq, rank in preset_squares(name, seat, mirrored).items()}


def test_a_retried_setup_action_applies_once_and_never_refuses_the_other_seat(game_service: ServiceProcess,
                                                                               pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, "general", (a.id, b.id), clock=None)
    clients = [TableClient(game_service.url, x).connect() for x in (a, b)]
    try:
        for client in clients:
            client.join(game_id)
        emit_move(clients[0], game_id, f"aufstellung {STANDARD_SETUPS[2]}", version=0)
        emit_move(clients[1], game_id, f"aufstellung {STANDARD_SETUPS[5]}", version=0)
        for client in clients:
            client.state(game_id, lambda s: s["version"] == 2 and len(s["view"]["setup"]["own"]) == 40)
        # Red's "spiegeln" arrives twice with the same version (a retry after a lost answer).
        emit_move(clients[0], game_id, "spiegeln", version=2)
        emit_move(clients[0], game_id, "spiegeln", version=2)
        assert clients[0].error()["code"] == "stale_version"
        mirrored = clients[0].state(game_id, lambda s: s["version"] == 3)["view"]["setup"]["own"]
        assert mirrored == _own_squares(STANDARD_SETUPS[2], 0, True)  # mirrored once, not back again
        # Blue's own "spiegeln" at the version it saw, before Red's arrived: accepted.
        emit_move(clients[1], game_id, "spiegeln", version=2)
        blue = clients[1].state(game_id, lambda s: s["version"] == 4)["view"]["setup"]["own"]
        assert blue == _own_squares(STANDARD_SETUPS[5], 1, True)
        clients[0].quiet(0.3)
        assert clients[0].states[game_id]["view"]["setup"]["own"] == mirrored
        row = load(pool, game_id)
        assert row.version == 4 and row.moves.count("spiegeln") == 2 and row.move_seats[2:] == [0, 1]
        assert not clients[1].errors
    finally:
        for client in clients:
            client.close()


def _start_play(clients: list[TableClient], game_id: int) -> None:
    for seat, client in enumerate(clients):
        client.join(game_id)
        emit_move(client, game_id, f"aufstellung {STANDARD_SETUPS[seat]}", version=0)
    for client in clients:
        client.state(game_id, lambda s: len(s["view"]["setup"]["own"]) == 40)
        emit_move(client, game_id, "fertig")
    for client in clients:
        client.state(game_id, lambda s: s["view"]["phase"] == "play")


def test_five_minutes_per_move_and_who_exceeds_it_loses(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, "general", (a.id, b.id), clock=None)
    clients = [TableClient(game_service.url, x).connect() for x in (a, b)]
    try:
        _start_play(clients, game_id)
        state = clients[0].state(game_id)
        assert state["clocks"]["per_move_limit_ms"] == 300_000 and state["clocks"]["running"] == 0
        assert 290_000 < state["clocks"]["remaining_ms"][0] <= 300_000
        # Four minutes of thought are allowed ...
        with pool.connection() as conn:
            conn.execute("UPDATE games SET turn_started_at = now() - interval '4 minutes' WHERE id = %s", (game_id,))
        version = state["version"]
        emit_move(clients[0], game_id, legal_texts(state)[0])
        state = clients[1].state(game_id, lambda s: s["version"] > version)
        assert state["status"] == "running" and state["clocks"]["running"] == 1
        # ... six are not: Blue exceeded the move time and loses.  (Red's move is stored
        # first: edited while on its way, the row would make Red's own move late.)
        stored_when(pool, game_id, lambda r: r.version == state["version"])
        with pool.connection() as conn:
            conn.execute("UPDATE games SET turn_started_at = now() - interval '6 minutes' WHERE id = %s", (game_id,))
        emit_move(clients[1], game_id, legal_texts(state)[0])
        assert clients[1].error()["code"] == "table_finished"
        final = clients[0].state(game_id, lambda s: s["status"] == "finished")
        assert final["result"]["reason"] == "zugzeit" and final["result"]["winner"] == 0
        assert final["result"]["de"] == "Zugzeit überschritten (5 Minuten)"
        assert load(pool, game_id).status == "finished"
    finally:
        for client in clients:
            client.close()


def _rows_of(square: str) -> int:
    return int(square[1:])


def assert_nothing_hidden(seat: int | None, name: str, data: Any, truth: dict[int, str]) -> None:
    """One message to ``seat`` (None: a spectator) while the game runs: no unseen enemy rank, no enemy setup.

    ``truth`` maps every piece id to its rank token (from the setups revealed after the end)."""
    if name != "table:state":
        # Errors and anything else carry no pieces at all.
        text = json.dumps(data)
        assert '"own"' not in text and '"rank"' not in text and '"pieces"' not in text, (name, data)
        return
    assert data["you"] == seat
    view = data["view"]
    assert view["seat"] == seat and "start_position" not in view
    if view["phase"] == "setup":
        setup = view["setup"]
        if seat is None:
            assert setup["own"] is None and setup["remaining"] is None and setup["next_piece"] is None
        else:
            assert all(_rows_of(sq) in own_half(seat) for sq in setup["own"]), setup["own"]
        assert view["pieces"] == [] and view["history"] == [] and data["moves"] == []
        assert all(m["text"].split()[0] in {"setze", "entferne", "aufstellung", "spiegeln", "fertig"}
                   for m in view["legal_moves"])
        return
    for piece in view["pieces"]:
        enemy = piece["owner"] != seat
        if enemy and not piece["revealed"]:
            assert piece["rank"] is None, piece
        elif piece["rank"] is not None:
            assert piece["rank"] == truth[piece["id"]], piece
    for side in view["captured"]:
        for piece in side:  # every captured piece fought: its rank was shown to both
            assert piece["rank"] == truth[piece["id"]]
    if seat is None:
        assert view["legal_moves"] == []
    for move in view["legal_moves"]:  # only one's own pieces' moves are listed
        assert move["effect"]["piece"] // 40 == seat, move
    assert data["moves"] == view["history"]
    # Nothing anywhere in the message names a rank of an enemy piece not seen in a fight.
    shown = {p["id"] for p in view["pieces"] if p["revealed"] or p["owner"] == seat}
    shown |= {p["id"] for side in view["captured"] for p in side}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "id" in node and "rank" in node and node["rank"] is not None:
                assert node["id"] in shown, node
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)


def play_to_the_end(clients: list[TableClient], game_id: int, rng: random.Random, reconnect: Any,
                    max_plies: int = 4000) -> dict:
    """Random legal moves, attacks preferred (so that games end), until the game is over."""
    for ply in range(max_plies):
        if ply == 30:
            reconnect()
        states = [c.state(game_id) for c in clients]
        version = max(s["version"] for s in states)
        states = [c.state(game_id, lambda s, v=version: s["version"] >= v) for c in clients]
        if states[0]["status"] != "running":
            return states[0]
        mover = next(c for c, s in zip(clients, states, strict=True) if my_turn(s))
        state = mover.states[game_id]
        moves = state["view"]["legal_moves"]
        attacks = [m["text"] for m in moves if m["effect"].get("attack")]
        text = rng.choice(attacks) if attacks and rng.random() < 0.9 else rng.choice([m["text"] for m in moves])
        emit_move(mover, game_id, text)
        for c in clients:
            c.state(game_id, lambda s, v=state["version"]: s["version"] > v)
    raise AssertionError("game did not end")


# Seed 11 plays a long game (about 30 s); the default run keeps seed 12, make proof both.
@pytest.mark.parametrize("seed", [pytest.param(11, marks=pytest.mark.slow), 12])
def test_hidden_means_hidden_over_complete_games(game_service: ServiceProcess, pool, seed: int) -> None:  # noqa: ANN001
    rng = random.Random(seed)
    a, b, watcher = players(pool, 3)
    game_id = new_game(pool, "general", (a.id, b.id), clock=None, seed=seed)
    clients = [RecordingClient(game_service.url, x).connect() for x in (a, b)]
    spectator = RecordingClient(game_service.url, watcher).connect()
    every = [*clients, spectator]
    seats: dict[int, int | None] = {id(clients[0]): 0, id(clients[1]): 1, id(spectator): None}
    public_views: list[dict] = []
    try:
        for client in every:
            client.join(game_id)
        # Red places by hand, Blue takes a preset; both at once.
        emit_move(clients[1], game_id, f"aufstellung {STANDARD_SETUPS[seed % 8]} gespiegelt")
        place_by_hand(clients[0], game_id, rng)
        clients[1].state(game_id, lambda s: len(s["view"]["setup"]["own"]) == 40)
        emit_move(clients[1], game_id, "fertig")
        for client in every:
            client.state(game_id, lambda s: s["view"]["phase"] == "play")

        def reconnect() -> None:
            # Blue reloads: a new connection joins the running table.
            old = clients[1]
            old.quiet(0.2)
            old.close()
            fresh = RecordingClient(game_service.url, b).connect()
            state = fresh.join(game_id)
            assert state["status"] == "running" and state["you"] == 1 and state["view"]["phase"] == "play"
            clients[1] = fresh
            every.append(fresh)
            seats[id(fresh)] = 1
            # The public game route of a running game: a spectator's view, checked with the rest.
            public = requests.get(f"{game_service.url}/api/games/{game_id}", timeout=10).json()
            assert public["status"] == "running"
            public_views.append({"you": None, "view": public["view"], "moves": public["view"]["history"],
                                 "status": "running"})

        final = play_to_the_end(clients, game_id, rng, reconnect)
        assert final["status"] == "finished"
        for client in every:
            client.quiet(0.3)
        # After the end both setups are public: the truth every earlier message is checked against.
        truth = {p["id"]: p["rank"] for p in final["view"]["pieces"]}
        truth |= {p["id"]: p["rank"] for side in final["view"]["captured"] for p in side}
        assert None not in truth.values()
        assert len(truth) == 80
        checked = 0
        for client in every:
            for name, data in client.received:
                if name == "table:state" and data["status"] != "running":
                    continue
                assert_nothing_hidden(seats[id(client)], name, data, truth)
                checked += 1
        assert checked > 100
        assert len(public_views) == 1
        for data in public_views:
            assert_nothing_hidden(None, "table:state", data, truth)
        public = requests.get(f"{game_service.url}/api/games/{game_id}", timeout=10).json()
        assert public["status"] == "finished"
    finally:
        for client in every:
            client.close()


def test_setup_has_no_limit_until_the_opponent_is_ready_then_five_minutes(game_service: ServiceProcess,
                                                                          pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, "general", (a.id, b.id), clock=None)
    clients = [TableClient(game_service.url, x).connect() for x in (a, b)]
    try:
        for client in clients:
            state = client.join(game_id)
            # Both set up at once: no move time runs.
            assert state["clocks"]["running"] is None and state["clocks"]["per_move_limit_ms"] == 300_000
        with pool.connection() as conn:
            conn.execute("UPDATE games SET turn_started_at = now() - interval '20 minutes' WHERE id = %s", (game_id,))
        emit_move(clients[0], game_id, f"aufstellung {STANDARD_SETUPS[1]}")
        clients[0].state(game_id, lambda s: len(s["view"]["setup"]["own"]) == 40)
        emit_move(clients[0], game_id, "fertig")
        state = clients[1].state(game_id, lambda s: s["view"]["setup"]["ready"] == [True, False])
        # Red is ready: from now on Blue's setup runs against the move time, five minutes per action.
        assert state["status"] == "running" and state["clocks"]["running"] == 1
        stored_when(pool, game_id, lambda r: r.version == state["version"])
        with pool.connection() as conn:
            conn.execute("UPDATE games SET turn_started_at = now() - interval '4 minutes' WHERE id = %s", (game_id,))
        emit_move(clients[1], game_id, "setze b10 B")
        state = clients[1].state(game_id, lambda s: s["version"] > state["version"])
        assert state["status"] == "running" and state["view"]["setup"]["own"] == {"b10": "B"}
        assert state["clocks"]["running"] == 1 and state["clocks"]["remaining_ms"][1] > 290_000
        stored_when(pool, game_id, lambda r: r.version == state["version"])
        with pool.connection() as conn:
            conn.execute("UPDATE games SET turn_started_at = now() - interval '6 minutes' WHERE id = %s", (game_id,))
        emit_move(clients[1], game_id, "setze a10 F")
        assert clients[1].error()["code"] == "table_finished"
        final = clients[0].state(game_id, lambda s: s["status"] == "finished")
        assert final["result"]["reason"] == "zugzeit" and final["result"]["winner"] == 0
        # The finished table may show Red's setup to Blue now, never before: Blue's last running view had none.
        assert all(_rows_of(sq) in BLUE_ROWS for sq in state["view"]["setup"]["own"])
    finally:
        for client in clients:
            client.close()


def _every_rank(view: dict) -> dict[int, str]:
    ranks = {p["id"]: p["rank"] for p in view["pieces"]}
    ranks |= {p["id"]: p["rank"] for side in view["captured"] for p in side}
    return ranks


def test_a_resigned_game_shows_everything_at_the_end_and_nothing_before(game_service: ServiceProcess,
                                                                         pool) -> None:  # noqa: ANN001
    a, b, watcher = players(pool, 3)
    game_id = new_game(pool, "general", (a.id, b.id), clock=None, seed=21)
    clients = [RecordingClient(game_service.url, x).connect() for x in (a, b)]
    spectator = RecordingClient(game_service.url, watcher).connect()
    every = [*clients, spectator]
    seats = {id(clients[0]): 0, id(clients[1]): 1, id(spectator): None}
    rng = random.Random(21)
    try:
        spectator.join(game_id)
        _start_play(clients, game_id)
        for _ in range(8):  # a few moves, fights preferred
            mover = next(c for c in clients if my_turn(c.states[game_id]))
            state = mover.states[game_id]
            attacks = [m["text"] for m in state["view"]["legal_moves"] if m["effect"]["attack"]]
            emit_move(mover, game_id, rng.choice(attacks or legal_texts(state)))
            for client in every:
                client.state(game_id, lambda s, v=state["version"]: s["version"] > v)
        assert clients[0].states[game_id]["status"] == "running"
        clients[1].emit("table:resign", {"game_id": game_id})
        finals = [c.state(game_id, lambda s: s["status"] == "finished") for c in every]
        truth = _every_rank(finals[2]["view"])
        assert len(truth) == 80 and None not in truth.values()
        for client, final in zip(every, finals, strict=True):
            assert final["result"]["reason"] == "aufgabe" and final["result"]["winner"] == 0
            view = final["view"]
            assert final["you"] == seats[id(client)] and view["phase"] == "over" and view["legal_moves"] == []
            assert _every_rank(view) == truth and view["start_position"]
        # Before the end: not one unseen rank in any message to anyone.
        checked = 0
        for client in every:
            client.quiet(0.2)
            for name, data in client.received:
                if name == "table:state" and data["status"] != "running":
                    continue
                assert_nothing_hidden(seats[id(client)], name, data, truth)
                checked += 1
        assert checked > 20
        # The record holds both setups and reads back to the resignation.
        record = requests.get(f"{game_service.url}/api/games/{game_id}/record.txt", timeout=10).text
        assert f"r: aufstellung {STANDARD_SETUPS[0]}" in record and f"b: aufstellung {STANDARD_SETUPS[1]}" in record
        assert "[Start " in record and '[Reason "aufgabe"]' in record and '[Result "1-0"]' in record
        replayed = get_game("general").parse_record(record)
        assert _every_rank(get_game("general").view(replayed, None)) == truth
        # So does the replay page's last position.
        public = requests.get(f"{game_service.url}/api/games/{game_id}", timeout=10).json()
        assert _every_rank(public["plies"][-1]["view"]) == truth
        # After the end every earlier position is open too (the replay shows both armies from the start).
        assert all(p["rank"] is not None for p in public["plies"][-2]["view"]["pieces"])
        # A late joiner (a reload after the end) sees the same.
        late = TableClient(game_service.url, watcher).connect()
        try:
            assert _every_rank(late.join(game_id)["view"]) == truth
        finally:
            late.close()
    finally:
        for client in every:
            client.close()


def test_a_game_left_during_the_setup_shows_both_placements(game_service: ServiceProcess,
                                                            pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, "general", (a.id, b.id), clock=None)
    clients = [TableClient(game_service.url, x).connect() for x in (a, b)]
    try:
        for client in clients:
            client.join(game_id)
        emit_move(clients[0], game_id, "setze a1 F", version=0)
        emit_move(clients[1], game_id, f"aufstellung {STANDARD_SETUPS[4]}", version=0)
        clients[1].state(game_id, lambda s: s["version"] == 2)
        assert "setups" not in clients[1].states[game_id]["view"]
        clients[0].emit("table:resign", {"game_id": game_id})
        for client in clients:
            final = client.state(game_id, lambda s: s["status"] == "finished")
            assert final["result"]["reason"] == "aufgabe" and final["result"]["winner"] == 1
            assert final["view"]["setups"][0] == {"a1": "F"}
            assert final["view"]["setups"][1] == _own_squares(STANDARD_SETUPS[4], 1, False)
        record = requests.get(f"{game_service.url}/api/games/{game_id}/record.txt", timeout=10).text
        assert "r: setze a1 F" in record and f"b: aufstellung {STANDARD_SETUPS[4]}" in record
    finally:
        for client in clients:
            client.close()
