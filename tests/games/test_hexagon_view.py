"""Battlehexagon views: what each seat and a spectator get, before and after the end."""

from __future__ import annotations

import json

from shared.games import get_game
from tests.games.test_hexagon_rules import A1_AREA, position

GAME = get_game("hexagon")


def test_view_of_seat_to_move_has_moves_and_help() -> None:
    state = GAME.apply(GAME.new_game({"map": "dreiloch"}, 3), "e2")
    view = GAME.view(state, 1)
    json.dumps(view)
    assert view["seat"] == 1 and view["to_move"] == 1
    assert view["map"] == "dreiloch" and view["holes"] == ["d5", "e4", "f5"]
    assert view["cells"] == {"rubin": ["a5", "e1", "e2", "i5"], "perle": ["a1", "e9", "i1"]}
    assert view["moves"] == ["e2"] and view["ply"] == 1 and view["clock"] == 0
    assert view["score"] == [4, 3]
    assert view["outcome"] is None
    assert view["legal_moves"] == [m.to_dict() for m in GAME.legal_moves(state)]
    assert {"text": "e8", "effect": {"kind": "clone", "from": None, "to": "e8", "turns": []}} in view["legal_moves"]
    assert view["help"] == GAME.help_info(state, 1)


def test_other_seat_and_spectator_get_no_moves() -> None:
    state = GAME.new_game({}, 3)
    for seat in (1, None):
        view = GAME.view(state, seat)
        assert "legal_moves" not in view and "help" not in view
        assert view["cells"] == GAME.view(state, 0)["cells"]


def test_view_after_the_end() -> None:
    state = GAME.from_position(position(red={"a1"}, white=A1_AREA), {})
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        assert view["to_move"] is None
        assert "legal_moves" not in view
        assert view["outcome"] == {
            "winner": 1,
            "reason": "keine_zuege",
            "de": "Kein Zug mehr (Auffüllen)",
            "en": "No move left (fill up)",
            "score": [1.0, 60.0],
        }


def _view_built_move_by_move(state, seat):  # noqa: ANN001, ANN202 - the reference, as the view was built before
    """The view as built from ``play.effect`` and ``move_text`` per move (the definition the
    fast path in ``hexagon.view`` must match byte for byte on the wire)."""
    from shared.games.hexagon.notation import move_text
    from shared.games.hexagon.play import effect, legal_for

    view = dict(GAME.view(state, seat))
    view["moves"] = [move_text(m) for m in state.moves()]
    if "legal_moves" in view:
        turned: dict[int, list[str]] = {}
        view["legal_moves"] = [{"text": move_text(m), "effect": effect(state, m, turned)}
                               for m in legal_for(state, seat)]
    return view


def test_views_equal_the_move_by_move_definition_over_whole_games() -> None:
    """Every position of random games on every map under both end rules (passes included):
    each seat's and a spectator's view encode to the same JSON as the reference."""
    import random

    import orjson

    from shared.games.hexagon.maps import MAP_NAMES
    from shared.games.hexagon.play import legal_for

    rng = random.Random(16)
    positions = passes = 0
    for map_name in MAP_NAMES:
        for end_rule in ("auffuellen", "aussetzen"):
            for seed in range(3):
                state = GAME.new_game({"map": map_name, "end_rule": end_rule}, seed)
                while True:
                    for seat in (0, 1, None):
                        assert orjson.dumps(GAME.view(state, seat)) == orjson.dumps(_view_built_move_by_move(state, seat))
                    positions += 1
                    if GAME.outcome(state) is not None:
                        break
                    legal = legal_for(state, state.side)
                    passes += legal == [legal[0]] and GAME.view(state, state.side)["legal_moves"][0]["effect"]["kind"] == "pass"
                    state = GAME.apply(state, rng.choice(legal), state.side)
    assert positions > 1000 and passes > 0
