"""Tagesmarkt: one Battlehanse round against Mittel with the day's deal, and the Tagesliste.

The day is the date in Europe/Berlin (it changes at midnight there).  The day's deal —
deck and Ratsmarken — is a pure function of that date and the server's secret: the match
seed is an HMAC-SHA-256 of ``"tagesmarkt-YYYY-MM-DD"`` keyed with ``SECRET_KEY``, so every
player gets the same cards that day and other cards the next, and nobody can compute a
day's deck order in advance (a plain hash of the date would give it away to anyone with
the engine).  The player sits in seat 0 and begins (``first`` 0); one Ratssiegel
decides (``seals_to_win`` 1), so the table ends with the round.

An attempt is a local computer table (``games`` row, mode ``computer``) plus a row in
``hanse_daily_attempts``.  The day's first attempt of a registered account is the
counted one; every later one — and every attempt of a guest — is practice.  The
score (the player's points minus the computer's in the first round's Rundentafel) is
read from the table's own move log once that round has ended; it is written the first
time anybody asks for the Tagesliste or the player's status after that, so nothing in
the game service has to know about the Tagesmarkt.  A round played with Zug zurück or
a Tipp keeps its score but is practice.  The Tagesliste shows the ten best
counted scores of a day; the streak is the number of days in a row, up to today (or
up to yesterday while today has no attempt yet), with an attempt.

Every attempt of a day shares its deal, so each table is sealed until the day ends
(``games.sealed_until``, :mod:`services.game.rules.sealed`): a finished or given-up attempt
shows only what its player saw in play, and its replay and record wait for the next day.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import psycopg

from shared import game_store
from shared.accounts import Account
from shared.games import get_game
from shared.table_replay import StateCache

if TYPE_CHECKING:
    from shared.games.hanse.state import State as HanseState

BERLIN = ZoneInfo("Europe/Berlin")
OPTIONS = {"first": 0, "seals_to_win": 1}
STRENGTH = "mittel"
PLAYER_SEAT = 0
LIST_SIZE = 10


def now_utc() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def berlin_day(now: dt.datetime) -> dt.date:
    """The Tagesmarkt day of the moment ``now`` (timezone-aware): its date in Europe/Berlin."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    return now.astimezone(BERLIN).date()


def day_end(day: dt.date) -> dt.datetime:
    """When ``day`` ends in Berlin: until then its deal is sealed (``games.sealed_until``)."""
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=BERLIN)


