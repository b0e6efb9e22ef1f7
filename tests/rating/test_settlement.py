"""The rating service's game_finished handler against real PostgreSQL and Redis: exactly once per game,
counted thresholds, Elo and points, Taler pot/draw/uncounted/friendly, the ledger summing to zero,
and the lists (Rangliste, Monatsliste across a month boundary in Berlin, ewige Liste)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import uuid
from collections.abc import Iterator

import pytest
import redis

from services.lobby.challenge_start import start_game
from services.rating.handlers import HANDLERS
from services.rating.standings import list_of
from shared import accounts, challenge, db, ledger
from shared.event_stream import EventConsumer
from tests.stack import Infra

BERLIN_MONTH_START = dt.datetime(2026, 10, 31, 23, 30, tzinfo=dt.UTC)  # 1 Nov 00:30 in Berlin (CET)


@pytest.fixture
def pool(infra: Infra) -> Iterator:
    pool = db.make_pool(infra.database_url, max_size=2)
    yield pool
    pool.close()


@pytest.fixture
def consumer(infra: Infra, pool) -> Iterator[EventConsumer]:  # noqa: ANN001
    """The rating handlers on a stream and group of this test alone."""
    stream = f"test:rating:{uuid.uuid4().hex[:8]}"
    client = redis.Redis.from_url(infra.redis_url, decode_responses=True)
    # Events here carry fixed dates (the Berlin month turning on 1 Nov 2026); the retention,
    # which refuses events older than 30 days, is tested with the consumer itself and must
    # not make these tests depend on today's date (it did from 30 Nov 2026 on).
    consumer = EventConsumer(pool, client, group=f"rating-{uuid.uuid4().hex[:6]}", consumer="c1", handlers=HANDLERS,
                             claim_idle_ms=0, block_ms=10, stream=stream, retention_s=20 * 365 * 86400)
    consumer.ensure_group()
    yield consumer
    client.delete(stream)
    client.close()


def players(pool, n: int = 2) -> list[accounts.Account]:  # noqa: ANN001
    """Registered accounts with their start Taler (guests hold none and stake nothing)."""
    return [accounts.register(pool, f"zahler{uuid.uuid4().hex[:10]}", "passwort-123", None) for _ in range(n)]


def started_game(pool, a, b, *, stake: int = 0, rated: bool = True, game: str = "hexagon") -> int:  # noqa: ANN001
    """A Wartesaal game started the lobby's way (both stakes debited in the same transaction)."""
    ch = challenge.open_challenge(challenge.Party(a.id, a.name), challenge.Party(b.id, b.name), game, 0.0)
    ch = dataclasses.replace(ch, settings=dataclasses.replace(ch.settings, stake=stake, rated=rated), status="agreed")
    return start_game(pool, ch)


def deliver(consumer: EventConsumer, payload: dict, *, event_id: str | None = None,
            created_at: dt.datetime | None = None) -> str:
    event_id = event_id or str(uuid.uuid4())
    consumer.redis.xadd(consumer.stream, {
        "event_id": event_id, "type": "game_finished", "payload": json.dumps(payload),
        "created_at": (created_at or dt.datetime.now(dt.UTC)).isoformat(),
    })
    while consumer.read_new():
        pass
    return event_id


def finished(game_id: int, seats: list[int], winner: int | None, *, plies: int = 30, duration_ms: int = 60_000,
             rated: bool = True, stake: int = 0, mode: str = "wartesaal", game: str = "hexagon") -> dict:
    return {"game_id": game_id, "game": game, "seats": seats, "rated": rated, "stake": stake, "mode": mode,
            "plies": plies, "duration_ms": duration_ms,
            "result": {"winner": winner, "reason": "x", "de": "x", "en": "x", "score": None}}


def rating(pool, user_id: int, game: str = "hexagon") -> dict | None:  # noqa: ANN001
    with pool.connection() as conn:
        return conn.execute("SELECT elo, games, points, wins, losses, draws FROM ratings WHERE user_id = %s"
                            " AND game = %s", (user_id, game)).fetchone()


