"""Glicko-2 against Glickman's worked example ("Example of the Glicko-2 system"), and the puzzle duel."""

from __future__ import annotations

import math

import pytest

from shared import glicko2
from shared.glicko2 import Rating

# The paper's example: a player rated 1500 (RD 200, volatility 0.06) beats a 1400 (RD 30)
# and loses to a 1550 (RD 100) and a 1700 (RD 300); tau 0.5.
PLAYER = Rating(1500, 200, 0.06)
GAMES = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_the_papers_worked_example_to_its_printed_precision() -> None:
    after = glicko2.update(PLAYER, GAMES, tau=0.5)
    # Step 8 on the Glicko-2 scale: mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999.
    assert round((after.rating - 1500) / glicko2.SCALE, 4) == -0.2069
    assert round(after.rd / glicko2.SCALE, 4) == 0.8722
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)  # 0.059996: the paper cuts it to 0.05999
    # Converted back: r' = 1464.06 and RD' = 151.52 (the paper converts its rounded mu').
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.rd, 2) == 151.52


def test_the_papers_intermediate_quantities() -> None:
    mu, phi = 0.0, 200 / glicko2.SCALE
    assert round(phi, 4) == 1.1513
    terms = []
    for opponent, score in GAMES:
        mu_j, phi_j = (opponent.rating - 1500) / glicko2.SCALE, opponent.rd / glicko2.SCALE
        g = glicko2._g(phi_j)
        terms.append((g, glicko2._expected(mu, mu_j, phi_j), score))
    assert [round(g, 4) for g, _, _ in terms] == [0.9955, 0.9531, 0.7242]
    assert [round(e, 3) for _, e, _ in terms] == [0.639, 0.432, 0.303]
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    # The paper computes v and Delta from its rounded g and E (1.7785, -0.4834); unrounded they
    # differ in the fourth place.
    assert v == pytest.approx(1.7785, abs=1e-3)
    delta = v * sum(g * (s - e) for g, e, s in terms)
    assert delta == pytest.approx(-0.4834, abs=1e-3)
    sigma = glicko2._new_volatility(0.06, phi, v, delta, 0.5)
    assert sigma == pytest.approx(0.05999, abs=1e-5)
    assert math.sqrt(phi * phi + sigma * sigma) == pytest.approx(1.152862, abs=1e-4)  # phi*, from its rounded phi


def test_no_games_only_widens_the_deviation() -> None:
    after = glicko2.update(PLAYER, [])
    assert after.rating == PLAYER.rating and after.rd > PLAYER.rd


def test_a_solved_puzzle_raises_the_player_and_lowers_the_puzzle() -> None:
    player, puzzle = Rating(), Rating(1600, 350, 0.06)
    new_player, new_puzzle = glicko2.duel(player, puzzle, 1.0)
    assert new_player.rating > player.rating and new_puzzle.rating < puzzle.rating
    # Each side is one Glicko-2 period against the other's rating before the attempt.
    assert new_player == glicko2.update(player, [(puzzle, 1.0)])
    assert new_puzzle == glicko2.update(puzzle, [(player, 0.0)])


def test_a_puzzle_many_have_tried_moves_less() -> None:
    fresh = Rating(1500, glicko2.START_RD, 0.06)
    tried = fresh
    solver = Rating(1500, 100, 0.06)
    for i in range(200):
        _, tried = glicko2.duel(solver, tried, 1.0 if i % 2 else 0.0)
    assert tried.rd < 80 and tried.rd >= glicko2.PUZZLE_MIN_RD
    move_fresh = abs(glicko2.duel(solver, fresh, 1.0)[1].rating - fresh.rating)
    move_tried = abs(glicko2.duel(solver, tried, 1.0)[1].rating - tried.rating)
    assert move_tried < move_fresh / 4
