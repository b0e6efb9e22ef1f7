"""Tables through the real game service: views per recipient, bad input, endings, clocks, leaving, HTTP."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import redis
import requests

from shared.games import get_game
from shared.table_replay import replay
from tests.stack import Infra, ServiceProcess, wait_until
from tests.table_client import TableClient, legal_texts, load, new_game, players, stored_when, token

CLOCK = {"base_ms": 300_000, "inc_ms": 3000}


@pytest.fixture
def table(game_service: ServiceProcess, pool) -> Iterator:  # noqa: ANN001
    """A running hexagon game between two connected, seated clients (and a spectator client)."""
    a, b, c = players(pool, 3)
    game_id = new_game(pool, "hexagon", (a.id, b.id), clock=CLOCK)
    clients = [TableClient(game_service.url, x).connect() for x in (a, b, c)]
    for client in clients:
        client.join(game_id)
    yield game_id, clients
    for client in clients:
        client.close()


def move(client: TableClient, game_id: int, text: str | None = None) -> dict:
    state = client.states[game_id]
    client.emit("table:move", {"game_id": game_id, "version": state["version"], "move": text or legal_texts(state)[0]})
    return client.state(game_id, lambda s, v=state["version"]: s["version"] > v)


def test_each_seat_and_spectator_get_their_own_view(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    # Battlegeneral hides the opponent's pieces: the strictest check of per-recipient payloads.
    a, b, c = players(pool, 3)
    game_id = new_game(pool, "general", (a.id, b.id), clock=CLOCK)
    clients = [TableClient(game_service.url, x).connect() for x in (a, b, c)]
    try:
        engine = get_game("general")
        seat0 = clients[0].join(game_id)
        setup = next(t for t in legal_texts(seat0) if t.startswith("setze"))
        clients[0].emit("table:move", {"game_id": game_id, "version": 0, "move": setup})
        clients[0].state(game_id, lambda s: s["version"] == 1)
        row = stored_when(pool, game_id, lambda r: r.version == 1)
        for client in clients:
            client.join(game_id)
        state = replay(row.game, row.options, row.seed, row.moves, row.move_seats)
        for you, client in zip((0, 1, None), clients, strict=True):
            got = client.state(game_id, lambda s: s["version"] == 1)
            assert got["you"] == you
            assert got["view"] == engine.view(state, you)
        assert clients[1].states[game_id]["view"] != clients[0].states[game_id]["view"]
    finally:
        for client in clients:
            client.close()


def test_bad_input_is_refused_and_changes_nothing(table, pool) -> None:  # noqa: ANN001
    game_id, (a, b, spectator) = table
    move(a, game_id)
    before = load(pool, game_id)
    version = before.version
    legal_for_b = legal_texts(b.state(game_id, lambda s: s["version"] == version))[0]
    cases = [
        ("out of turn", a, {"game_id": game_id, "version": version, "move": legal_for_b},
         "not_your_turn"),
        ("stale version", b, {"game_id": game_id, "version": version - 1, "move": legal_for_b}, "stale_version"),
        ("future version", b, {"game_id": game_id, "version": version + 7, "move": legal_for_b}, "stale_version"),
        ("unknown table", b, {"game_id": 987_654_321, "version": 0, "move": "a1"}, "unknown_table"),
        ("spectator", spectator, {"game_id": game_id, "version": version, "move": legal_for_b}, "spectator"),
        ("unreadable move", b, {"game_id": game_id, "version": version, "move": "zz9"}, None),
        ("illegal move", b, {"game_id": game_id, "version": version, "move": "e5"}, None),
        ("missing version", b, {"game_id": game_id, "move": legal_for_b}, "missing_field"),
        ("version as text", b, {"game_id": game_id, "version": "1", "move": legal_for_b}, "wrong_type"),
        ("empty move", b, {"game_id": game_id, "version": version, "move": ""}, "too_short"),
        ("extra field", b, {"game_id": game_id, "version": version, "move": legal_for_b, "seat": 0},
         "unexpected_field"),
    ]
    for description, client, payload, code in cases:
        client.emit("table:move", payload)
        error = client.error()
        assert error["event"] == "table:move", description
        assert error["message"] and (code is None or error["code"] == code), (description, error)
        if code is None:  # the engine's own refusal, German by default
            assert error["code"] not in ("internal_error", "not_your_turn"), description
    b.emit("table:move", [1, 2])
    assert b.error()["code"] == "bad_payload"
    # The stale sender got the current table with its error.
    assert b.state(game_id)["version"] == version
    after = load(pool, game_id)
    assert (after.version, after.moves, after.status) == (before.version, before.moves, "running")
    # A finished table refuses moves too.
    b.emit("table:resign", {"game_id": game_id})
    b.state(game_id, lambda s: s["status"] == "finished")
    b.emit("table:move", {"game_id": game_id, "version": version + 1, "move": legal_for_b})
    assert b.error()["code"] == "table_finished"
    assert load(pool, game_id).moves == before.moves


def test_errors_come_in_english_on_request(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    (a,) = players(pool, 1)
    client = TableClient(game_service.url, a, lang="en").connect()
    try:
        client.emit("table:join", {"game_id": 987_654_321})
        assert client.error()["message"] == "There is no such game."
    finally:
        client.close()


def test_resign(table, pool) -> None:  # noqa: ANN001
    game_id, (a, b, spectator) = table
    a.emit("table:resign", {"game_id": game_id})
    for client in (a, b, spectator):
        final = client.state(game_id, lambda s: s["status"] == "finished")
        assert final["result"]["winner"] == 1 and final["result"]["reason"] == "aufgabe"
        assert final["result"]["de"] == "Aufgegeben"


def test_draw_offer_lapses_on_a_move_and_can_be_declined_or_accepted(table, pool) -> None:  # noqa: ANN001
    game_id, (a, b, _spectator) = table
    a.emit("table:draw", {"game_id": game_id, "action": "offer"})
    assert b.state(game_id, lambda s: s["offers"]["draw"] == 0)
    a.emit("table:draw", {"game_id": game_id, "action": "accept"})  # one's own offer
    assert a.error()["code"] == "no_offer"
    move(a, game_id)  # someone moves: the offer is void
    assert b.state(game_id, lambda s: s["version"] == 2)["offers"]["draw"] is None
    b.emit("table:draw", {"game_id": game_id, "action": "accept"})
    assert b.error()["code"] == "no_offer"
    b.emit("table:draw", {"game_id": game_id, "action": "offer"})
    a.state(game_id, lambda s: s["version"] == 3 and s["offers"]["draw"] == 1)
    a.emit("table:draw", {"game_id": game_id, "action": "decline"})
    b.state(game_id, lambda s: s["version"] == 4 and s["offers"]["draw"] is None)
    b.emit("table:draw", {"game_id": game_id, "action": "offer"})
    a.state(game_id, lambda s: s["version"] == 5 and s["offers"]["draw"] == 1)
    a.emit("table:draw", {"game_id": game_id, "action": "accept"})
    final = b.state(game_id, lambda s: s["status"] == "finished")
    assert final["result"]["winner"] is None and final["result"]["reason"] == "remis"


def test_takeback_with_consent_in_friendly_games_only(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    friendly = new_game(pool, "bullet", (a.id, b.id), clock=CLOCK)
    rated = new_game(pool, "bullet", (a.id, b.id), clock=CLOCK, rated=True)
    clients = [TableClient(game_service.url, x).connect() for x in (a, b)]
    try:
        for client in clients:
            client.join(friendly)
            client.join(rated)
        ca, cb = clients
        ca.emit("table:takeback", {"game_id": rated, "action": "offer"})
        assert ca.error()["code"] == "takeback_not_here"
        ca.emit("table:takeback", {"game_id": friendly, "action": "offer"})
        assert ca.error()["code"] == "nothing_to_take_back"
        first = move(ca, friendly)["moves"]
        cb.state(friendly, lambda s: s["version"] == 1)
        move(cb, friendly)
        ca.state(friendly, lambda s: s["version"] == 2)
        # a wants its move back: b's answer goes too.
        ca.emit("table:takeback", {"game_id": friendly, "action": "offer"})
        cb.state(friendly, lambda s: s["offers"]["takeback"] == 0)
        cb.emit("table:takeback", {"game_id": friendly, "action": "accept"})
        back = ca.state(friendly, lambda s: s["version"] == 4)
        assert back["moves"] == [] and back["clocks"]["running"] == 0 and first
        assert load(pool, friendly).moves == []
    finally:
        for client in clients:
            client.close()


def test_a_flag_falls_with_nobody_sending_anything(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    watched = new_game(pool, "bullet", (a.id, b.id), clock={"base_ms": 2000, "inc_ms": 0})
    unwatched = new_game(pool, "hexagon", (a.id, b.id), clock={"base_ms": 2000, "inc_ms": 0})
    client = TableClient(game_service.url, b).connect()
    try:
        start = time.monotonic()
        client.join(watched)
        final = client.state(watched, lambda s: s["status"] == "finished", timeout=15)
        assert time.monotonic() - start >= 1.5
        assert final["result"]["reason"] == "zeit" and final["result"]["winner"] == 1
        assert final["clocks"]["remaining_ms"][0] == 0
        # No socket at all at the other table: the scheduler still ends it.
        row = stored_when(pool, unwatched, lambda r: not r.running, timeout=15)
        assert row.status == "finished" and row.result["reason"] == "zeit" and row.result["winner"] == 1
    finally:
        client.close()


def test_leaving_loses_after_30_seconds_and_a_reload_keeps_the_table(game_service: ServiceProcess, pool,
                                                                   infra: Infra) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, "hexagon", (a.id, b.id), clock=CLOCK)
    ca, cb = TableClient(game_service.url, a).connect(), TableClient(game_service.url, b).connect()
    r = redis.Redis.from_url(infra.redis_url)
    try:
        ca.join(game_id)
        cb.join(game_id)
        # The joiner gets the table first, then its status is written: wait for it.
        wait_until(lambda: r.hget("presence:status", a.id) == b"spielt", 5, "a not shown as playing")
        move(ca, game_id)
        # b reloads: gone for three seconds, then back at the same table, intact.
        cb.close()
        time.sleep(3)
        cb = TableClient(game_service.url, b).connect()
        assert cb.join(game_id)["version"] == 1
        # a leaves for good.
        ca.close()
        left = time.monotonic()
        final = cb.state(game_id, lambda s: s["status"] == "finished", timeout=45)
        waited = time.monotonic() - left
        assert 28 <= waited <= 40, waited
        assert final["result"]["reason"] == "verlassen" and final["result"]["winner"] == 1
        # Both are "frei" again (written just after the state went out).
        deadline = time.monotonic() + 5
        while r.hmget("presence:status", [a.id, b.id]) != [None, None] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert r.hmget("presence:status", [a.id, b.id]) == [None, None]
    finally:
        ca.close()
        cb.close()


def test_live_list_and_my_games(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    running = new_game(pool, "bullet", (a.id, b.id), clock=CLOCK)
    done = new_game(pool, "hexagon", (a.id, b.id), clock=CLOCK)
    client = TableClient(game_service.url, a).connect()
    try:
        client.join(done)
        client.emit("table:resign", {"game_id": done})
        client.state(done, lambda s: s["status"] == "finished")
        live = requests.get(f"{game_service.url}/api/games/live", timeout=10).json()["games"]
        assert running in [g["game_id"] for g in live] and done not in [g["game_id"] for g in live]
        mine = requests.get(f"{game_service.url}/api/my-games", timeout=10,
                            headers={"Authorization": f"Bearer {token(a)}"}).json()["games"]
        assert [g["game_id"] for g in mine] == [done]
        assert mine[0]["seats"][0]["name"] == a.name and mine[0]["result"]["reason"] == "aufgabe"
        assert requests.get(f"{game_service.url}/api/my-games", timeout=10).status_code == 401
        public = requests.get(f"{game_service.url}/api/games/{running}", timeout=10).json()
        assert public["status"] == "running" and public["view"]["seat"] is None and "plies" in public
        record = requests.get(f"{game_service.url}/api/games/{done}/record.txt", timeout=10)
        assert record.status_code == 200 and "attachment" in record.headers["Content-Disposition"]
        assert requests.get(f"{game_service.url}/api/games/{running}/record.txt", timeout=10).status_code == 404
        assert requests.get(f"{game_service.url}/api/games/987654321", timeout=10).status_code == 404
    finally:
        client.close()


def test_ohne_uhr_ten_minutes_per_move(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, "bullet", (a.id, b.id), clock=None)
    client = TableClient(game_service.url, a).connect()
    try:
        state = client.join(game_id)
        assert state["clocks"]["per_move_limit_ms"] == 600_000 and state["clocks"]["running"] == 0
        assert 590_000 < state["clocks"]["remaining_ms"][0] <= 600_000
        # Seat 0 has been thinking for eleven minutes (the clock reads the stored turn start).
        with pool.connection() as conn:
            conn.execute("UPDATE games SET turn_started_at = now() - interval '11 minutes' WHERE id = %s", (game_id,))
        client.emit("table:move", {"game_id": game_id, "version": 0, "move": legal_texts(state)[0]})
        assert client.error()["code"] == "table_finished"
        final = client.state(game_id, lambda s: s["status"] == "finished")
        assert final["result"]["reason"] == "zugzeit" and final["result"]["winner"] == 1
        assert load(pool, game_id).moves == []
    finally:
        client.close()


def test_leave_stops_the_updates(table) -> None:  # noqa: ANN001
    game_id, (a, b, spectator) = table
    spectator.emit("table:leave", {"game_id": game_id})
    spectator.quiet(0.5)
    move(a, game_id)
    b.state(game_id, lambda s: s["version"] == 1)
    spectator.quiet(1.0)
    assert spectator.states[game_id]["version"] == 0
