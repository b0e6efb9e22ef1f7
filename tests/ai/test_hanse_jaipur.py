"""Stark's Battlehanse evaluation on its fast path: the value of a move's position read
from counts (``value_after``) equals the evaluation of the position the engine steps to,
and the per-kind tables give the same values however they were filled."""

from __future__ import annotations

import dataclasses
import random

from services.ai_worker.players import hanse_jaipur
from shared.games.hanse import GAME, fast_apply, fast_moves
from shared.games.hanse.state import PLAY, State


def _positions(matches: int, seed: int) -> list[State]:
    """Every position in play of random matches (best of three, so later rounds and seals too)."""
    rng = random.Random(seed)
    positions = []
    for match in range(matches):
        state = GAME.new_game({"first": match % 2, "seals_to_win": 2}, seed * 1000 + match)
        while GAME.outcome(state) is None:
            if state.phase == PLAY:
                positions.append(state)
            state = fast_apply(state, rng.choice(fast_moves(state)))
    return positions


def test_value_after_a_move_equals_the_evaluation_of_the_stepped_position() -> None:
    checked = round_ends = 0
    kinds_seen = set()
    for state in _positions(40, seed=11):
        for move in fast_moves(state):
            child = fast_apply(state, move)
            round_ends += child.phase != PLAY
            kinds_seen.add(move & 7)
            for me in (0, 1):
                assert hanse_jaipur.value_after(state, move, me) == hanse_jaipur.evaluate(child, me), (move, me)
                checked += 1
    # Every kind of move, and moves that end the round (deck out, third pile empty), were met.
    assert kinds_seen == {0, 1, 2, 3}
    assert round_ends > 100
    assert checked > 100_000


def test_the_kind_tables_give_the_same_values_in_any_order() -> None:
    # A table key that left out something a kind's value depends on would hand one
    # position the value computed for another: filled in a different order, it would differ.
    positions = _positions(25, seed=12)
    hanse_jaipur._kind_tables.clear()
    first = [(hanse_jaipur.evaluate(s, 0), hanse_jaipur.evaluate(s, 1)) for s in positions]
    hanse_jaipur._kind_tables.clear()
    order = list(range(len(positions)))
    random.Random(5).shuffle(order)
    again = {i: (hanse_jaipur.evaluate(positions[i], 1), hanse_jaipur.evaluate(positions[i], 0)) for i in order}
    assert all(first[i] == (again[i][1], again[i][0]) for i in order)
    assert len(positions) > 1000


def test_two_weight_sets_keep_their_own_kind_tables() -> None:
    # A tuning run evaluates with two weight sets in one process, move by move: a table
    # shared between them would hand one set the kind values the other computed.
    positions = _positions(10, seed=13)
    other = dataclasses.replace(hanse_jaipur.STARK_WEIGHTS, first_seller=0.9, growth_share=0.1, hand_share=0.8)
    hanse_jaipur._kind_tables.clear()
    alone = [hanse_jaipur.evaluate(s, 0, other) for s in positions]
    hanse_jaipur._kind_tables.clear()
    mixed = []
    for s in positions:
        hanse_jaipur.evaluate(s, 0)
        mixed.append(hanse_jaipur.evaluate(s, 0, other))
    assert mixed == alone
    assert sum(a != hanse_jaipur.evaluate(s, 0) for a, s in zip(alone, positions, strict=True)) > len(positions) // 2
