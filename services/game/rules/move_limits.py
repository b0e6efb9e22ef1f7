"""The time one move may take at a table without a clock ("ohne Uhr"), by game.

The Wartesaal plays without a chess clock: every move gets a fixed allowance, and
whoever exceeds it loses (``zugzeit``).  Most games give ten minutes
(:data:`shared.clock.PER_MOVE_LIMIT_MS`); a game whose product text names its own
allowance is listed in :data:`MOVE_LIMIT_MS_BY_GAME` — data, so a fifth game adds
a line, not a branch.  Computer and same-device tables have no limit.
"""

from __future__ import annotations

from shared import clock
from shared.game_store import GameRow

# Seed 002: "Fünf Minuten pro Zug" for Battlegeneral.
MOVE_LIMIT_MS_BY_GAME: dict[str, int] = {
    "general": 5 * 60 * 1000,
}


def per_move_limit_ms(row: GameRow) -> int | None:
    """The allowance per move at this table, or None (a chess clock runs, or no limit applies)."""
    if row.clock is not None or row.mode != "wartesaal":
        return None
    return MOVE_LIMIT_MS_BY_GAME.get(row.game, clock.PER_MOVE_LIMIT_MS)


def minutes_text(limit_ms: int) -> tuple[str, str]:
    """``("5 Minuten", "5 minutes")`` for the result text of an exceeded move time."""
    minutes = limit_ms // 60_000
    return (f"{minutes} Minute{'n' if minutes != 1 else ''}", f"{minutes} minute{'s' if minutes != 1 else ''}")
