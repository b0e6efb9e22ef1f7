"""The pause between two rounds (Battlehanse's Rundentafel), for any engine that reports one.

An engine that plays in rounds has the :class:`~shared.games.capabilities.RoundPauses`
capability; while its ``is_round_pause(state)`` is true nobody is to move, so the clocks
stand still (``to_move`` is empty), and the only legal move ends the pause.  Who ends it depends on the table's mode, which :data:`COUNTDOWN_MS`
says: in Wartesaal games a countdown runs and the table plays that move itself when it
runs out (the flag scheduler watches the deadline like a flag); at local tables the
Rundentafel stays until the player taps Weiter.  Engines without rounds never pause.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from shared.game_store import GameRow
from shared.games import get_game
from shared.games.capabilities import RoundPauses

# Per table mode: the countdown before the table ends the pause itself, or None when
# the seated player ends it (computer and same-device tables).
COUNTDOWN_MS: dict[str, int | None] = {"wartesaal": 12_000, "computer": None, "same_device": None}


def in_round_pause(row: GameRow, state: Any) -> bool:
    """True while a running table shows the result of a round before the next one."""
    engine = get_game(row.game)
    return row.running and isinstance(engine, RoundPauses) and engine.is_round_pause(state)


def pause_deadline(row: GameRow, state: Any) -> dt.datetime | None:
    """When the table ends the pause by itself (None: no pause, or the player ends it)."""
    if not in_round_pause(row, state):
        return None
    countdown = COUNTDOWN_MS.get(row.mode)
    if countdown is None:
        return None
    return row.turn_started_at + dt.timedelta(milliseconds=countdown)


def player_may_end_pause(row: GameRow) -> bool:
    """At local tables the player ends the pause; in Wartesaal games only the countdown does."""
    return COUNTDOWN_MS.get(row.mode) is None


def pause_end_move(row: GameRow, state: Any) -> str:
    """The one move that ends the pause, as the engine names it (Battlehanse: ``weiter``)."""
    return get_game(row.game).legal_moves(state, None)[0].text
