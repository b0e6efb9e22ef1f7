"""Games whose deal others still play: after their end, only what play showed.

Every Tagesmarkt attempt of a Berlin day has the same deal (``services.lobby.daily_market``).
"After the game, everything" would hand the next player that day the deck order, the
Ratsmarken piles and the computer's hand — from the final view of a resigned attempt,
its replay or its record.  Such a game carries ``games.sealed_until`` (migration 0020,
set by whoever creates it): until then every view of it is the engine's
``sealed_view`` (what its seat saw in play, the end's reveal left out), and its replay
and record are refused; from then on it is a finished game like any other.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from shared.game_store import GameRow
from shared.games import get_game


def is_sealed(row: GameRow, now: dt.datetime | None = None) -> bool:
    """Whether ``row``'s deal is still others' (its replay and record wait, its views hide)."""
    if row.sealed_until is None:
        return False
    return (now or dt.datetime.now(dt.UTC)) < row.sealed_until


def view_of(row: GameRow, state: Any, seat: int | None) -> dict[str, Any]:
    """``seat``'s view of the table: the engine's ``view``, or its ``sealed_view`` while sealed."""
    engine = get_game(row.game)
    return engine.sealed_view(state, seat) if is_sealed(row) else engine.view(state, seat)