def game_ledger_sum(pool, game_id: int) -> int:  # noqa: ANN001
    with pool.connection() as conn:
        return int(conn.execute("SELECT COALESCE(SUM(amount), 0) AS s FROM taler_ledger WHERE ref = %s",
                                (f"game:{game_id}",)).fetchone()["s"])


def test_win_with_stake_pays_the_pot_moves_elo_and_points(pool, consumer) -> None:  # noqa: ANN001
    a, b = players(pool)
    gid = started_game(pool, a, b, stake=50)
    assert ledger.balance(pool, a.id) == ledger.balance(pool, b.id) == ledger.START_BALANCE - 50
    deliver(consumer, finished(gid, [a.id, b.id], winner=1, stake=50))
    assert ledger.balance(pool, a.id) == ledger.START_BALANCE - 50
    assert ledger.balance(pool, b.id) == ledger.START_BALANCE + 50
    assert game_ledger_sum(pool, gid) == 0
    assert rating(pool, a.id) == {"elo": 1480, "games": 1, "points": -10, "wins": 0, "losses": 1, "draws": 0}
    assert rating(pool, b.id) == {"elo": 1520, "games": 1, "points": 10, "wins": 1, "losses": 0, "draws": 0}


def test_delivered_twice_and_announced_twice_is_rated_once(pool, consumer) -> None:  # noqa: ANN001
    a, b = players(pool)
    gid = started_game(pool, a, b, stake=20)
    payload = finished(gid, [a.id, b.id], winner=0, stake=20)
    event_id = deliver(consumer, payload)
    deliver(consumer, payload, event_id=event_id)  # the relay published the same outbox row again
    deliver(consumer, payload)  # even a second event for the same game
    assert rating(pool, a.id)["games"] == 1 and rating(pool, a.id)["elo"] == 1520
    assert ledger.balance(pool, a.id) == ledger.START_BALANCE + 20
    assert game_ledger_sum(pool, gid) == 0


def test_draw_returns_the_stakes_and_scores_zero(pool, consumer) -> None:  # noqa: ANN001
    a, b = players(pool)
    gid = started_game(pool, a, b, stake=100)
    deliver(consumer, finished(gid, [a.id, b.id], winner=None, stake=100))
    assert ledger.balance(pool, a.id) == ledger.balance(pool, b.id) == ledger.START_BALANCE
    assert rating(pool, a.id) == {"elo": 1500, "games": 1, "points": 0, "wins": 0, "losses": 0, "draws": 1}
    assert game_ledger_sum(pool, gid) == 0


@pytest.mark.parametrize("plies,duration_ms,counts", [
    (9, 179_999, False), (10, 5_000, True), (3, 180_000, True), (0, 0, False),
])
def test_counted_only_from_ten_half_moves_or_three_minutes(pool, consumer, plies, duration_ms, counts) -> None:  # noqa: ANN001
    a, b = players(pool)
    gid = started_game(pool, a, b, stake=30)
    deliver(consumer, finished(gid, [a.id, b.id], winner=0, stake=30, plies=plies, duration_ms=duration_ms))
    if counts:
        assert rating(pool, a.id)["points"] == 10 and ledger.balance(pool, a.id) == ledger.START_BALANCE + 30
    else:  # nothing changes and the stakes go back
        assert rating(pool, a.id) is None and rating(pool, b.id) is None
        assert ledger.balance(pool, a.id) == ledger.balance(pool, b.id) == ledger.START_BALANCE
    assert game_ledger_sum(pool, gid) == 0


def test_battlegeneral_counts_from_four_minutes_two_when_left_and_its_points_stay_above_zero(pool, consumer) -> None:  # noqa: ANN001, E501
    a, b = players(pool)

    def play(winner: int, duration_ms: int, reason: str = "fahne_erobert") -> None:
        gid = started_game(pool, a, b, game="general")
        payload = finished(gid, [a.id, b.id], winner, game="general", plies=200, duration_ms=duration_ms)
        payload["result"]["reason"] = reason
        deliver(consumer, payload)

    play(0, 239_000)  # 200 half-moves, but under four minutes: not counted
    assert rating(pool, a.id, "general") is None
    play(0, 130_000, reason="verlassen")  # Bert left after two minutes: counted
    assert rating(pool, a.id, "general")["points"] == 10 and rating(pool, b.id, "general")["points"] == 0
    play(1, 240_000)  # Anna loses: 10 → 0, and not below on the next loss
    play(1, 300_000)
    assert rating(pool, a.id, "general")["points"] == 0 and rating(pool, a.id, "general")["losses"] == 2
    assert rating(pool, b.id, "general")["points"] == 20


