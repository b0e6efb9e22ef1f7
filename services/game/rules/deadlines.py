"""A table's clock and deadlines: whose clock runs, and when the flag falls.

A table runs against a chess clock, or (Wartesaal games ohne Uhr) against the game's
allowance per move (:mod:`services.game.rules.move_limits`), or against nothing
(computer and same-device tables without a clock).  A round pause's countdown is a
deadline too: when it runs out the table ends the pause itself.  The flag schedule
(:mod:`services.game.tables.flag_schedule`) keeps each running table's deadline; the
payload shows whose clock runs.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from services.game.rules.move_limits import per_move_limit_ms
from services.game.rules.round_pause import pause_deadline
from shared import clock
from shared.game_store import GameRow
from shared.games import get_game


def clock_seat(row: GameRow, state: Any) -> int | None:
    """The seat whose clock runs: the single seat to move (none during a simultaneous setup)."""
    if not row.running:
        return None
    to_move = get_game(row.game).to_move(state)
    return to_move[0] if len(to_move) == 1 else None


def has_time_limit(row: GameRow) -> bool:
    """A clock, or (Wartesaal games ohne Uhr) the game's limit per move."""
    return row.clock is not None or per_move_limit_ms(row) is not None


def flag_deadline(row: GameRow, state: Any) -> dt.datetime | None:
    """When the side to move loses on time if it does not move, or when a round pause
    ends by itself (None: nothing runs)."""
    pause_end = pause_deadline(row, state)
    if pause_end is not None:
        return pause_end
    seat = clock_seat(row, state)
    if seat is None or not has_time_limit(row) or row.seats[seat] is None:
        return None
    if row.clock is None:
        limit = per_move_limit_ms(row)
        assert limit is not None
        after = limit + min(max(0, row.lag_quota_ms[seat]), clock.MAX_GRACE_MS)
    else:
        remaining = row.remaining_ms[seat] if row.remaining_ms is not None else None
        after = clock.flag_after_ms(row.clock, remaining, row.lag_quota_ms[seat])
    return row.turn_started_at + dt.timedelta(milliseconds=after)
