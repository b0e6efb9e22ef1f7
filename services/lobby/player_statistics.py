"""A player's finished games as statistics: wins, losses and draws per game and per opponent.

Read from the ``games`` table (every finished game, rated or friendly, also against
the computer; two people at one device are no opponent and stay out), then filtered
and counted in plain Python, so the profile and Meine Partien count the same way.
The Elo history comes from ``rating_results`` (one point per counted rated game).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import psycopg

RESULTS = ("win", "loss", "draw")
KINDS = ("rated", "friendly", "computer")
GAMES_READ = 2000  # the newest this many games make the statistics


@dataclass(frozen=True)
class PlayedGame:
    game_id: int
    game: str
    kind: str  # rated | friendly | computer
    opponent: str  # "<user id>" or "computer:<strength>": the filter's value
    opponent_id: int | None
    opponent_name: str | None  # None for the computer (the client names it in its language)
    strength: str | None
    result: str  # win | loss | draw, from this player's side
    finished_at: str

    def opponent_json(self) -> dict[str, Any]:
        return {"key": self.opponent, "user_id": self.opponent_id, "name": self.opponent_name,
                "computer": self.strength}


def played_games(conn: psycopg.Connection, user_id: int, limit: int = GAMES_READ) -> list[PlayedGame]:
    """``user_id``'s finished games against someone, newest first."""
    rows = conn.execute(
        "SELECT g.id, g.game, g.mode, g.rated, g.strength, g.result, g.finished_at, g.seat0_user_id,"
        " g.seat1_user_id, u0.name AS seat0_name, u1.name AS seat1_name FROM games g"
        " LEFT JOIN users u0 ON u0.id = g.seat0_user_id LEFT JOIN users u1 ON u1.id = g.seat1_user_id"
        " WHERE g.status = 'finished' AND g.mode IN ('wartesaal', 'computer')"
        " AND (g.seat0_user_id = %(me)s OR g.seat1_user_id = %(me)s)"
        " ORDER BY g.finished_at DESC, g.id DESC LIMIT %(limit)s",
        {"me": user_id, "limit": limit},
    ).fetchall()
    return [game for game in (_played(row, user_id) for row in rows) if game is not None]


def _played(row: dict[str, Any], user_id: int) -> PlayedGame | None:
    seat = 0 if row["seat0_user_id"] == user_id else 1
    other = 1 - seat
    if row[f"seat{other}_user_id"] == user_id:
        return None  # both seats one person: nobody to count against
    winner = (row["result"] or {}).get("winner")
    result = "draw" if winner is None else "win" if winner == seat else "loss"
    opponent_id = row[f"seat{other}_user_id"]
    if opponent_id is None:
        kind, key = "computer", f"computer:{row['strength']}"
    else:
        kind, key = ("rated" if row["rated"] else "friendly"), str(opponent_id)
    return PlayedGame(
        game_id=int(row["id"]), game=row["game"], kind=kind, opponent=key, opponent_id=opponent_id,
        opponent_name=row[f"seat{other}_name"], strength=row["strength"] if opponent_id is None else None,
        result=result, finished_at=row["finished_at"].isoformat(),
    )


def matching(games: Iterable[PlayedGame], *, game: str | None = None, opponent: str | None = None,
             result: str | None = None, kind: str | None = None) -> list[PlayedGame]:
    """The games passing every filter given (None: no filter)."""
    return [g for g in games
            if (game is None or g.game == game) and (opponent is None or g.opponent == opponent)
            and (result is None or g.result == result) and (kind is None or g.kind == kind)]


def _counts() -> dict[str, int]:
    return {"wins": 0, "losses": 0, "draws": 0}


def _count(into: dict[str, int], result: str) -> None:
    into[{"win": "wins", "loss": "losses", "draw": "draws"}[result]] += 1


def per_game(games: Iterable[PlayedGame]) -> dict[str, dict[str, int]]:
    """``{game: {wins, losses, draws}}`` for the games played."""
    out: dict[str, dict[str, int]] = {}
    for g in games:
        _count(out.setdefault(g.game, _counts()), g.result)
    return out


def per_opponent(games: Iterable[PlayedGame]) -> list[dict[str, Any]]:
    """One row per opponent: ``{opponent, wins, losses, draws, games}``, most games first."""
    rows: dict[str, dict[str, Any]] = {}
    for g in games:
        row = rows.setdefault(g.opponent, {"opponent": g.opponent_json(), **_counts(), "games": 0})
        _count(row, g.result)
        row["games"] += 1
    return sorted(rows.values(), key=lambda r: (-r["games"], (r["opponent"]["name"] or "").casefold(),
                                                r["opponent"]["key"]))


def opponents(games: Iterable[PlayedGame]) -> list[dict[str, Any]]:
    """Everyone played against (for the filter), by name."""
    seen: dict[str, dict[str, Any]] = {}
    for g in games:
        seen.setdefault(g.opponent, g.opponent_json())
    return sorted(seen.values(), key=lambda o: ((o["name"] or "").casefold(), o["key"]))


def elo_history(conn: psycopg.Connection, user_id: int) -> dict[str, list[dict[str, Any]]]:
    """Per game, the Elo after every counted rated game, oldest first (with the value before the first)."""
    rows = conn.execute(
        "SELECT game_id, game, elo_before, elo_after, finished_at FROM rating_results WHERE user_id = %s"
        " ORDER BY finished_at, game_id",
        (user_id,),
    ).fetchall()
    out: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(r["game"], []).append({"game_id": int(r["game_id"]), "elo_before": int(r["elo_before"]),
                                              "elo": int(r["elo_after"]), "finished_at": r["finished_at"].isoformat()})
    return out