def daily_seed(day: dt.date, secret: str) -> int:
    """The match seed of ``day``'s deal (62 bits of an HMAC-SHA-256 keyed with the server's
    secret: stable on every process of one installation, unknowable outside it)."""
    digest = hmac.new(secret.encode(), f"tagesmarkt-{day.isoformat()}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def daily_deal(day: dt.date, secret: str) -> Any:
    """The engine state a Tagesmarkt table starts from on ``day``."""
    return get_game("hanse").new_game(dict(OPTIONS), daily_seed(day, secret))


def streak(days: set[dt.date], today: dt.date) -> int:
    """Days in a row with an attempt, ending today — or yesterday while today has none yet."""
    day = today if today in days else today - dt.timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= dt.timedelta(days=1)
    return count


def round_score(state: HanseState) -> int | None:
    """The player's points minus the computer's in the first round, once that round has ended."""
    rounds = state.rounds
    if not rounds:
        return None
    players = rounds[0]["players"]
    return int(players[PLAYER_SEAT]["total"] - players[1 - PLAYER_SEAT]["total"])


def start_attempt(conn: psycopg.Connection, account: Account, now: dt.datetime, secret: str) -> dict[str, Any]:
    """Create today's table for ``account`` and record the attempt (inside the caller's transaction)."""
    day = berlin_day(now)
    # The account's row lock orders two starts of the same player: only one sees no attempt.
    conn.execute("SELECT id FROM users WHERE id = %s FOR UPDATE", (account.id,))
    earlier = conn.execute(
        "SELECT count(*) AS n FROM hanse_daily_attempts WHERE user_id = %s AND day = %s", (account.id, day)
    ).fetchone()["n"]
    counted = not account.guest and earlier == 0
    game_id = game_store.create_game(
        conn, game="hanse", options=dict(OPTIONS), seed=daily_seed(day, secret), seats=(account.id, None),
        mode="computer", clock=None, rated=False, stake=0, strength=STRENGTH, sealed_until=day_end(day),
    )
    conn.execute(
        "INSERT INTO hanse_daily_attempts (user_id, day, game_id, counted, started_at) VALUES (%s, %s, %s, %s, %s)",
        (account.id, day, game_id, counted, now),
    )
    return {"game_id": game_id, "day": day.isoformat(), "counted": counted}


def settle_scores(conn: psycopg.Connection, where: str, params: tuple, finished_only: bool = False) -> None:
    """Write the score of every open attempt matching ``where`` whose round has ended.

    ``finished_only`` looks only at ended tables: one Ratssiegel ends the match with the
    round, so that is every scored round but a full tie's (which its player's own status
    settles); the Tagesliste then need not replay the day's running tables."""
    open_rows = conn.execute(
        # reshuffles (one per Zug zurück) and hints (Tipps) are the table's own marks (0007).
        "SELECT a.id, a.game_id, jsonb_array_length(g.reshuffles) > 0 OR g.hints > 0 AS assisted"
        " FROM hanse_daily_attempts a JOIN games g ON g.id = a.game_id"
        f" WHERE a.score IS NULL AND g.status <> 'aborted' AND ({where})"
        + (" AND g.status = 'finished'" if finished_only else ""),
        params,
    ).fetchall()
    cache = StateCache(size=len(open_rows) + 1)
    for attempt in open_rows:
        row = game_store.load(conn, attempt["game_id"])
        if row is None:
            continue
        score = round_score(cache.state(row))
        if score is not None:
            # Zug zurück or a Tipp in the round: the score stays the player's, but it is
            # practice (no other attempt of the day can take its place in the list).
            conn.execute(
                "UPDATE hanse_daily_attempts SET score = %s, finished_at = COALESCE(%s, now()),"
                " counted = counted AND NOT %s WHERE id = %s AND score IS NULL",
                (score, row.finished_at, attempt["assisted"], attempt["id"]),
            )


def tagesliste(conn: psycopg.Connection, day: dt.date) -> list[dict[str, Any]]:
    """The ten best counted scores of ``day`` (earlier finish first on equal scores)."""
    settle_scores(conn, "a.day = %s AND a.counted", (day,), finished_only=True)
    rows = conn.execute(
        "SELECT u.name, a.score FROM hanse_daily_attempts a JOIN users u ON u.id = a.user_id"
        " WHERE a.day = %s AND a.counted AND a.score IS NOT NULL AND NOT u.is_guest"
        " ORDER BY a.score DESC, a.finished_at, a.id LIMIT %s",
        (day, LIST_SIZE),
    ).fetchall()
    return [{"rank": i + 1, "name": r["name"], "score": int(r["score"])} for i, r in enumerate(rows)]


def attempt_at(conn: psycopg.Connection, account: Account, game_id: int) -> dict[str, Any] | None:
    """``account``'s attempt at table ``game_id`` as its table shows it (``DailyAttempt``), or None."""
    row = conn.execute(
        "SELECT a.day, a.counted, jsonb_array_length(g.reshuffles) > 0 OR g.hints > 0 AS assisted,"
        " EXISTS (SELECT 1 FROM hanse_daily_attempts e WHERE e.user_id = a.user_id AND e.day = a.day"
        "         AND e.id < a.id) AS later"
        " FROM hanse_daily_attempts a JOIN games g ON g.id = a.game_id WHERE a.game_id = %s AND a.user_id = %s",
        (game_id, account.id),
    ).fetchone()
    if row is None:
        return None
    # Once scored, counted already says "and not assisted" (settle_scores); before, the table's marks say it.
    counts = row["counted"] and not row["assisted"]
    # Not counted from the start and neither later nor assisted: it was started as a guest.
    reason = None if counts else "later" if row["later"] else "assisted" if row["assisted"] else "guest"
    return {"game_id": game_id, "day": row["day"].isoformat(), "counts": counts, "practice_reason": reason}


def player_status(conn: psycopg.Connection, account: Account, today: dt.date) -> dict[str, Any]:
    """The player's own line: today's counted attempt (running or its score), practice count, streak."""
    settle_scores(conn, "a.user_id = %s AND a.day = %s", (account.id, today))
    rows = conn.execute(
        "SELECT a.day, a.counted, a.score, a.game_id, g.status FROM hanse_daily_attempts a"
        " JOIN games g ON g.id = a.game_id WHERE a.user_id = %s AND a.day > %s",
        (account.id, today - dt.timedelta(days=400)),
    ).fetchall()
    todays = [r for r in rows if r["day"] == today]
    # A counted table given up or left before its round ended scores nothing: no counted
    # attempt today any more (the page says so), but it was the day's first attempt.
    counted = next((r for r in todays if r["counted"] and (r["score"] is not None or r["status"] == "running")),
                   None)
    return {
        "played_today": bool(todays),
        "counted_game_id": counted["game_id"] if counted else None,
        "counted_score": counted["score"] if counted else None,
        "practice_today": sum(1 for r in todays if not r["counted"]),
        "streak": streak({r["day"] for r in rows}, today),
    }