def test_friendly_computer_and_same_device_games_change_nothing(pool, consumer) -> None:  # noqa: ANN001
    a, b = players(pool)
    friendly = started_game(pool, a, b, rated=False)
    deliver(consumer, finished(friendly, [a.id, b.id], winner=0, rated=False))
    deliver(consumer, finished(friendly + 100_000, [a.id, None], winner=0, rated=False, mode="computer"))
    deliver(consumer, finished(friendly + 100_001, [a.id, a.id], winner=1, rated=False, mode="same_device"))
    assert rating(pool, a.id) is None and rating(pool, b.id) is None
    assert ledger.balance(pool, a.id) == ledger.balance(pool, b.id) == ledger.START_BALANCE


def test_the_ledger_sums_to_zero_over_every_game(pool, consumer) -> None:  # noqa: ANN001
    a, b, c = players(pool, 3)
    outcomes = [(a, b, 0, 40, 30), (b, c, None, 10, 30), (c, a, 1, 100, 4), (a, c, 0, 0, 50), (b, a, 1, 70, 12)]
    ids = []
    for first, second, winner, stake, plies in outcomes:
        gid = started_game(pool, first, second, stake=stake)
        ids.append(gid)
        deliver(consumer, finished(gid, [first.id, second.id], winner=winner, stake=stake, plies=plies,
                                   duration_ms=1000))
    assert all(game_ledger_sum(pool, gid) == 0 for gid in ids)
    total = sum(ledger.balance(pool, p.id) for p in (a, b, c))
    assert total == 3 * ledger.START_BALANCE


def test_lists_rank_by_elo_and_points_and_the_month_turns_in_berlin(pool, consumer) -> None:  # noqa: ANN001
    game = "hanse"  # a game no other test here rates, so the lists hold only these players
    a, b, c = players(pool, 3)
    october = BERLIN_MONTH_START - dt.timedelta(hours=1)  # 31 Oct 23:30 in Berlin
    november = BERLIN_MONTH_START
    for first, second, winner, when in [(a, b, 0, october), (a, c, 0, october), (b, c, 0, november),
                                        (c, a, 0, november)]:
        gid = started_game(pool, first, second, game=game)
        deliver(consumer, finished(gid, [first.id, second.id], winner, game=game), created_at=when)
    with pool.connection() as conn:
        elo = list_of(conn, game, "elo")
        ever = list_of(conn, game, "all")
        month = list_of(conn, game, "month", now=november + dt.timedelta(days=3))
        last_month = list_of(conn, game, "month", now=october)
    mine = {a.id, b.id, c.id}
    # a: +10 +10 −10 = 10; b: −10 +10 = 0; c: −10 −10 +10 = −10.
    assert [(e["user_id"], e["points"]) for e in ever if e["user_id"] in mine] == [(a.id, 10), (b.id, 0), (c.id, -10)]
    elos = [e["elo"] for e in elo]
    assert elos == sorted(elos, reverse=True) and elo[0]["rank"] == 1
    # November (Berlin): b beat c, c beat a → b +10, c 0 (−10 +10), a −10.
    assert [(e["user_id"], e["points"]) for e in month] == [(b.id, 10), (c.id, 0), (a.id, -10)]
    # October: a won twice; the 23:30 UTC game on 31 Oct already belongs to November in Berlin.
    assert (last_month[0]["user_id"], last_month[0]["points"]) == (a.id, 20)
    assert {(e["user_id"], e["points"]) for e in last_month[1:]} == {(b.id, -10), (c.id, -10)}
    assert [e["rank"] for e in last_month] == [1, 2, 2]  # a tie ranks equal
