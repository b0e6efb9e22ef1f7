"""Every registered game keeps the contract of :class:`shared.games.base.Game`.

One random playout per game (fixed seeds) through the public interface only: creation
from the default options, legal moves, applying them, whose turn it is, what each seat
and a spectator may see, the end and its reason, the record, and determinism.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from shared.games import GAME_NAMES, get_game
from shared.games.base import Game, Outcome
from shared.games.capabilities import RoundPauses

SEED = 20261206
# Playout options where the defaults let a random game wander for very long
# (Battlebullet without a move limit ends only on repetitions or push-outs).
PLAYOUT_OPTIONS: dict[str, dict[str, Any]] = {"bullet": {"move_limit": 100}}
MAX_PLIES = 4000
VIEW_EVERY = 37  # plies between two looks at the views


def _playout(game: Game[Any, Any], seed: int) -> list[tuple[Any, Any, int | None]]:
    """``(state, move text, seat)`` for every move of one random game, then ``(final, None, None)``."""
    rng = random.Random(seed)
    options = game.normalize_options({**game.default_options(), **PLAYOUT_OPTIONS.get(game.name, {})})
    state = game.new_game(options, seed)
    steps: list[tuple[Any, Any, int | None]] = []
    while game.outcome(state) is None:
        assert len(steps) < MAX_PLIES, f"{game.name}: no end within {MAX_PLIES} moves"
        movers = game.to_move(state)
        seat = rng.choice(movers) if movers else None
        moves = game.legal_moves(state, seat)
        assert moves, f"{game.name}: a running game without a legal move (to move: {movers})"
        text = rng.choice(moves).text
        steps.append((state, text, seat))
        state = game.apply(state, text, seat)
    steps.append((state, None, None))
    return steps


@pytest.fixture(scope="module", params=GAME_NAMES)
def played(request: pytest.FixtureRequest) -> tuple[Game[Any, Any], list[tuple[Any, Any, int | None]]]:
    game = get_game(request.param)
    return game, _playout(game, SEED)


def _leaks(game: Game[Any, Any], view: dict[str, Any], seat: int | None) -> list[str]:
    """What ``view`` (of ``seat``) shows that the seat may not know while the game runs
    (docs/rules.md, "What each side may know"), as descriptions."""
    leaks = []
    if game.name == "general":
        for piece in view["pieces"]:
            if piece["owner"] != seat and not piece["revealed"] and piece["rank"] is not None:
                leaks.append(f"rank of piece {piece['id']}")
        if view["phase"] == "setup":
            if seat is None and view["setup"]["own"] is not None:
                leaks.append("a placement to a spectator")
            if view["pieces"]:
                leaks.append("placed pieces during the setup")
    elif game.name == "hanse":
        for player in view["players"]:
            if player["seat"] != seat and player["hand"] is not None:
                leaks.append(f"hand of seat {player['seat']}")
        if view["hidden"] is not None:
            leaks.append("deck order")
    return leaks


def _public_part(game: Game[Any, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A view without what is the seat's own by design (its moves and their hints)."""
    return {key: value for key, value in view.items() if key not in ("seat", "legal_moves", "help")}


def test_a_new_game_from_the_default_options_has_moves() -> None:
    for name in GAME_NAMES:
        game = get_game(name)
        state = game.new_game(game.default_options(), SEED)
        assert game.outcome(state) is None, name
        movers = game.to_move(state)
        assert movers and set(movers) <= {0, 1}, name
        for seat in movers:
            assert game.legal_moves(state, seat), name


def test_every_legal_move_applies_and_is_read_back(played) -> None:
    game, steps = played
    for state, text, seat in steps[:-1]:
        assert text in {m.text for m in game.legal_moves(state, seat)}
        move = game.parse_move(state, text, seat)
        assert game.move_text(state, move) == text


def test_to_move_follows_the_rules(played) -> None:
    game, steps = played
    for (before, _text, seat), (after, _next, _seat) in zip(steps, steps[1:], strict=False):
        movers, following = game.to_move(before), game.to_move(after)
        if game.outcome(after) is not None:
            assert following == ()
        elif not movers or not following:  # a pause between rounds: nobody is to move until it ends
            paused = before if not movers else after
            assert isinstance(game, RoundPauses) and game.is_round_pause(paused), f"{movers}, then {following}"
        elif game.name == "general" and game.view(before, None)["phase"] == "setup":
            # The setup: each seat places until it is ready; then one seat is to move.
            in_play = game.view(after, None)["phase"] == "play"
            assert in_play or set(following) <= set(movers), f"{movers}, then {following}"
            assert not in_play or len(following) == 1, f"{movers}, then {following}"
        else:
            assert movers == (seat,) and following == (1 - seat,), f"{game.name}: {movers} moved, then {following}"


def test_views_show_each_seat_only_what_it_may_know(played) -> None:
    game, steps = played
    for state, _text, _seat in steps[:-1:VIEW_EVERY]:
        movers = game.to_move(state)
        for seat in (0, 1, None):
            view = game.view(state, seat)
            assert _leaks(game, view, seat) == [], f"{game.name}, seat {seat}"
            if seat is None or (movers and seat not in movers):
                assert view.get("legal_moves", []) == [], f"{game.name}: moves for seat {seat}"
        if game.name in ("hexagon", "bullet"):  # nothing hidden: every seat sees the same game
            assert _public_part(game, game.view(state, 0)) == _public_part(game, game.view(state, None))
            assert _public_part(game, game.view(state, 1)) == _public_part(game, game.view(state, None))


def test_the_end_has_a_reason_of_the_game(played) -> None:
    game, steps = played
    final = steps[-1][0]
    outcome = game.outcome(final)
    assert isinstance(outcome, Outcome)
    assert isinstance(outcome.reason, game.reasons), f"{game.name}: {outcome.reason!r}"
    assert outcome.winner in (0, 1, None)
    assert Outcome.from_dict(outcome.to_dict()) == outcome
    if game.name in ("general", "hanse"):  # after the game, everything; sealed, what play showed
        assert _leaks(game, game.view(final, None), None) != []
        for seat in (0, 1, None):
            assert _leaks(game, game.sealed_view(final, seat), seat) == [], f"{game.name}, seat {seat}"


def test_the_record_replays_the_game(played) -> None:
    game, steps = played
    final = steps[-1][0]
    text = game.record(final, {})
    replayed = game.parse_record(text)
    assert game.history(final) and game.history(replayed) == game.history(final)
    assert game.to_position(replayed) == game.to_position(final)
    assert game.outcome(replayed) == game.outcome(final)
    assert game.record(replayed, {}) == text


def test_a_seed_decides_the_game(played) -> None:
    game, steps = played
    again = _playout(game, SEED)
    assert [t for _s, t, _seat in again] == [t for _s, t, _seat in steps]
    assert game.to_json(again[-1][0]) == game.to_json(steps[-1][0])
    other = game.new_game(game.default_options(), SEED)
    assert game.to_json(other) == game.to_json(game.new_game(game.default_options(), SEED))
