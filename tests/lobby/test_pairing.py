"""Schnelle Partie's pairing of one wave (shared/pairing.py): nearest Elo, a common clock, widening."""

from __future__ import annotations

import random
import time

from shared.pairing import BASE_GAP, EXACT_LIMIT, GAP_PER_WAVE, Seeker, max_gap, pair_wave, score

CLOCKS = ("5+3", "3+2", "10+5", "15+10", "ohne")
ALL = frozenset(CLOCKS)


def seeker(user_id: int, elo: int, clocks: frozenset[str] = ALL, waves: int = 0) -> Seeker:
    return Seeker(user_id, elo, clocks, waves)


def couples(pairs) -> set[frozenset[int]]:  # noqa: ANN001
    return {frozenset((p.first.user_id, p.second.user_id)) for p in pairs}


def test_nearest_elo_is_paired_not_the_order_of_arrival() -> None:
    pairs = pair_wave([seeker(1, 1500), seeker(2, 1800), seeker(3, 1520), seeker(4, 1790)], CLOCKS)
    assert couples(pairs) == {frozenset({1, 3}), frozenset({2, 4})}


def test_the_pair_plays_a_clock_both_accept_the_preferred_first() -> None:
    a = seeker(1, 1500, frozenset({"3+2", "10+5"}))
    b = seeker(2, 1500, frozenset({"10+5", "15+10", "3+2"}))
    (pair,) = pair_wave([a, b], CLOCKS)
    assert pair.clock == "3+2"  # both accept 3+2 and 10+5; 3+2 comes first in the preference
    (pair,) = pair_wave([a, b], ("10+5", "3+2"))
    assert pair.clock == "10+5"


def test_no_common_clock_no_pair_and_the_third_player_fits() -> None:
    a = seeker(1, 1500, frozenset({"3+2"}))
    b = seeker(2, 1505, frozenset({"15+10"}))
    c = seeker(3, 1600, frozenset({"15+10", "3+2"}))
    assert pair_wave([a, b], CLOCKS) == []
    pairs = pair_wave([a, b, c], CLOCKS)
    assert len(pairs) == 1 and 3 in {pairs[0].first.user_id, pairs[0].second.user_id}


def test_too_far_apart_waits_and_the_gap_widens_with_missed_waves() -> None:
    low, high = seeker(1, 1400), seeker(2, 1400 + BASE_GAP + 50)
    assert pair_wave([low, high], CLOCKS) == []
    assert max_gap(1) == BASE_GAP + GAP_PER_WAVE
    # After one missed wave the longer-waiting one accepts the gap.
    assert len(pair_wave([seeker(1, 1400, waves=1), high], CLOCKS)) == 1


def test_more_pairs_beat_closer_pairs() -> None:
    # 1-2 are closest, but pairing them leaves 3 and 4 apart beyond the gap; 1-3 and 2-4 pairs all four.
    players = [seeker(1, 1500), seeker(2, 1510), seeker(3, 1350), seeker(4, 1690)]
    assert couples(pair_wave(players, CLOCKS)) == {frozenset({1, 3}), frozenset({2, 4})}


def test_a_player_who_missed_waves_is_preferred_among_equals() -> None:
    waiting, fresh, newcomer = seeker(1, 1500, waves=3), seeker(2, 1500), seeker(3, 1500)
    pairs = pair_wave([fresh, newcomer, waiting], CLOCKS)
    assert len(pairs) == 1 and 1 in {pairs[0].first.user_id, pairs[0].second.user_id}


def test_exact_for_small_pools_against_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(2, 8)
        players = [seeker(i, rng.randint(1200, 1800), frozenset(rng.sample(CLOCKS, rng.randint(1, 3))),
                          rng.randint(0, 2)) for i in range(n)]
        got = pair_wave(players, CLOCKS)
        used = [u for p in got for u in (p.first.user_id, p.second.user_id)]
        assert len(used) == len(set(used))
        got_key = (-len(got), sum(score(p.first, p.second) for p in got))
        assert got_key == _brute_force(players)


def _brute_force(players: list[Seeker]) -> tuple[int, int]:
    best = (0, 0)

    def search(free: list[Seeker], count: int, total: int) -> None:
        nonlocal best
        best = min(best, (-count, total))
        if len(free) < 2:
            return
        first, rest = free[0], free[1:]
        search(rest, count, total)
        for other in rest:
            s = score(first, other)
            if s is not None and first.clocks & other.clocks:
                search([p for p in rest if p is not other], count + 1, total + s)

    search(players, 0, 0)
    return best


def test_a_large_pool_is_paired_quickly_and_nobody_twice() -> None:
    rng = random.Random(3)
    players = [seeker(i, rng.randint(1000, 2000)) for i in range(200)]
    start = time.perf_counter()
    pairs = pair_wave(players, CLOCKS)
    assert time.perf_counter() - start < 5.0  # generous: the machine is shared
    used = [u for p in pairs for u in (p.first.user_id, p.second.user_id)]
    assert len(used) == len(set(used)) and len(pairs) >= 95
    assert EXACT_LIMIT % 2 == 0  # windows of an even size leave nobody out for parity's sake
    assert all(abs(p.first.elo - p.second.elo) <= BASE_GAP for p in pairs)
