"""Schnelle Partie through two real lobby processes on one Redis: pairing, waves by Elo, cancel, leaving."""

from __future__ import annotations

import json
import time

import pytest

from services.lobby.challenge_start import start_game
from services.lobby.quick_match import (
    LOCK,
    MEMBERS,
    STARTING,
    STRANDED_SECONDS,
    WAVE_SECONDS,
    Entry,
    Starting,
    accepted_clocks,
    agreed_challenge,
    preference,
)
from shared import game_store, presence
from shared.presence import ELO_CACHE
from shared.schemas.mechanism import ProtocolError
from tests.lobby_fixtures import WartesaalClient, guest, redis_client  # noqa: F401

# A wave waits WAVE_SECONDS; on the loaded machine allow a lot more.
PAIRED_WITHIN = WAVE_SECONDS + 15


def seated(base_url: str) -> tuple[dict, WartesaalClient]:
    http = guest(base_url)
    client = WartesaalClient(base_url, http)
    client.wait_for("welcome")
    return http.user, client


def status_after(client: WartesaalClient, seen: int, state: str, timeout: float = 10) -> dict:
    """The first ``quick:status`` in ``state`` among those received after the first ``seen``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for status in client.received("quick:status")[seen:]:
            if status["state"] == state:
                return status
        time.sleep(0.05)
    raise AssertionError(f"no quick:status {state!r} after the first {seen}")


def close_fast(client: WartesaalClient) -> None:
    """Close without waiting 3 s for the server's WebSocket close frame (websocket-client's
    default): the close frame and the TCP close still reach the server at once."""
    ws = getattr(client.sio.eio, "ws", None)
    if ws is not None:
        close = ws.close
        ws.close = lambda *args, **kwargs: close(timeout=0.2)
    client.close()


def close_all(clients: list[WartesaalClient]) -> None:
    for client in clients:
        close_fast(client)


def started(client: WartesaalClient, timeout: float = PAIRED_WITHIN) -> dict:
    return client.wait_for("challenge:started", timeout=timeout)


def test_two_players_on_two_processes_are_paired_into_one_rated_game(lobby, second_lobby, pool,  # noqa: F811
                                                                     redis_client):  # noqa: F811
    (anna, a), (bert, b) = seated(lobby.url), seated(second_lobby.url)
    try:
        a.emit("quick:join", {"game": "hexagon", "clocks": ["3+2", "10+5"]})
        waiting = a.wait_for("quick:status", lambda s: s["state"] == "waiting")
        assert waiting["game"] == "hexagon" and waiting["clocks"] == ["3+2", "10+5"]
        b.emit("quick:join", {"game": "hexagon", "clocks": []})  # any Bedenkzeit
        got_a, got_b = started(a), started(b)
        assert got_a["game_id"] == got_b["game_id"] and got_a["game"] == "hexagon"
        # Exactly one game for the two, whichever process ran the wave; both are out of the pool.
        assert not redis_client.hexists(MEMBERS, anna["id"]) and not redis_client.hexists(MEMBERS, bert["id"])
        with pool.connection() as conn:
            row = game_store.load(conn, got_a["game_id"])
            count = conn.execute("SELECT count(*) AS n FROM games WHERE %s IN (seat0_user_id, seat1_user_id)",
                                 (anna["id"],)).fetchone()["n"]
        assert count == 1
        assert set(row.seats) == {anna["id"], bert["id"]}
        assert row.mode == "wartesaal" and row.rated and row.stake == 0 and row.status == "running"
        # A's choice decides: the first common Bedenkzeit in the game's order of preference after 5+3.
        assert (row.clock.base_ms, row.clock.inc_ms) == (180_000, 2_000)
        assert a.wait_for("quick:status", lambda s: s["game_id"] == got_a["game_id"])["state"] == "idle"
        # Both now count as playing, and a player at a table cannot join a pool.
        a.emit("quick:join", {"game": "hexagon", "clocks": []})
        assert a.wait_for("error", lambda e: e["code"] == "quick_playing")["message"].startswith("Du spielst gerade")
    finally:
        close_all([a, b])


def test_a_wave_pairs_nearest_elo_when_several_wait(lobby, second_lobby, redis_client):  # noqa: F811
    players = [seated(lobby.url if i % 2 else second_lobby.url) for i in range(4)]
    elos = [1500, 1900, 1530, 1880]
    try:
        for (user, _client), elo in zip(players, elos, strict=True):
            redis_client.hset(ELO_CACHE, user["id"], json.dumps({"bullet": elo}))
        # Hold the pairing lock while all four join, so one wave sees them all.
        deadline = time.monotonic() + 10
        while not redis_client.set(LOCK, "test", nx=True, px=20_000):  # a round may be running right now
            assert time.monotonic() < deadline, "the pairing lock was never free"
            time.sleep(0.05)
        try:
            for _user, client in players:
                client.emit("quick:join", {"game": "bullet", "clocks": []})
            for _user, client in players:
                client.wait_for("quick:status", lambda s: s["state"] == "waiting")
        finally:
            redis_client.delete(LOCK)
        games = [started(client)["game_id"] for _user, client in players]
        assert games[0] == games[2] and games[1] == games[3] and games[0] != games[1]
    finally:
        close_all([client for _user, client in players])
        redis_client.hdel(ELO_CACHE, *[user["id"] for user, _client in players])


def test_cancel_closing_the_wartesaal_and_bad_input_leave_nobody_in_the_pool(lobby, second_lobby, redis_client):  # noqa: F811
    (anna, a), (bert, b) = seated(lobby.url), seated(second_lobby.url)
    try:
        a.emit("quick:join", {"game": "general", "clocks": ["ohne"]})
        a.wait_for("quick:status", lambda s: s["state"] == "waiting")
        seen = len(a.received("quick:status"))  # the status at entering was "idle" too
        a.emit("quick:cancel", {})
        status_after(a, seen, "idle")
        assert not redis_client.hexists(MEMBERS, anna["id"])
        b.emit("quick:join", {"game": "general", "clocks": []})
        b.wait_for("quick:status", lambda s: s["state"] == "waiting")
        assert redis_client.hexists(MEMBERS, bert["id"])
        close_fast(b)
        deadline = time.monotonic() + 10
        while redis_client.hexists(MEMBERS, bert["id"]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not redis_client.hexists(MEMBERS, bert["id"])
        # Anna, having cancelled, was never paired with Bert.
        assert a.received("challenge:started") == []
        # A Bedenkzeit the game does not offer, or an unknown game: refused, nothing changes.
        a.emit("quick:join", {"game": "bullet", "clocks": ["ohne"]})  # Battlebullet always runs a clock
        error = a.wait_for("error", lambda e: e["code"] == "quick_bad_clock")
        assert error["message"].startswith("Diese Bedenkzeit gibt es für dieses Spiel nicht")
        assert "ohne" not in error["message"].split("erlaubt:")[1]
        a.emit("quick:join", {"game": "schach", "clocks": []})
        assert a.wait_for("error", lambda e: e["code"] == "not_allowed_value")["event"] == "quick:join"
        assert not redis_client.hexists(MEMBERS, anna["id"])
    finally:
        close_all([a, b])


def test_a_pair_stranded_by_a_dead_process_is_started_or_returned_to_the_pool(lobby, second_lobby, pool,  # noqa: F811
                                                                           redis_client):  # noqa: F811
    """A process that took a pair and died before starting it leaves a ``quick:starting``
    record (planted here, taken a minute ago): the pair present gets its game — once, also
    when the dead process had committed it — and a player whose partner left waits again."""
    (anna, a), (bert, b), (cora, c), (emil, e) = (seated(u) for u in (lobby.url, second_lobby.url) * 2)
    dora = guest(lobby.url).user  # never in the Wartesaal
    clients = [a, b, c, e]
    taken = time.time() - STRANDED_SECONDS - 30

    def stranded(x: dict, y: dict, game: str) -> Starting:
        first, second = (Entry(u["id"], u["name"], game, ("5+3",), taken) for u in (x, y))
        return Starting(agreed_challenge(first, second, "5+3", taken), (first, second), taken)

    try:
        fresh, committed = stranded(anna, bert, "hexagon"), stranded(emil, cora, "bullet")
        done_game = start_game(pool, committed.challenge)  # the dead process had committed this one
        for record in (fresh, committed):
            redis_client.hset(STARTING, record.challenge.id, record.to_json())
        got = {name: started(client) for name, client in (("anna", a), ("bert", b), ("emil", e), ("cora", c))}
        assert got["anna"]["game_id"] == got["bert"]["game_id"] and got["anna"]["game"] == "hexagon"
        assert got["emil"]["game_id"] == got["cora"]["game_id"] == done_game
        with pool.connection() as conn:
            for user in (anna, bert, cora, emil):
                assert conn.execute("SELECT count(*) AS n FROM games WHERE %s IN (seat0_user_id, seat1_user_id)",
                                    (user["id"],)).fetchone()["n"] == 1
        # Dora left: Cora (free again here, her game given up) waits in the pool with her entry.
        presence.set_status(redis_client, cora["id"], "frei")
        seen = len(c.received("quick:status"))
        half = stranded(dora, cora, "hanse")
        redis_client.hset(STARTING, half.challenge.id, half.to_json())
        assert status_after(c, seen, "waiting", timeout=PAIRED_WITHIN)["game"] == "hanse"
        assert not redis_client.hexists(MEMBERS, dora["id"]) and not redis_client.hexists(STARTING, half.challenge.id)
        with pool.connection() as conn:
            assert conn.execute("SELECT count(*) AS n FROM challenge_starts WHERE challenge_id = %s",
                                (half.challenge.id,)).fetchone()["n"] == 0
        assert redis_client.hlen(STARTING) == 0
    finally:
        redis_client.hdel(MEMBERS, cora["id"])
        close_all(clients)


def test_accepted_clocks_and_the_order_a_pair_picks_in() -> None:
    assert accepted_clocks("bullet", []) == ("3+2", "5+3", "10+5", "15+10")  # always a clock (seed 004)
    assert accepted_clocks("hexagon", ["10+5", "3+2"]) == ("3+2", "10+5")
    with pytest.raises(ProtocolError) as refused:
        accepted_clocks("bullet", ["5+3", "ohne"])
    assert refused.value.code == "quick_bad_clock"
    assert preference("general")[0] == "ohne"  # five minutes a move, seed 002
    assert preference("hexagon")[0] == "5+3" and set(preference("hexagon")) == set(accepted_clocks("hexagon", []))
    entry = Entry(7, "Anna", "hanse", ("3+2",), 12.5, waves=2, lang="en")
    assert Entry.from_json(entry.to_json()) == entry
