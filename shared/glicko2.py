"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): ratings of players and puzzles.

A puzzle attempt is a game between the player and the puzzle: the player scores 1 for a
solved puzzle and 0 for a failed one, the puzzle the opposite.  Each attempt is one rating
period for both sides, so each side's update uses the other's rating and deviation from
*before* the attempt (:func:`duel`), as lichess rates its puzzles.

A side's deviation (RD) shrinks with every attempt, so a puzzle many have tried moves less
than a new one; the floors (:data:`PLAYER_MIN_RD`, :data:`PUZZLE_MIN_RD`) keep both able to
move at all.  Pure arithmetic: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2 scale factor (the paper's step 2)
CENTRE = 1500.0
TAU = 0.5  # constrains the volatility's change (the paper suggests 0.3 to 1.2)
EPSILON = 0.000001  # convergence tolerance of the volatility iteration (step 5)

START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
PLAYER_MIN_RD = 45.0  # a regular solver still moves with each puzzle
PUZZLE_MIN_RD = 30.0  # a puzzle tried by many barely moves, but never stops
MAX_RD = 350.0


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) for the new volatility."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, games: Iterable[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``games`` ((opponent, score) pairs,
    score 1 win, 0.5 draw, 0 loss).  Without games only the deviation grows (step 6)."""
    mu = (player.rating - CENTRE) / SCALE
    phi = player.rd / SCALE
    games = list(games)
    if not games:
        phi_star = math.sqrt(phi * phi + player.volatility * player.volatility)
        return Rating(player.rating, min(phi_star * SCALE, MAX_RD), player.volatility)
    terms = []
    for opponent, score in games:
        mu_j = (opponent.rating - CENTRE) / SCALE
        phi_j = opponent.rd / SCALE
        terms.append((_g(phi_j), _expected(mu, mu_j, phi_j), score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)  # step 3
    improvement = sum(g * (s - e) for g, e, s in terms)
    delta = v * improvement  # step 4
    sigma = _new_volatility(player.volatility, phi, v, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(mu_new * SCALE + CENTRE, phi_new * SCALE, sigma)  # step 8


def _floored(rating: Rating, min_rd: float) -> Rating:
    return Rating(rating.rating, min(max(rating.rd, min_rd), MAX_RD), rating.volatility)


def duel(player: Rating, puzzle: Rating, solved: float) -> tuple[Rating, Rating]:
    """Player and puzzle after one attempt; ``solved`` is the player's score (1, 0 or between,
    e.g. a Handelsaufgabe's stars / 3).  Both update from the other's rating before it."""
    after_player = update(player, [(puzzle, solved)])
    after_puzzle = update(puzzle, [(player, 1.0 - solved)])
    return _floored(after_player, PLAYER_MIN_RD), _floored(after_puzzle, PUZZLE_MIN_RD)
