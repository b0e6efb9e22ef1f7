"""Every game's views match their records in shared/schemas/game_views.py.

The engines do not check their views when they build them (a view goes out on every
move), so seeded random games hold them to the records here: every position's view of
both seats and of a spectator, and once the table ends the game (a resignation halfway)
the concluded, sealed and open views too.
"""

from __future__ import annotations

import random

import pytest

from shared.games import get_game
from shared.games.base import Outcome
from shared.games.table_reason import TableReason
from shared.schemas.game_views import GAME_VIEW, GAME_VIEW_NAMES
from shared.schemas.mechanism import check, validate_record

SEEDS = (1, 2, 3)
MAX_PLIES = 300
SEATS = (0, 1, None)


def _check_views(engine, state) -> None:  # noqa: ANN001
    name = GAME_VIEW_NAMES[engine.name]
    for seat in SEATS:
        view = engine.view(state, seat)
        assert validate_record(name, view) is not None
        assert check(GAME_VIEW, view) is not None


def _playout(engine, seed: int, plies: int):  # noqa: ANN001, ANN202
    rng = random.Random(seed)
    state = engine.new_game(engine.normalize_options({}), seed)
    for _ in range(plies):
        _check_views(engine, state)
        if engine.outcome(state) is not None:
            break
        movers = engine.to_move(state)
        seat = rng.choice(movers) if movers else None  # nobody: a pause between rounds, ended by its move
        moves = engine.legal_moves(state, seat)
        assert moves, f"{engine.name}: a running game without a legal move (to move: {movers})"
        state = engine.apply(state, rng.choice(moves).text, seat)
    _check_views(engine, state)
    return state


@pytest.mark.parametrize("game", sorted(GAME_VIEW_NAMES))
@pytest.mark.parametrize("seed", SEEDS)
def test_views_of_a_random_game_match_the_record(game: str, seed: int) -> None:
    _playout(get_game(game), seed, MAX_PLIES)


@pytest.mark.parametrize("game", sorted(GAME_VIEW_NAMES))
@pytest.mark.parametrize("plies", (0, 7, 60))
def test_views_of_a_game_the_table_ended_match_the_record(game: str, plies: int) -> None:
    engine = get_game(game)
    state = _playout(engine, 11, plies)
    if engine.outcome(state) is None:
        state = engine.conclude(state, Outcome(1, TableReason.RESIGNED, "Aufgabe", "Resignation"))
    _check_views(engine, state)
    name = GAME_VIEW_NAMES[game]
    for seat in SEATS:
        validate_record(name, engine.sealed_view(state, seat))
    validate_record(name, engine.open_view(state))
