"""Puzzle ratings in PostgreSQL: a player's per game and each puzzle's, moved by Glicko-2.

Both the Aufgaben (:mod:`services.lobby.puzzle_play`) and the Handelsaufgaben
(:mod:`services.lobby.hanse_puzzles`) rate a first attempt through :func:`rate`: it locks the
player's and the puzzle's rows (``FOR UPDATE``, rows created on first use), applies one
Glicko-2 duel (:func:`shared.glicko2.duel`) and writes both.  It runs inside the caller's
transaction, the one that marks the attempt finished, so a rating moves exactly once per
counted attempt.
"""

from __future__ import annotations

from typing import Any

import psycopg

from shared import glicko2


def _rating(row: dict[str, Any] | None, start: float) -> glicko2.Rating:
    if row is None:
        return glicko2.Rating(start, glicko2.START_RD, glicko2.START_VOLATILITY)
    return glicko2.Rating(float(row["rating"]), float(row["rd"]), float(row["volatility"]))


def player_rating(conn: psycopg.Connection, user_id: int, game: str) -> dict[str, Any]:
    """The player's puzzle rating in ``game`` (the start values before any counted attempt)."""
    row = conn.execute(
        "SELECT rating, rd, volatility, attempts, solved FROM puzzle_player_ratings WHERE user_id = %s AND game = %s",
        (user_id, game),
    ).fetchone()
    current = _rating(row, glicko2.START_RATING)
    return {"rating": round(current.rating), "rd": round(current.rd),
            "attempts": int(row["attempts"]) if row else 0, "solved": int(row["solved"]) if row else 0}


def puzzle_ratings(conn: psycopg.Connection, game: str) -> dict[str, float]:
    """The current rating of every puzzle of ``game`` that has been rated at least once."""
    rows = conn.execute("SELECT puzzle_id, rating FROM puzzle_ratings WHERE game = %s", (game,)).fetchall()
    return {row["puzzle_id"]: float(row["rating"]) for row in rows}


def puzzle_rating(conn: psycopg.Connection, game: str, puzzle_id: str, initial: float) -> glicko2.Rating:
    row = conn.execute(
        "SELECT rating, rd, volatility FROM puzzle_ratings WHERE game = %s AND puzzle_id = %s", (game, puzzle_id)
    ).fetchone()
    return _rating(row, initial)


def rate(conn: psycopg.Connection, user_id: int, game: str, puzzle_id: str, initial: float,
         score: float) -> dict[str, float]:
    """Apply one counted attempt (``score``: 1 solved, 0 failed, or between) to the player's and
    the puzzle's ratings; returns both before and after (rounded for display)."""
    conn.execute(
        "INSERT INTO puzzle_player_ratings (user_id, game, rating, rd, volatility) VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT DO NOTHING",
        (user_id, game, glicko2.START_RATING, glicko2.START_RD, glicko2.START_VOLATILITY),
    )
    conn.execute(
        "INSERT INTO puzzle_ratings (game, puzzle_id, rating, rd, volatility) VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT DO NOTHING",
        (game, puzzle_id, float(initial), glicko2.START_RD, glicko2.START_VOLATILITY),
    )
    # Always the player's row first, then the puzzle's: two attempts never wait on each other in a circle.
    player_row = conn.execute(
        "SELECT rating, rd, volatility FROM puzzle_player_ratings WHERE user_id = %s AND game = %s FOR UPDATE",
        (user_id, game),
    ).fetchone()
    puzzle_row = conn.execute(
        "SELECT rating, rd, volatility FROM puzzle_ratings WHERE game = %s AND puzzle_id = %s FOR UPDATE",
        (game, puzzle_id),
    ).fetchone()
    player, puzzle = _rating(player_row, glicko2.START_RATING), _rating(puzzle_row, initial)
    new_player, new_puzzle = glicko2.duel(player, puzzle, score)
    solved = 1 if score >= 1 else 0
    conn.execute(
        "UPDATE puzzle_player_ratings SET rating = %s, rd = %s, volatility = %s, attempts = attempts + 1,"
        " solved = solved + %s, updated_at = now() WHERE user_id = %s AND game = %s",
        (new_player.rating, new_player.rd, new_player.volatility, solved, user_id, game),
    )
    conn.execute(
        "UPDATE puzzle_ratings SET rating = %s, rd = %s, volatility = %s, attempts = attempts + 1,"
        " solved = solved + %s, updated_at = now() WHERE game = %s AND puzzle_id = %s",
        (new_puzzle.rating, new_puzzle.rd, new_puzzle.volatility, solved, game, puzzle_id),
    )
    return {"player_before": player.rating, "player_after": new_player.rating,
            "puzzle_before": puzzle.rating, "puzzle_after": new_puzzle.rating}
