"""How long a player whose ↶ Zurück was declined waits before asking again.

lichess's rule (lila ``RoundAsyncActor.TakebackSituation``): after the n-th decline
the next request waits ``10 s × n²`` (n counted up to 10), so 10 s, 40 s, 90 s …;
an accepted request starts over.  Counted per asking seat here, so one player's
declined requests never hold back the other's.  The count and the time of the last
decline live in the table's row (migration 0013), so every game-service process
enforces the same wait.
"""

from __future__ import annotations

import datetime as dt

BASE_S = 10
MAX_COUNTED = 10


def wait_after(declines: int) -> dt.timedelta:
    """The wait after the ``declines``-th declined request (none before the first)."""
    n = min(max(0, declines), MAX_COUNTED)
    return dt.timedelta(seconds=BASE_S * n * n)


def may_ask_at(declines: int, last_declined: dt.datetime | None) -> dt.datetime | None:
    """When the seat may ask again (None: at once)."""
    if declines <= 0 or last_declined is None:
        return None
    return last_declined + wait_after(declines)


def seconds_left(declines: int, last_declined: dt.datetime | None, now: dt.datetime) -> int:
    """Whole seconds (rounded up) until the seat may ask again; 0 when it may now."""
    at = may_ask_at(declines, last_declined)
    if at is None or at <= now:
        return 0
    return max(1, int(-(-(at - now).total_seconds() // 1)))
