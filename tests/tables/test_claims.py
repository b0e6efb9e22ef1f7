"""Table rules around the moves: the claim against a player long gone, the ↶ Zurück back-off, the lag cap."""

from __future__ import annotations

import datetime as dt
import re

from services.game.rules import takeback_backoff
from shared import clock
from shared.clock import Clock
from tests.stack import ServiceProcess
from tests.table_client import TableClient, legal_texts, load, new_game, players, stored_when

CLOCK = {"base_ms": 300_000, "inc_ms": 3000}


def seconds_in(message: str) -> int:
    """The seconds a refusal names ("… in 37 Sekunden …")."""
    found = re.search(r"(\d+) Sekunden", message)
    assert found, message
    return int(found.group(1))


def move(client: TableClient, game_id: int, lag_ms: int | None = None) -> dict:
    state = client.states[game_id]
    client.emit("table:move", {"game_id": game_id, "version": state["version"], "move": legal_texts(state)[0],
                               "lag_ms": lag_ms})
    return client.state(game_id, lambda s, v=state["version"]: s["version"] > v)


# ---- lag -----------------------------------------------------------------------------

def test_a_claimed_lag_is_credited_up_to_one_second_per_move() -> None:
    c = Clock(300_000, 3000)  # gain 1 s, quota 3 s at the start
    honest = clock.on_move(c, 300_000, quota_ms=3000, elapsed_ms=5000, reported_lag_ms=400)
    assert honest.spent_ms == 4600
    huge = clock.on_move(c, 300_000, quota_ms=3000, elapsed_ms=5000, reported_lag_ms=10**9)
    assert huge.spent_ms == 5000 - clock.MAX_REPORTED_LAG_MS == 4000
    assert huge.quota_ms == 3000 + 1000 - 1000
    assert clock.on_move(c, 300_000, quota_ms=3000, elapsed_ms=5000, reported_lag_ms=-50).spent_ms == 5000


def test_the_server_caps_a_claimed_huge_lag(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, "hexagon", (a.id, b.id), clock=CLOCK)
    ca = TableClient(game_service.url, a).connect()
    try:
        ca.join(game_id)
        # Seat 0 has been thinking for six seconds when the move arrives, claiming a week of lag.
        with pool.connection() as conn:
            conn.execute("UPDATE games SET turn_started_at = now() - interval '6 seconds' WHERE id = %s", (game_id,))
        moved = move(ca, game_id, lag_ms=7 * 24 * 3600 * 1000)
        row = stored_when(pool, game_id, lambda r: r.version == moved["version"])
        assert 6000 - 1000 <= row.move_times[0] <= 6000 - 1000 + 3000, row.move_times
        assert row.remaining_ms[0] == 300_000 - row.move_times[0] + 3000
        # The client's round trip: table:ping comes back as table:pong with its own time.
        ca.emit("table:ping", {"sent_ms": 1234})
        assert ca.event("table:pong")["sent_ms"] == 1234
    finally:
        ca.close()


# ---- ↶ Zurück back-off ------------------------------------------------------------------

def test_backoff_grows_with_each_decline_like_lichess() -> None:
    now = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
    assert takeback_backoff.seconds_left(0, None, now) == 0
    assert takeback_backoff.seconds_left(1, now, now) == 10
    assert takeback_backoff.seconds_left(2, now, now) == 40
    assert takeback_backoff.seconds_left(3, now - dt.timedelta(seconds=89.5), now) == 1
    assert takeback_backoff.seconds_left(3, now - dt.timedelta(seconds=90), now) == 0
    assert takeback_backoff.seconds_left(50, now, now) == 1000  # counted up to ten declines


