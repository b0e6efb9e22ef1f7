"""Tagesmarkt: the day's deal, the Berlin day, the first attempt, the Tagesliste and the streak."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from collections.abc import Iterator

import pytest
import requests

from services.lobby import daily_market
from shared import accounts, db, game_store
from shared.games import get_game
from tests.lobby_fixtures import guest
from tests.stack import TEST_SECRET as SECRET
from tests.stack import Infra, ServiceProcess

HANSE = get_game("hanse")
UTC = dt.UTC


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=UTC)


# ---- pure ------------------------------------------------------------------------------------
def test_the_deal_is_a_function_of_the_day() -> None:
    day = dt.date(2026, 11, 30)
    # Two players asking on the same day (at different hours) get the same cards …
    first = daily_market.daily_deal(daily_market.berlin_day(at("2026-11-30T06:00:00")), SECRET)
    second = daily_market.daily_deal(daily_market.berlin_day(at("2026-11-30T21:30:00")), SECRET)
    assert HANSE.to_position(first) == HANSE.to_position(second)
    assert first.deck == second.deck and first.rats_piles == second.rats_piles
    assert daily_market.daily_seed(day, SECRET) == daily_market.daily_seed(dt.date(2026, 11, 30), SECRET)
    # … and the player begins, in seat 0, one seal deciding.
    assert HANSE.to_move(first) == (0,) and first.seals_to_win == 1
    # The next day deals other cards (and so does every day of a year: no repeats).
    following = daily_market.daily_deal(dt.date(2026, 12, 1), SECRET)
    assert following.deck != first.deck
    year = {daily_market.daily_deal(day + dt.timedelta(days=i), SECRET).deck for i in range(365)}
    assert len(year) == 365
    # The deal is keyed with the server's secret: the date alone does not give the deck away.
    assert daily_market.daily_deal(day, "another-installation").deck != first.deck


def test_the_day_changes_at_midnight_in_berlin() -> None:
    # Winter (CET, UTC+1): midnight in Berlin is 23:00 UTC.
    assert daily_market.berlin_day(at("2026-11-30T22:59:59")) == dt.date(2026, 11, 30)
    assert daily_market.berlin_day(at("2026-11-30T23:00:00")) == dt.date(2026, 12, 1)
    # Summer (CEST, UTC+2): midnight is 22:00 UTC.
    assert daily_market.berlin_day(at("2026-07-01T21:59:59")) == dt.date(2026, 7, 1)
    assert daily_market.berlin_day(at("2026-07-01T22:00:00")) == dt.date(2026, 7, 2)
    # The UTC date alone would be wrong in that hour: a different deal for the same Berlin day.
    assert daily_market.daily_seed(daily_market.berlin_day(at("2026-11-30T23:30:00")), SECRET) != daily_market.daily_seed(
        dt.date(2026, 11, 30), SECRET)
    with pytest.raises(ValueError):
        daily_market.berlin_day(dt.datetime(2026, 11, 30, 12))  # naive: which zone?
    # A day's deal is sealed until exactly that midnight (the night of a clock change too).
    for moment in ("2026-11-30T06:00:00", "2026-03-28T12:00:00", "2026-03-29T12:00:00", "2026-10-25T01:30:00"):
        end = daily_market.day_end(daily_market.berlin_day(at(moment)))
        assert daily_market.berlin_day(end - dt.timedelta(seconds=1)) == daily_market.berlin_day(at(moment))
        assert daily_market.berlin_day(end) == daily_market.berlin_day(at(moment)) + dt.timedelta(days=1)


def test_streak_counts_days_in_a_row() -> None:
    today = dt.date(2026, 11, 30)
    days = {today - dt.timedelta(days=i) for i in (0, 1, 2, 4, 5)}
    assert daily_market.streak(days, today) == 3
    # Before today's attempt the streak up to yesterday still stands …
    assert daily_market.streak(days - {today}, today) == 2
    # … but a day without one breaks it.
    assert daily_market.streak({today - dt.timedelta(days=2)}, today) == 0
    assert daily_market.streak(set(), today) == 0


# ---- against PostgreSQL ------------------------------------------------------------------------
@pytest.fixture
def pool(infra: Infra) -> Iterator:
    pool = db.make_pool(infra.database_url, max_size=2)
    yield pool
    pool.close()


def registered(pool) -> accounts.Account:  # noqa: ANN001
    return accounts.register(pool, f"Tm{uuid.uuid4().hex[:12]}", "passwort-lang", None)


def start(pool, account: accounts.Account, now: dt.datetime) -> dict:  # noqa: ANN001
    with pool.connection() as conn, conn.transaction():
        return daily_market.start_attempt(conn, account, now, SECRET)


def play_round(pool, game_id: int, rng: random.Random, reshuffle: tuple[int, int] | None = None) -> int:  # noqa: ANN001
    """Play the table's first round to its end (both seats, random legal moves), as the
    game service would store it (``reshuffle``: a Zug zurück's (ply, seed), mixed in as
    the table replays it); returns the player's points minus the computer's."""
    with pool.connection() as conn:
        row = game_store.load(conn, game_id)
    state = HANSE.new_game(row.options, row.seed)
    moves, seats = [], []
    while not state.rounds:
        if reshuffle is not None and len(moves) == reshuffle[0]:
            state = HANSE.reshuffle_unseen(state, reshuffle[1])
        seat = HANSE.to_move(state)[0]
        text = rng.choice(HANSE.legal_moves(state, seat)).text
        state = HANSE.apply(state, text, seat)
        moves.append(text)
        seats.append(seat)
    outcome = HANSE.outcome(state)
    assert outcome is not None  # one Ratssiegel: the round's end is the match's
    with pool.connection() as conn, conn.transaction():
        game_store.write_turn(conn, game_id, moves=moves, move_seats=seats, move_times=[0] * len(moves),
                              remaining_ms=None, lag_quota_ms=row.lag_quota_ms, turn_started_at=row.turn_started_at,
                              version=row.version + len(moves), draw_offer=None, takeback_offer=None)
        game_store.finish(conn, game_id, result=outcome.to_dict(), record=None, remaining_ms=None,
                          version=row.version + len(moves) + 1, finished_at=dt.datetime.now(UTC))
    totals = state.rounds[0]["players"]
    return totals[0]["total"] - totals[1]["total"]


def test_only_the_first_attempt_of_the_day_enters_the_list(pool) -> None:  # noqa: ANN001
    day_start = at("2031-03-10T08:00:00")
    day = daily_market.berlin_day(day_start)
    alice, bert = registered(pool), registered(pool)
    first = start(pool, alice, day_start)
    second = start(pool, alice, day_start + dt.timedelta(hours=1))
    other = start(pool, bert, day_start + dt.timedelta(hours=2))
    assert first["counted"] and not second["counted"] and other["counted"]
    # Everyone's table starts from the day's deal.
    with pool.connection() as conn:
        rows = [game_store.load(conn, s["game_id"]) for s in (first, second, other)]
    assert {r.seed for r in rows} == {daily_market.daily_seed(day, SECRET)}
    assert all(r.mode == "computer" and r.strength == "mittel" and r.seats[0] is not None for r in rows)
    # Sealed until the day ends: nobody reads the deal from a finished attempt while others play it.
    assert {r.sealed_until for r in rows} == {daily_market.day_end(day)}
    # What each table says of itself (GET /api/tagesmarkt/versuch/<id>): only to its player.
    with pool.connection() as conn:
        lines = [daily_market.attempt_at(conn, alice, s["game_id"]) for s in (first, second)]
        assert daily_market.attempt_at(conn, bert, first["game_id"]) is None
    assert [(a["day"], a["counts"], a["practice_reason"]) for a in lines] == [
        (day.isoformat(), True, None), (day.isoformat(), False, "later")]

    # Nothing in the list while the rounds run.
    with pool.connection() as conn, conn.transaction():
        assert daily_market.tagesliste(conn, day) == []
        mine = daily_market.player_status(conn, alice, day)
    assert mine["played_today"] and mine["counted_score"] is None and mine["practice_today"] == 1

    rng = random.Random(5)
    score_first = play_round(pool, first["game_id"], rng)
    play_round(pool, second["game_id"], rng)  # practice: whatever it scored
    score_other = play_round(pool, other["game_id"], rng)
    with pool.connection() as conn, conn.transaction():
        entries = daily_market.tagesliste(conn, day)
        mine = daily_market.player_status(conn, alice, day)
    assert sorted(e["name"] for e in entries) == sorted([alice.name, bert.name])
    assert {e["name"]: e["score"] for e in entries} == {alice.name: score_first, bert.name: score_other}
    assert [e["score"] for e in entries] == sorted((score_first, score_other), reverse=True)
    assert mine["counted_score"] == score_first and mine["counted_game_id"] == first["game_id"]


def test_a_round_with_a_tipp_or_zug_zurueck_is_practice(pool) -> None:  # noqa: ANN001
    now = at("2031-06-02T12:00:00")
    day = daily_market.berlin_day(now)
    hinted, undone = registered(pool), registered(pool)
    games = [start(pool, hinted, now)["game_id"], start(pool, undone, now)["game_id"]]
    with pool.connection() as conn, conn.transaction():
        conn.execute("UPDATE games SET hints = 1 WHERE id = %s", (games[0],))
        conn.execute("UPDATE games SET reshuffles = '[[4, 77]]' WHERE id = %s", (games[1],))
    with pool.connection() as conn:  # the table says so at once, before the round is scored
        assert all(daily_market.attempt_at(conn, account, game_id)["practice_reason"] == "assisted"
                   for account, game_id in zip((hinted, undone), games, strict=True))
    rng = random.Random(9)
    play_round(pool, games[0], rng)
    play_round(pool, games[1], rng, reshuffle=(4, 77))
    with pool.connection() as conn, conn.transaction():
        assert daily_market.tagesliste(conn, day) == []
        for account in (hinted, undone):
            mine = daily_market.player_status(conn, account, day)
            assert mine["played_today"] and mine["counted_game_id"] is None
        scores = conn.execute("SELECT score FROM hanse_daily_attempts WHERE game_id = ANY(%s)", (games,)).fetchall()
    assert all(r["score"] is not None for r in scores)  # scored, as practice
    with pool.connection() as conn:  # and after it was scored
        assert all(daily_market.attempt_at(conn, account, game_id)["practice_reason"] == "assisted"
                   for account, game_id in zip((hinted, undone), games, strict=True))


def test_a_counted_table_left_before_the_round_ended_scores_nothing(pool) -> None:  # noqa: F811, ANN001
    now = at("2031-05-20T12:00:00")
    player = registered(pool)
    first = start(pool, player, now)
    with pool.connection() as conn, conn.transaction():
        game_store.finish(conn, first["game_id"], result={"winner": None, "reason": "verlassen", "de": "", "en": "",
                                                          "score": None},
                          record=None, remaining_ms=None, version=1, finished_at=None, status="aborted")
    second = start(pool, player, now + dt.timedelta(minutes=5))
    assert not second["counted"]  # the left table was the day's first attempt
    with pool.connection() as conn, conn.transaction():
        mine = daily_market.player_status(conn, player, daily_market.berlin_day(now))
        assert daily_market.tagesliste(conn, daily_market.berlin_day(now)) == []
    assert mine["played_today"] and mine["counted_game_id"] is None and mine["practice_today"] == 1


def test_a_guest_plays_practice_and_the_streak_spans_days(pool) -> None:  # noqa: ANN001
    visitor = accounts.create_guest(pool)
    assert not start(pool, visitor, at("2031-04-01T10:00:00"))["counted"]
    player = registered(pool)
    # The 1st, then 22:30 UTC on the 1st — already 00:30 on the 2nd in Berlin (summer
    # time) — then the 3rd and the 4th: four Berlin days in a row.
    starts = ["2031-04-01T10:00:00", "2031-04-01T22:30:00", "2031-04-03T09:00:00", "2031-04-04T20:00:00"]
    counted = [start(pool, player, at(s))["counted"] for s in starts]
    assert counted == [True, True, True, True]  # each the first of its Berlin day
    with pool.connection() as conn, conn.transaction():
        assert daily_market.player_status(conn, player, dt.date(2031, 4, 4))["streak"] == 4
        assert daily_market.player_status(conn, player, dt.date(2031, 4, 5))["streak"] == 4  # not yet played
        assert daily_market.player_status(conn, player, dt.date(2031, 4, 6))["streak"] == 0


def test_http_routes_start_and_list(lobby: ServiceProcess) -> None:  # noqa: F811
    visitor = guest(lobby.url)
    started = visitor.post(f"{lobby.url}/api/tagesmarkt/start", timeout=10)
    assert started.status_code == 200 and started.json()["counted"] is False
    attempt = visitor.get(f"{lobby.url}/api/tagesmarkt/versuch/{started.json()['game_id']}", timeout=10).json()
    assert attempt["attempt"]["counts"] is False and attempt["attempt"]["practice_reason"] == "guest"
    assert guest(lobby.url).get(f"{lobby.url}/api/tagesmarkt/versuch/{started.json()['game_id']}",
                                timeout=10).json() == {"attempt": None}  # somebody else's table
    overview = visitor.get(f"{lobby.url}/api/tagesmarkt", timeout=10).json()
    assert overview["needs_account"] is True and overview["mine"] is None
    assert overview["day"] == daily_market.berlin_day(daily_market.now_utc()).isoformat()
    name = f"Tl{uuid.uuid4().hex[:10]}"
    assert visitor.post(f"{lobby.url}/api/register", json={"name": name, "password": "passwort-lang"},
                        timeout=10).status_code in (200, 201)
    # Registered after practising today: today's first attempt was already made.
    again = visitor.post(f"{lobby.url}/api/tagesmarkt/start", timeout=10).json()
    assert again["counted"] is False
    attempt = visitor.get(f"{lobby.url}/api/tagesmarkt/versuch/{again['game_id']}", timeout=10).json()["attempt"]
    assert attempt["practice_reason"] == "later"
    mine = visitor.get(f"{lobby.url}/api/tagesmarkt", timeout=10).json()["mine"]
    assert mine["played_today"] and mine["practice_today"] == 2 and mine["streak"] == 1
    nobody = requests.get(f"{lobby.url}/api/tagesmarkt", headers={"X-Lang": "en"}, timeout=10)
    assert nobody.status_code == 401 and nobody.json()["error"]["code"] == "not_logged_in"
