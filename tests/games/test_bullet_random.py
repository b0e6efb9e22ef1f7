"""Many complete seeded random games: legality, termination, round trips, views.

``make test`` plays a few hundred games; the ``slow`` variant (``make proof``) 10,000.
"""

from __future__ import annotations

import json
import random

import pytest

from shared.games import get_game
from tests.games import reference_bullet as ref

GAME = get_game("bullet")
LAYOUTS = ("standard", "belgisch", "deutsch")
VIEW_KEYS = {
    "game", "seat", "options", "to_move", "position", "marbles", "pushed_out", "on_board", "win_target",
    "ply", "moves_left", "history", "start", "legal_moves", "danger", "outcome",
}  # fmt: skip
MAX_PLIES = 20_000


def options_for(seed: int) -> dict:
    return {
        "layout": LAYOUTS[seed % 3],
        "win_target": (6, 4)[(seed // 3) % 2],
        "move_limit": (None, 100)[(seed // 6) % 2],
    }


def cross_check(state) -> None:
    """Legal moves and effects against the plain reference."""
    view = GAME.view(state, None)
    board = ref.board_from_view(view)
    side = GAME.to_move(state)[0]
    expected = ref.legal_moves(board, side)
    engine = {}
    for info in GAME.legal_moves(state):
        key = (frozenset(ref.parse_cell(c) for c in info.effect["marbles"]), info.effect["dir"])
        engine[key] = info
        assert GAME.move_text(state, GAME.parse_move(state, info.text)) == info.text
    assert set(engine) == set(expected)
    for key, info in engine.items():
        assert info.effect["push"] == expected[key][2]
        assert info.effect["out"] == expected[key][3]


def check_view(state, seat) -> None:
    view = GAME.view(state, seat)
    text = json.dumps(view)  # JSON-able with plain types only
    assert json.loads(text) == view
    assert set(view) == VIEW_KEYS
    assert view["position"] == GAME.to_position(state)
    assert view["history"] == GAME.history(state)
    if seat is not None and seat in GAME.to_move(state):
        assert [m["text"] for m in view["legal_moves"]] == [m.text for m in GAME.legal_moves(state)]
    else:
        assert view["legal_moves"] == []
    if GAME.outcome(state) is not None:
        assert view["outcome"] == GAME.outcome(state).to_dict()


def play_game(seed: int, with_reference: bool) -> object:
    rng = random.Random(seed)
    options = options_for(seed)
    state = GAME.new_game(options, seed)
    start_marbles = 14
    checkpoints = {rng.randrange(1, 200), rng.randrange(200, 1500)}
    for _ in range(MAX_PLIES):
        if GAME.outcome(state) is not None:
            break
        moves = GAME.fast_moves(GAME.fast_state(state))
        assert moves, "a running game always has a move"
        if with_reference and state.ply % 3 == 0:
            cross_check(state)
        if state.ply in checkpoints:
            for seat in (0, 1, None):
                check_view(state, seat)
            assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state
        state = GAME.apply(state, rng.choice(moves))
        # every state legal: no cell twice, marble counts add up with the gutter
        assert state.white & state.black == 0
        assert state.white.bit_count() + state.out[1] == start_marbles
        assert state.black.bit_count() + state.out[0] == start_marbles
    outcome = GAME.outcome(state)
    assert outcome is not None, "every game ends"
    assert GAME.to_move(state) == () and GAME.legal_moves(state) == []
    if options["move_limit"] is not None:
        assert state.ply <= 2 * options["move_limit"]
    if outcome.reason == "siegziel":
        assert state.out[outcome.winner] == options["win_target"]
    for seat in (0, 1, None):
        check_view(state, seat)
    # round trips
    data = GAME.to_json(state)
    assert GAME.from_json(json.loads(json.dumps(data))) == state
    assert GAME.to_position(GAME.from_position(GAME.to_position(state), options)) == GAME.to_position(state)
    record = GAME.record(state, {"White": f"w{seed}", "Black": f"b{seed}", "Date": "2026-11-30"})
    assert GAME.parse_record(record) == state
    # the game replays exactly from (options, seed, moves)
    replay = GAME.new_game(options, seed)
    for text in GAME.history(state):
        replay = GAME.apply(replay, text)
    assert replay == state
    return state


def test_random_games_cross_checked_with_reference() -> None:
    for seed in range(6, 14):  # move limit on: 200 plies each, every third ply checked
        play_game(seed, with_reference=True)


def test_random_games_short() -> None:
    reasons = {}
    for seed in range(300):
        state = play_game(seed, with_reference=False)
        reasons[state.outcome.reason] = reasons.get(state.outcome.reason, 0) + 1
    assert reasons.get("siegziel", 0) > 0 and reasons.get("zuglimit", 0) > 0


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("chunk", range(10))
def test_random_games_10000(chunk: int) -> None:
    # 10 × 1,000 games, seeds 0–9999, every 50th cross-checked with the reference
    for seed in range(chunk * 1000, (chunk + 1) * 1000):
        play_game(seed, with_reference=seed % 50 == 0)
