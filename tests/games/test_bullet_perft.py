"""Perft and per-move effects: the engine against the plain reference."""

from __future__ import annotations

import random

import pytest

from shared.games import get_game
from tests.games import reference_bullet as ref

GAME = get_game("bullet")
LAYOUTS = ("standard", "belgisch", "deutsch")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_perft_matches_reference(layout: str) -> None:
    state = GAME.new_game({"layout": layout}, 1)
    board = ref.start_board(layout)
    for depth in (1, 2, 3):
        assert GAME.perft(state, depth) == ref.perft(board, 0, (0, 0), depth)


def test_perft_standard_first_move_count() -> None:
    # the well-known 44 opening moves of standard Abalone
    assert GAME.perft(GAME.new_game({}, 1), 1) == 44


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_perft_depth4_matches_reference(layout: str) -> None:
    state = GAME.new_game({"layout": layout}, 1)
    assert GAME.perft(state, 4) == ref.perft(ref.start_board(layout), 0, (0, 0), 4)


def _engine_moves(state) -> dict:
    result = {}
    for info in GAME.legal_moves(state):
        eff = info.effect
        key = (frozenset(ref.parse_cell(c) for c in eff["marbles"]), eff["dir"])
        assert key not in result, f"move counted twice: {info.text}"
        result[key] = info
    return result


def _random_positions(count: int, seed: int):
    rng = random.Random(seed)
    made = 0
    while made < count:
        state = GAME.new_game({"layout": rng.choice(LAYOUTS)}, rng.randrange(1000))
        for _ in range(rng.randrange(10, 300)):
            if GAME.outcome(state) is not None:
                break
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)).text)
        if GAME.outcome(state) is None:
            made += 1
            yield state


def test_effects_match_reference_on_random_positions() -> None:
    for state in _random_positions(25, seed=7):
        view = GAME.view(state, None)
        board = ref.board_from_view(view)
        side = GAME.to_move(state)[0]
        expected = ref.legal_moves(board, side)
        engine = _engine_moves(state)
        assert set(engine) == set(expected)
        for key, info in engine.items():
            new_board, moves, pushed, out = expected[key]
            eff = info.effect
            assert sorted(eff["moves"], key=lambda m: (m[0], m[1] or "")) == sorted(
                ref.moves_as_names(moves), key=lambda m: (m[0], m[1] or "")
            )
            assert eff["push"] == pushed
            assert eff["out"] == out
            assert eff["kind"] == ("inline" if len(key[0]) == 1 or pushed or _is_inline(key) else "broadside")
            after = GAME.view(GAME.apply(state, info.text), None)
            assert ref.board_from_view(after) == new_board
        for seat in (0, 1):
            assert set(GAME.danger_info(state, seat)) == {ref.name(c) for c in ref.endangered(board, seat)}


def _is_inline(key) -> bool:
    cells, direction = key
    delta = ref.DIRECTIONS[direction]
    return any(ref.add(c, delta) in cells for c in cells)


def test_single_move_check_agrees_with_generation() -> None:
    from shared.games.bullet.movegen import MOVE_COUNT, is_legal, moves_for

    for state in _random_positions(25, seed=11):
        for own, enemy in ((state.white, state.black), (state.black, state.white)):
            generated = moves_for(own, enemy)
            assert len(generated) == len(set(generated))
            assert {m for m in range(MOVE_COUNT) if is_legal(own, enemy, m)} == set(generated)


def test_has_move_agrees_with_counting() -> None:
    from shared.games.bullet.movegen import count_for, has_move

    for state in _random_positions(15, seed=12):
        for own, enemy in ((state.white, state.black), (state.black, state.white)):
            assert has_move(own, enemy) == (count_for(own, enemy) > 0)
    walled = GAME.from_position(ref.position_text(ref.board_from("I6 H4 H5", "I5"), 1))
    assert not has_move(walled.black, walled.white) and count_for(walled.black, walled.white) == 0
