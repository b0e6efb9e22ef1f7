"""The lists per game, read from the rating tables.

* ``elo``: Rangliste, by Elo (players with at least one counted game);
* ``month``: Monatsliste, points of counted games finished in the current calendar
  month in Europe/Berlin (the month turns at midnight Berlin time, not UTC);
* ``all``: ewige Liste, points of all counted games.

Ties rank equal ("1, 1, 3"), the order within a tie is by name.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg

from shared.games import GAME_NAMES

KINDS = ("elo", "month", "all")
TIME_ZONE = "Europe/Berlin"
DEFAULT_LIMIT = 100


def _ranked(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    out = []
    for i, row in enumerate(rows):
        rank = out[-1]["rank"] if out and out[-1][key] == row[key] else i + 1
        out.append({"rank": rank, **row})
    return out


def list_of(conn: psycopg.Connection, game: str, kind: str, now: dt.datetime | None = None,
            limit: int = DEFAULT_LIMIT) -> list[dict[str, Any]]:
    """The list ``kind`` of ``game``, best first: ``[{rank, user_id, name, elo|points, games}]``."""
    if game not in GAME_NAMES or kind not in KINDS:
        raise ValueError("unknown game or list")
    if kind == "elo":
        rows = conn.execute(
            "SELECT r.user_id, u.name, r.elo, r.games FROM ratings r JOIN users u ON u.id = r.user_id"
            " WHERE r.game = %s AND r.games > 0 ORDER BY r.elo DESC, u.name, r.user_id LIMIT %s",
            (game, limit),
        ).fetchall()
        return _ranked([dict(r) for r in rows], "elo")
    if kind == "all":
        rows = conn.execute(
            "SELECT r.user_id, u.name, r.points, r.games FROM ratings r JOIN users u ON u.id = r.user_id"
            " WHERE r.game = %s AND r.games > 0 ORDER BY r.points DESC, u.name, r.user_id LIMIT %s",
            (game, limit),
        ).fetchall()
        return _ranked([dict(r) for r in rows], "points")
    now = now or dt.datetime.now(dt.UTC)
    rows = conn.execute(
        "SELECT x.user_id, u.name, SUM(x.points)::int AS points, count(*)::int AS games FROM rating_results x"
        " JOIN users u ON u.id = x.user_id WHERE x.game = %(game)s"
        " AND date_trunc('month', x.finished_at AT TIME ZONE %(tz)s) = date_trunc('month', %(now)s AT TIME ZONE %(tz)s)"
        " GROUP BY x.user_id, u.name ORDER BY points DESC, u.name, x.user_id LIMIT %(limit)s",
        {"game": game, "tz": TIME_ZONE, "now": now, "limit": limit},
    ).fetchall()
    return _ranked([dict(r) for r in rows], "points")


def player(conn: psycopg.Connection, user_id: int) -> dict[str, Any] | None:
    """A player's ratings per game and their last counted results."""
    user = conn.execute("SELECT id, name FROM users WHERE id = %s", (user_id,)).fetchone()
    if user is None:
        return None
    ratings = conn.execute(
        "SELECT game, elo, games, wins, losses, draws, points FROM ratings WHERE user_id = %s ORDER BY game",
        (user_id,),
    ).fetchall()
    recent = conn.execute(
        "SELECT game_id, game, score, points, elo_before, elo_after, finished_at FROM rating_results"
        " WHERE user_id = %s ORDER BY finished_at DESC LIMIT 20",
        (user_id,),
    ).fetchall()
    return {
        "user_id": user["id"], "name": user["name"],
        "ratings": {r["game"]: dict(r) for r in ratings},
        "recent": [{**dict(r), "finished_at": r["finished_at"].isoformat()} for r in recent],
    }


def elos_changed_since(conn: psycopg.Connection, since: dt.datetime) -> tuple[dict[int, dict[str, int]], dt.datetime]:
    """Elo per game of every player whose rating changed after ``since``, and the newest change seen."""
    rows = conn.execute(
        "SELECT user_id, game, elo, updated_at FROM ratings WHERE user_id IN"
        " (SELECT user_id FROM ratings WHERE updated_at > %s) ORDER BY user_id",
        (since,),
    ).fetchall()
    out: dict[int, dict[str, int]] = {}
    newest = since
    for r in rows:
        out.setdefault(int(r["user_id"]), {})[r["game"]] = int(r["elo"])
        newest = max(newest, r["updated_at"])
    return out, newest
