"""The chess clock of a table: Fischer increments, lichess-style lag credit, pure functions.

Server time is the truth.  A table stores what each clock showed when the running
turn began (``remaining_ms``) and when that was (``turn_started_at``); everything
else is computed from those and "now", so any game-service process, also one started
after a crash, reads the same clocks.

Lag compensation follows scalachess (``Clock.scala``, ``LagTracker.scala``; see
``shared/notes/platform-anchors.md`` §1.4): a move's reported network lag is credited
back up to the player's *quota*; the quota grows by ``gain`` every move up to
``7 × gain`` and starts at ``3 × gain``, where ``gain = min(1 s, (base + 40·inc)·2/5
/ 100 + 0.15 s)``.  A flag falls only after a grace of ``min(quota, 2 s)``, so a
move already on its way is not beaten by the flag.

The reported lag is the client's own measured round trip to the game service (its
``table:ping``): the server's turn time runs from sending the state to receiving the
move, which spans one whole round trip besides the thinking.  The client is not
trusted with more than :data:`MAX_REPORTED_LAG_MS` per move, whatever it claims (the
quota limits what a steady over-claimer gains to one ``gain`` per move).

Without a clock ("ohne Uhr") every move may take at most :data:`PER_MOVE_LIMIT_MS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PER_MOVE_LIMIT_MS = 10 * 60 * 1000
MAX_GAIN_MS = 1000
MAX_GRACE_MS = 2000
MAX_REPORTED_LAG_MS = 1000  # a round trip claimed beyond this counts as thinking time


@dataclass(frozen=True)
class Clock:
    """Fischer time control: ``base_ms`` per player plus ``inc_ms`` per own move."""

    base_ms: int
    inc_ms: int

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Clock | None:
        """``{"base_ms", "inc_ms"}`` or None (ohne Uhr)."""
        if data is None:
            return None
        base, inc = int(data["base_ms"]), int(data["inc_ms"])
        if base <= 0 or inc < 0:
            raise ValueError(f"bad clock {data!r}")
        return cls(base, inc)


def quota_gain_ms(clock: Clock | None) -> int:
    """scalachess ``quotaGain``: min(100 cs, estimate·2/5 + 15 cs), estimate = base + 40·inc (seconds)."""
    if clock is None:
        return MAX_GAIN_MS
    estimate_s = clock.base_ms / 1000 + 40 * clock.inc_ms / 1000
    # estimate·2/5 seconds expressed in centiseconds is estimate·0.4 cs; +15 cs; ×10 → ms.
    return min(MAX_GAIN_MS, int(round((estimate_s * 2 / 5 + 15) * 10)))


def initial_quota_ms(clock: Clock | None) -> int:
    return 3 * quota_gain_ms(clock)


def max_quota_ms(clock: Clock | None) -> int:
    return 7 * quota_gain_ms(clock)


@dataclass(frozen=True)
class MoveTiming:
    """What one move did to its player's clock."""

    spent_ms: int  # time charged for the move (elapsed minus lag credit), never negative
    remaining_ms: int  # the mover's clock after the move (increment included if not flagged)
    quota_ms: int  # the mover's lag quota after the move
    flagged: bool  # the clock had run out before the move arrived


def on_move(clock: Clock | None, remaining_ms: int | None, quota_ms: int, elapsed_ms: int,
            reported_lag_ms: int = 0) -> MoveTiming:
    """Charge a move that took ``elapsed_ms`` of server time, crediting ``reported_lag_ms``.

    With a clock: ``comp = min(lag, quota)`` (lag capped at :data:`MAX_REPORTED_LAG_MS`); the quota becomes ``min(quota + gain −
    comp, 7·gain)``; the increment is added only if the clock is still positive.
    Without a clock (``clock`` None) the move is flagged past :data:`PER_MOVE_LIMIT_MS`.
    """
    elapsed_ms = max(0, elapsed_ms)
    lag = min(max(0, reported_lag_ms), MAX_REPORTED_LAG_MS)
    comp = min(lag, quota_ms, elapsed_ms)
    gain = quota_gain_ms(clock)
    quota = min(quota_ms + gain - comp, max_quota_ms(clock))
    spent = elapsed_ms - comp
    if clock is None:
        return MoveTiming(spent, 0, quota, spent > PER_MOVE_LIMIT_MS)
    left = (remaining_ms or 0) - spent
    if left <= 0:
        return MoveTiming(spent, 0, quota, True)
    return MoveTiming(spent, left + clock.inc_ms, quota, False)


def time_left_ms(clock: Clock | None, remaining_ms: int | None, elapsed_ms: int) -> int:
    """What the running clock shows after ``elapsed_ms`` of the turn (the per-move limit without a clock)."""
    if clock is None:
        return max(0, PER_MOVE_LIMIT_MS - elapsed_ms)
    return max(0, (remaining_ms or 0) - elapsed_ms)


def flag_after_ms(clock: Clock | None, remaining_ms: int | None, quota_ms: int) -> int:
    """Turn time after which the side to move has lost on time, grace of min(quota, 2 s) included."""
    grace = min(max(0, quota_ms), MAX_GRACE_MS)
    if clock is None:
        return PER_MOVE_LIMIT_MS + grace
    return max(0, remaining_ms or 0) + grace


def is_flagged(clock: Clock | None, remaining_ms: int | None, quota_ms: int, elapsed_ms: int) -> bool:
    return elapsed_ms >= flag_after_ms(clock, remaining_ms, quota_ms)
