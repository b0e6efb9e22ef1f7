"""Battlehanse engine against the plain reference implementation (reference_hanse.py)."""

from __future__ import annotations

import json
import random

import pytest

from shared.games import get_game
from shared.games.hanse import fast_apply, fast_moves, perft
from tests.games import reference_hanse as ref

GAME = get_game("hanse")


def _key(effect: dict) -> str:
    return json.dumps(effect, sort_keys=True)


def _ref_state(state) -> dict:
    return ref.from_engine_json(GAME.to_json(state))


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 17, 99])
def test_perft_from_start_agrees_with_reference(seed: int) -> None:
    for first in (0, 1):
        state = GAME.new_game({"first": first}, seed)
        reference = _ref_state(state)
        for depth in (1, 2, 3):
            assert perft(state, depth) == ref.perft(reference, depth), (seed, first, depth)


def test_perft_depth_four_from_one_deal() -> None:
    state = GAME.new_game({}, 5)
    assert GAME.perft(state, 4) == ref.perft(_ref_state(state), 4)


def test_perft_from_random_midgame_positions() -> None:
    rng = random.Random(4)
    checked = 0
    for seed in range(12):
        state = GAME.new_game({}, 1000 + seed)
        for _ in range(rng.randrange(5, 60)):
            if GAME.outcome(state) is not None or GAME.is_round_pause(state):
                break
            state = fast_apply(state, rng.choice(fast_moves(state)))
        if GAME.is_round_pause(state) or GAME.outcome(state) is not None:
            continue
        # Through the position text, so that perft from --position is what is checked.
        from_text = GAME.from_position(GAME.to_position(state))
        assert perft(from_text, 2) == ref.perft(_ref_state(state), 2)
        checked += 1
    assert checked >= 8


def test_moves_effects_and_results_agree_along_random_games() -> None:
    """Every state of 25 random games: same legal moves (by effect), same state after each move."""
    rng = random.Random(11)
    compared = 0
    for seed in range(25):
        state = GAME.new_game({"first": seed % 2}, 500 + seed)
        reference = _ref_state(state)
        while GAME.outcome(state) is None:
            if GAME.is_round_pause(state):
                assert ref.actions(reference) == [("weiter",)]
                state = GAME.apply(state, "weiter")
                reference = _ref_state(state)
                continue
            infos = GAME.legal_moves(state)
            ref_actions = ref.actions(reference)
            ref_by_key = {_key(ref.effect(reference, a)): a for a in ref_actions}
            assert len(ref_by_key) == len(ref_actions)
            assert sorted(_key(i.effect) for i in infos) == sorted(ref_by_key), GAME.to_position(state)
            chosen = rng.choice(infos)
            state = GAME.apply(state, chosen.text)
            reference = ref.apply(reference, ref_by_key[_key(chosen.effect)])
            assert ref.comparable(_ref_state(state)) == ref.comparable(reference)
            compared += 1
        assert ref.actions(reference) == []
    assert compared > 1000


def test_cli_perft_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    from shared.games.__main__ import main

    state = GAME.new_game({}, 3)
    assert main(["perft", "hanse", "--seed", "3", "--depth", "3"]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert lines[:3] == [f"{d} {ref.perft(_ref_state(state), d)}" for d in (1, 2, 3)]
    position = GAME.to_position(state)
    assert main(["perft", "hanse", "--position", position, "--depth", "2"]) == 0
    assert capsys.readouterr().out.split("\n")[1] == f"2 {ref.perft(_ref_state(state), 2)}"
    assert main(["show", "hanse", "--seed", "3"]) == 0
    assert "Markt" in capsys.readouterr().out
    assert main(["perft", "hanse", "--position", "kaputt", "--depth", "1"]) == 2