def test_a_declined_takeback_may_not_be_asked_again_at_once(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, "bullet", (a.id, b.id), clock=CLOCK)
    ca, cb = TableClient(game_service.url, a).connect(), TableClient(game_service.url, b).connect()

    def offer_declined(expected_version: int) -> None:
        ca.emit("table:takeback", {"game_id": game_id, "action": "offer"})
        cb.state(game_id, lambda s: s["version"] == expected_version - 1 and s["offers"]["takeback"] == 0)
        cb.emit("table:takeback", {"game_id": game_id, "action": "decline"})
        ca.state(game_id, lambda s: s["version"] == expected_version and s["offers"]["takeback"] is None)

    try:
        ca.join(game_id)
        cb.join(game_id)
        move(ca, game_id)
        cb.state(game_id, lambda s: s["version"] == 1)
        move(cb, game_id)
        ca.state(game_id, lambda s: s["version"] == 2)
        offer_declined(4)
        ca.emit("table:takeback", {"game_id": game_id, "action": "offer"})
        error = ca.error()
        assert error["code"] == "takeback_wait" and 0 < seconds_in(error["message"]) <= 10, error
        assert load(pool, game_id).takeback_offer is None
        # Ten seconds later (the decline moved back in time) a may ask again; declined twice: 40 s.
        with pool.connection() as conn:
            conn.execute("UPDATE games SET takeback_declined_at[1] = now() - interval '11 seconds' WHERE id = %s",
                         (game_id,))
        offer_declined(6)
        ca.emit("table:takeback", {"game_id": game_id, "action": "offer"})
        error = ca.error()
        assert error["code"] == "takeback_wait" and 30 < seconds_in(error["message"]) <= 40, error
        # b's own requests are not held back by a's, and an accepted request starts b's count over.
        cb.emit("table:takeback", {"game_id": game_id, "action": "offer"})
        ca.state(game_id, lambda s: s["version"] == 7 and s["offers"]["takeback"] == 1)
        ca.emit("table:takeback", {"game_id": game_id, "action": "accept"})
        back = cb.state(game_id, lambda s: s["version"] == 8)
        assert len(back["moves"]) == 1
        row = load(pool, game_id)
        assert row.takeback_declines == (2, 0) and row.takeback_declined_at[1] is None
    finally:
        ca.close()
        cb.close()


# ---- the claim against a player long gone -------------------------------------------

def test_a_player_who_never_came_can_be_claimed_against_after_the_leave_time(game_service: ServiceProcess,
                                                                             pool) -> None:  # noqa: ANN001
    a, b, c = players(pool, 3)
    won = new_game(pool, "hexagon", (a.id, b.id), clock=CLOCK)
    drawn = new_game(pool, "hexagon", (a.id, b.id), clock=CLOCK, seed=2)
    cb, cc = TableClient(game_service.url, b).connect(), TableClient(game_service.url, c).connect()
    try:
        cb.join(won)
        # a never opened the table: away since the game began.
        seen = cb.event("table:presence", lambda d: d["user_id"] == a.id)
        assert seen["present"] is False and 0 <= seen["away_ms"] < 30_000 and seen["claim_after_ms"] == 30_000
        cb.emit("table:claim", {"game_id": won, "action": "win"})
        error = cb.error()
        assert error["code"] == "opponent_not_gone_long" and "Sekunden" in error["message"]
        assert load(pool, won).running
        cc.join(won)
        cc.emit("table:claim", {"game_id": won, "action": "win"})
        assert cc.error()["code"] == "spectator"
        with pool.connection() as conn:
            conn.execute("UPDATE games SET created_at = now() - interval '31 seconds' WHERE id = ANY(%s)",
                         ([won, drawn],))
        cb.emit("table:claim", {"game_id": won, "action": "win"})
        final = cb.state(won, lambda s: s["status"] == "finished")
        assert final["result"]["winner"] == 1 and final["result"]["reason"] == "verlassen"
        assert cc.state(won, lambda s: s["status"] == "finished")["result"]["winner"] == 1
        cb.join(drawn)
        cb.emit("table:claim", {"game_id": drawn, "action": "draw"})
        final = cb.state(drawn, lambda s: s["status"] == "finished")
        assert final["result"]["winner"] is None and final["result"]["reason"] == "verlassen_remis"
        assert final["result"]["de"].startswith("Remis")
    finally:
        cb.close()
        cc.close()


def test_no_claim_while_the_opponent_is_at_the_table(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, "hexagon", (a.id, b.id), clock=CLOCK)
    with pool.connection() as conn:
        conn.execute("UPDATE games SET created_at = now() - interval '5 minutes' WHERE id = %s", (game_id,))
    ca, cb = TableClient(game_service.url, a).connect(), TableClient(game_service.url, b).connect()
    try:
        cb.join(game_id)
        assert cb.event("table:presence", lambda d: d["user_id"] == a.id)["present"] is False
        ca.join(game_id)
        assert cb.event("table:presence", lambda d: d["user_id"] == a.id)["present"] is True
        cb.emit("table:claim", {"game_id": game_id, "action": "win"})
        assert cb.error()["code"] == "opponent_here"
        # a goes: b hears it at once; the claim still waits for the leave time.
        ca.close()
        gone = cb.event("table:presence", lambda d: d["user_id"] == a.id)
        assert gone["present"] is False and gone["away_ms"] == 0
        cb.emit("table:claim", {"game_id": game_id, "action": "win"})
        assert cb.error()["code"] in ("opponent_here", "opponent_not_gone_long")
        cb.emit("table:claim", {"game_id": game_id, "action": "forfeit"})
        assert cb.error()["code"] == "not_allowed_value"
        assert load(pool, game_id).running
    finally:
        ca.close()
        cb.close()
