"""shared.clock: Fischer increments, the lichess lag quota, flags and the per-move limit."""

from __future__ import annotations

from shared import clock
from shared.clock import Clock


def test_quota_gain_follows_scalachess() -> None:
    # 3+2: estimate 180 + 80 = 260 s → 260·2/5 + 15 = 119 cs → capped at 100 cs.
    assert clock.quota_gain_ms(Clock(180_000, 2000)) == 1000
    # 1+0: estimate 60 s → 24 + 15 = 39 cs.
    assert clock.quota_gain_ms(Clock(60_000, 0)) == 390
    assert clock.initial_quota_ms(Clock(60_000, 0)) == 3 * 390
    assert clock.max_quota_ms(Clock(60_000, 0)) == 7 * 390


def test_fischer_increment_after_a_move_in_time() -> None:
    t = clock.on_move(Clock(180_000, 2000), 10_000, quota_ms=0, elapsed_ms=4000)
    assert (t.spent_ms, t.remaining_ms, t.flagged) == (4000, 8000, False)


def test_lag_is_credited_up_to_the_quota_and_the_quota_refills() -> None:
    c = Clock(60_000, 0)  # gain 390 ms
    t = clock.on_move(c, 30_000, quota_ms=500, elapsed_ms=2000, reported_lag_ms=800)
    assert t.spent_ms == 1500  # only 500 of 800 ms credited
    assert t.quota_ms == 500 + 390 - 500
    t = clock.on_move(c, 30_000, quota_ms=2700, elapsed_ms=2000, reported_lag_ms=0)
    assert t.quota_ms == 7 * 390  # capped at the maximum


def test_lag_credit_never_exceeds_the_move_time() -> None:
    t = clock.on_move(Clock(60_000, 0), 30_000, quota_ms=1000, elapsed_ms=100, reported_lag_ms=900)
    assert t.spent_ms == 0 and t.quota_ms == 1000 + 390 - 100


def test_no_increment_once_the_clock_ran_out() -> None:
    t = clock.on_move(Clock(180_000, 2000), 1000, quota_ms=0, elapsed_ms=1500)
    assert t.flagged and t.remaining_ms == 0


def test_flag_grace_is_the_quota_at_most_two_seconds() -> None:
    c = Clock(180_000, 2000)
    assert clock.flag_after_ms(c, 5000, quota_ms=700) == 5700
    assert clock.flag_after_ms(c, 5000, quota_ms=6000) == 7000
    assert not clock.is_flagged(c, 5000, 700, 5699) and clock.is_flagged(c, 5000, 700, 5700)


def test_without_a_clock_ten_minutes_per_move() -> None:
    assert clock.time_left_ms(None, None, 60_000) == 9 * 60_000
    assert not clock.on_move(None, None, quota_ms=0, elapsed_ms=clock.PER_MOVE_LIMIT_MS).flagged
    assert clock.on_move(None, None, quota_ms=0, elapsed_ms=clock.PER_MOVE_LIMIT_MS + 1).flagged
    assert clock.flag_after_ms(None, None, quota_ms=500) == clock.PER_MOVE_LIMIT_MS + 500
