"""Schnelle Partie: who plays whom in one wave of a game's pool (pure, no I/O).

Modelled on lichess's pools (``modules/pool/MatchMaking.scala``): a wave pairs as
many of the waiting players as it can, preferring the pairs with the smallest Elo
difference; every wave a player misses widens the Elo gap they accept and gives
them a bonus, so nobody waits for ever.  A pair also needs a Bedenkzeit both accept.

Among the possible pairings a wave takes the one with the most pairs and, among
those, the smallest total score (``score``).  It is exact for up to
:data:`EXACT_LIMIT` players (a search over subsets, always pairing the first
unpaired player); a larger pool is sorted by Elo and solved in windows of that
size, where nearly every good pair lies anyway (Elo neighbours).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

START_ELO = 1500  # what a player without a rated game of this game counts as
BASE_GAP = 200  # Elo difference accepted in the first wave ...
GAP_PER_WAVE = 100  # ... and this much more for every wave the longer-waiting player missed
MISS_BONUS = 12  # lichess: 12 Elo points of bonus per missed wave
EXACT_LIMIT = 12


@dataclass(frozen=True)
class Seeker:
    """One player waiting in a game's pool."""

    user_id: int
    elo: int
    clocks: frozenset[str]  # the Bedenkzeiten this player accepts (never empty)
    waves: int = 0  # waves missed so far


@dataclass(frozen=True)
class Pair:
    first: Seeker
    second: Seeker
    clock: str


def max_gap(waves: int) -> int:
    """The Elo difference a player accepts after missing ``waves`` waves."""
    return BASE_GAP + GAP_PER_WAVE * waves


def common_clock(a: Seeker, b: Seeker, preference: Sequence[str]) -> str | None:
    """The Bedenkzeit both accept, the earliest in ``preference``; None if they share none."""
    for clock in preference:
        if clock in a.clocks and clock in b.clocks:
            return clock
    return None


def score(a: Seeker, b: Seeker) -> int | None:
    """Lower is better; None: these two may not be paired in this wave (too far apart)."""
    diff = abs(a.elo - b.elo)
    if diff > max_gap(max(a.waves, b.waves)):
        return None
    return diff - MISS_BONUS * (a.waves + b.waves)


def pair_wave(seekers: Sequence[Seeker], preference: Sequence[str]) -> list[Pair]:
    """The pairs of one wave: most pairs first, then the smallest total score.

    ``preference``: the game's Bedenkzeiten, the preferred first (a pair plays the
    first one both accept).  Deterministic for a given input order.
    """
    ordered = sorted(seekers, key=lambda s: (s.elo, s.user_id))
    pairs: list[Pair] = []
    for start in range(0, len(ordered), EXACT_LIMIT):
        window = ordered[start:start + EXACT_LIMIT]
        pairs.extend(_best_pairs(window, preference))
    return pairs


def _best_pairs(seekers: Sequence[Seeker], preference: Sequence[str]) -> list[Pair]:
    n = len(seekers)
    # allowed[i][j]: (score, clock) or None.
    allowed: list[list[tuple[int, str] | None]] = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            s = score(seekers[i], seekers[j])
            clock = common_clock(seekers[i], seekers[j], preference)
            if s is not None and clock is not None:
                allowed[i][j] = allowed[j][i] = (s, clock)

    @cache
    def best(free: int) -> tuple[int, int, tuple[tuple[int, int], ...]]:
        """Over the players in bit mask ``free``: (-pairs, total score, pairs) of the best choice."""
        if free == 0:
            return 0, 0, ()
        i = (free & -free).bit_length() - 1  # the first free player: paired with someone, or with nobody
        rest = free & ~(1 << i)
        choice = best(rest)
        for j in range(i + 1, n):
            if rest >> j & 1 and allowed[i][j] is not None:
                count, total, chosen = best(rest & ~(1 << j))
                candidate = (count - 1, total + allowed[i][j][0], ((i, j), *chosen))
                if candidate[:2] < choice[:2]:
                    choice = candidate
        return choice

    _, _, chosen = best((1 << n) - 1)
    return [Pair(seekers[i], seekers[j], allowed[i][j][1]) for i, j in chosen]
