"""The compiled Battlebullet search against the previous pure-Python Stark it replaces.

The kernels' reference mode must search the *same tree* as the previous Stark
(:mod:`bench.bullet_previous_stark`): same best move, same value and the same node count
at fixed depths, on 200 positions from random games on every layout (some moved next to
the win target or the move limit, many with earlier positions that count as a draw).
Depths 1–3 cover all 200 positions here; depth 4 covers every tenth position here and
all 200 under ``-m slow`` (``make proof``): the Python side needs minutes for that.
"""

from __future__ import annotations

import random
import time

import pytest

from bench import bullet_previous_stark as previous
from bench.bullet_previous_search import AlphaBeta
from services.ai_worker.players import bullet_kernels as k
from services.ai_worker.players import bullet_search
from shared.games.bullet.movegen import moves_for, pushable_out
from tests.ai.test_bullet_player import GAME, random_positions

POSITIONS = random_positions(200, seed=2026)
FAR = 1e9
# Stark's evaluation with the previous Stark's terms only (the hand-set weights without contempt)
PREVIOUS_WEIGHTS = {**bullet_search.HAND_SET_WEIGHTS, "contempt": 0.0}


def _previous(state, depth: int) -> tuple[int | None, float, int]:
    rules, pos, _ = previous._rules_and_position(GAME.view(state, state.side), full=True)
    search = AlphaBeta(rules, time.monotonic() + FAR, None, None)
    move, value = search.best_move(pos, depth)
    return move, value, search.nodes


def _compiled(state, depth: int) -> tuple[int | None, float, int]:
    move, value, ctx = bullet_search.reference_best(
        bullet_search.make_root(state), depth, True, time.monotonic() + FAR, None, None
    )
    return move, value, ctx.nodes


def test_generation_threats_and_evaluation_match_the_engine_and_the_previous_stark() -> None:
    buffer = bullet_search.Context(bullet_search.make_root(POSITIONS[0]), FAR, None, 4).moves[0]
    rules = previous.BulletRules(6, None, 0, 0, frozenset(), full=True)
    mittel = previous.BulletRules(6, None, 0, 0, frozenset(), full=False)
    for state in POSITIONS:
        for own, enemy in ((state.white, state.black), (state.black, state.white)):
            c_own, c_enemy = k.to_compact(own), k.to_compact(enemy)
            count = k.gen_moves(c_own, c_enemy, buffer, 0)
            assert list(buffer[:count]) == moves_for(own, enemy)
            assert k.pushable_out(c_own, c_enemy) == k.to_compact(pushable_out(own, enemy))
            for outs in ((0, 0), (2, 1), (3, 5)):
                pos = (own, enemy, *outs, 0)
                assert k.evaluate_ref(c_own, c_enemy, *outs, True) == rules.evaluate(pos)
                assert k.evaluate_ref(c_own, c_enemy, *outs, False) == mittel.evaluate(pos)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_reference_search_is_the_previous_stark_at_fixed_depth(depth: int) -> None:
    for index, state in enumerate(POSITIONS):
        assert _compiled(state, depth) == _previous(state, depth), f"position {index}"


def test_reference_search_is_the_previous_stark_at_depth_4_on_every_tenth_position() -> None:
    for index, state in enumerate(POSITIONS[::10]):
        assert _compiled(state, 4) == _previous(state, 4), f"position {10 * index}"


@pytest.mark.slow
def test_reference_search_is_the_previous_stark_at_depth_4_on_all_positions() -> None:
    for index, state in enumerate(POSITIONS):
        assert _compiled(state, 4) == _previous(state, 4), f"position {index}"


def test_reference_root_values_are_the_previous_starks() -> None:
    """Hints and reviews: every root move's value, ranked, at depths 1 and 2."""
    for state in POSITIONS[::8]:
        rules, pos, _ = previous._rules_and_position(GAME.view(state, state.side), full=True)
        for depth in (1, 2):
            expected = AlphaBeta(rules, time.monotonic() + FAR, None, random.Random(3)).root_values(pos, depth)
            values, _ctx = bullet_search.reference_values(
                bullet_search.make_root(state), depth, time.monotonic() + FAR, None, random.Random(3)
            )
            assert values == expected


def test_node_limit_stops_the_compiled_search_where_the_previous_stops() -> None:
    for state in POSITIONS[:20]:
        rules, pos, _ = previous._rules_and_position(GAME.view(state, state.side), full=True)
        search = AlphaBeta(rules, time.monotonic() + FAR, 1500, random.Random(9))
        expected = search.best_move(pos, 64)
        move, value, ctx = bullet_search.reference_best(
            bullet_search.make_root(state), 64, True, time.monotonic() + FAR, 1500, random.Random(9)
        )
        assert (move, value, ctx.depth) == (*expected, search.depth_reached)


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_stark_search_without_quiescence_finds_the_minimax_value(depth: int) -> None:
    """PVS, aspiration windows, the reordered moves and the depth-preferred TT change
    the tree, not the value: without quiescence (and reductions) Stark's root value at a
    fixed depth is the plain alpha-beta value of the same evaluation."""
    plain = {"pvs": 1, "aspiration": 1, "qdepth": 0, "lmr": 0}
    for index, state in enumerate(POSITIONS[::5]):
        root = bullet_search.make_root(state)
        _move, value, _ctx = bullet_search.stark_best(root, depth, time.monotonic() + FAR, None, None,
                                                      weights=PREVIOUS_WEIGHTS, options=plain)
        _ref_move, expected, _ref_ctx = bullet_search.reference_best(root, depth, True, time.monotonic() + FAR,
                                                                     None, None)
        assert value == pytest.approx(expected, abs=1e-9), f"position {5 * index}"


def test_quiescence_sees_the_push_out_behind_the_horizon() -> None:
    """At depth 1 without quiescence a move can look best that leaves the opponent a
    push-out; quiescence looks at that reply and chooses another move."""
    refuted = 0
    for state in POSITIONS:
        root = bullet_search.make_root(state)
        flat_move, _flat, _c = bullet_search.stark_best(root, 1, time.monotonic() + FAR, None, None,
                                                        options={"qdepth": 0})
        deep_move, _deep, ctx = bullet_search.stark_best(root, 1, time.monotonic() + FAR, None, None)
        assert ctx.stat[k.ST_QNODES] > 0
        if deep_move != flat_move:
            # the move quiescence rejected hands the opponent a push-out
            own, enemy = root.enemy ^ int(k.M_ENEMY[flat_move]), root.own ^ int(k.M_OWN[flat_move])
            assert k.pushable_out(own, enemy)
            refuted += 1
    assert refuted > 0
