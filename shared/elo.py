"""Elo per game: expected score, K-factor, the new ratings after one game.

Everyone starts at 1500.  K is 40 for a player's first 30 counted games (a new
rating finds its level quickly), then 20 (as FIDE does for most players).  Each
player's change is rounded to whole points on its own, so with different K the two
changes need not cancel.
"""

from __future__ import annotations

START = 1500
K_NEW = 40
K_SETTLED = 20
NEW_PLAYER_GAMES = 30


def expected(rating: int, opponent: int) -> float:
    """Expected score of ``rating`` against ``opponent`` (0..1)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def k_factor(games_played: int) -> int:
    """K for a player who has ``games_played`` counted games before this one."""
    return K_NEW if games_played < NEW_PLAYER_GAMES else K_SETTLED


def updated(rating: int, opponent: int, score: float, games_played: int) -> int:
    """The rating after scoring ``score`` (1, 0.5, 0) against ``opponent``."""
    return rating + round(k_factor(games_played) * (score - expected(rating, opponent)))
