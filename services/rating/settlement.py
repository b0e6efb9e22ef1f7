"""What a finished game does to ratings and Taler: the ``game_finished`` handler's work.

Runs inside the consumer's transaction (``shared.event_stream``), so everything here
commits together with the record that the event was processed.  Exactly once per
game: the event id (processed_events) and the game id (``rated_games``) both guard.

Rules (seeds 001/004):

* computer and same-device tables change nothing;
* a game counts from ten half-moves or three minutes (Battlegeneral, seed 002: from
  four minutes, or two when the opponent left; its points never drop below 0);
  before that nothing changes and the stakes go back;
* friendly games (not rated) change nothing (they carry no stake);
* a counted rated game: points +10 / −10 / 0 and Elo (``shared.elo``); the winner
  receives the pot (both stakes), a draw returns each stake.

Both stakes left the balances when the lobby started the game, so over every game
the ledger rows with its ref sum to zero.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import psycopg

from shared import elo, ledger
from shared.event_stream import StreamEvent
from shared.games.table_reason import TableReason
from shared.schemas.outbox_events import GameFinished

POINTS = {1.0: 10, 0.5: 0, 0.0: -10}
POT_REASON = "pot"
RETURN_REASON = "stake_return"


@dataclass(frozen=True)
class CountRule:
    """When a game of one kind counts, and how low its points may go."""

    plies: int | None  # counted from this many half-moves (None: by time only)
    duration_ms: int  # ... or from this much playing time
    left_duration_ms: int | None = None  # when the loser left the game: counted from this
    points_floor: int | None = None


DEFAULT_RULE = CountRule(plies=10, duration_ms=3 * 60 * 1000)
COUNT_RULES = {"general": CountRule(plies=None, duration_ms=4 * 60 * 1000, left_duration_ms=2 * 60 * 1000,
                                    points_floor=0)}


def counted(finished: GameFinished) -> bool:
    """Whether a game has lasted long enough to count (by default ten half-moves or three minutes)."""
    rule = COUNT_RULES.get(finished.game, DEFAULT_RULE)
    if rule.plies is not None and finished.plies >= rule.plies:
        return True
    left = finished.reason == TableReason.LEFT
    if left and rule.left_duration_ms is not None and finished.duration_ms >= rule.left_duration_ms:
        return True
    return finished.duration_ms >= rule.duration_ms


def settle(conn: psycopg.Connection, event: StreamEvent) -> None:
    finished = GameFinished.read(event.payload)
    if finished is None:
        return  # kept in rating_finished_games for inspection; nothing to rate (e.g. platform probes)
    game_id = finished.game_id
    wartesaal = finished.mode == "wartesaal"
    counts = wartesaal and finished.rated and counted(finished)
    first = conn.execute(
        "INSERT INTO rated_games (game_id, event_id, game, counted) VALUES (%s, %s, %s, %s)"
        " ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
        (game_id, event.event_id, finished.game, counts),
    ).fetchone()
    if first is None or not wartesaal:
        return  # settled before (another event for the same game), or a local table
    seats = [int(u) for u in finished.seats]
    winner = finished.winner
    stake = finished.stake
    ref = f"game:{game_id}"
    if stake > 0:
        if counts and winner is not None:
            ledger.record(conn, seats[winner], 2 * stake, POT_REASON, ref)
        else:
            for user_id in seats:
                ledger.record(conn, user_id, stake, RETURN_REASON, ref)
    if counts:
        scores = (0.5, 0.5) if winner is None else ((1.0, 0.0) if winner == 0 else (0.0, 1.0))
        _rate(conn, game_id, finished.game, seats, scores, _finished_at(event))


def _finished_at(event: StreamEvent) -> dt.datetime:
    try:
        return dt.datetime.fromisoformat(event.created_at)
    except (TypeError, ValueError):
        return dt.datetime.now(dt.UTC)


def _rate(conn: psycopg.Connection, game_id: int, game: str, seats: list[int], scores: tuple[float, float],
          finished_at: dt.datetime) -> None:
    for user_id in seats:
        conn.execute("INSERT INTO ratings (user_id, game) VALUES (%s, %s) ON CONFLICT DO NOTHING", (user_id, game))
    # Locked in id order: two games of the same players settle one after the other, never deadlocked.
    rows = conn.execute(
        "SELECT user_id, elo, games, points FROM ratings WHERE game = %s AND user_id = ANY(%s)"
        " ORDER BY user_id FOR UPDATE",
        (game, seats),
    ).fetchall()
    before = {int(r["user_id"]): (int(r["elo"]), int(r["games"]), int(r["points"])) for r in rows}
    floor = COUNT_RULES.get(game, DEFAULT_RULE).points_floor
    for seat, user_id in enumerate(seats):
        rating, games, total = before[user_id]
        opponent = before[seats[1 - seat]][0]
        score = scores[seat]
        after = elo.updated(rating, opponent, score, games)
        points = POINTS[score] if floor is None else max(POINTS[score], floor - total)
        conn.execute(
            "UPDATE ratings SET elo = %s, games = games + 1, points = points + %s, wins = wins + %s,"
            " losses = losses + %s, draws = draws + %s, updated_at = now() WHERE user_id = %s AND game = %s",
            (after, points, int(score == 1.0), int(score == 0.0), int(score == 0.5), user_id, game),
        )
        conn.execute(
            "INSERT INTO rating_results (game_id, user_id, game, score, points, elo_before, elo_after, finished_at)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            (game_id, user_id, game, score, points, rating, after, finished_at),
        )
