"""Battlehexagon text forms: options, move text, positions, JSON, records, bad input."""

from __future__ import annotations

import json

import pytest

from shared.games import BadNotation, BadOptions, IllegalMove, get_game

GAME = get_game("hexagon")


def test_default_and_normalized_options() -> None:
    assert GAME.default_options() == {"map": "klassisch", "end_rule": "auffuellen"}
    assert GAME.normalize_options({}) == {"map": "klassisch", "end_rule": "auffuellen"}
    assert GAME.normalize_options({"map": "zufall", "map_seed": 5, "end_rule": "aussetzen"}) == {
        "map": "zufall",
        "map_seed": 5,
        "end_rule": "aussetzen",
    }


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"map": "mond"}, "unknown_map"),
        ({"end_rule": "weiter"}, "unknown_end_rule"),
        ({"layout": "standard"}, "unknown_option"),
        ({"map": "klassisch", "map_seed": 3}, "map_seed_without_zufall"),
        ({"map": "zufall", "map_seed": "3"}, "bad_map_seed"),
        ({"map": "zufall", "map_seed": True}, "bad_map_seed"),
        ({"map": "eigen"}, "unknown_map"),
    ],
)
def test_bad_options(options: dict, code: str) -> None:
    with pytest.raises(BadOptions) as err:
        GAME.normalize_options(options)
    assert err.value.code == code
    assert err.value.de and err.value.en and err.value.de != err.value.en


def test_move_text_round_trip_and_lenient_parsing() -> None:
    state = GAME.new_game({}, 1)
    for info in GAME.legal_moves(state):
        move = GAME.parse_move(state, info.text)
        assert GAME.move_text(state, move) == info.text
    assert GAME.parse_move(state, " E1 - E3 ") == GAME.parse_move(state, "e1-e3")
    assert GAME.parse_move(state, "e1–e3") == GAME.parse_move(state, "e1-e3")
    assert GAME.parse_move(state, "e1xe3") == GAME.parse_move(state, "e1-e3")


@pytest.mark.parametrize("text", ["", "zz", "e", "e10", "j1", "a6", "e1-", "e1-e3-e5", "1-0", "e1 e3", "☃"])
def test_garbage_move_text(text: str) -> None:
    state = GAME.new_game({}, 1)
    before = GAME.to_json(state)
    with pytest.raises(BadNotation) as err:
        GAME.parse_move(state, text)
    assert err.value.de and err.value.en
    with pytest.raises(BadNotation):
        GAME.apply(state, text)
    assert GAME.to_json(state) == before


def test_non_text_moves() -> None:
    state = GAME.new_game({}, 1)
    with pytest.raises(BadNotation):
        GAME.parse_move(state, None)  # type: ignore[arg-type]
    with pytest.raises(BadNotation):
        GAME.apply(state, 99999)
    with pytest.raises(BadNotation):
        GAME.apply(state, 3.5)


def test_internal_moves_are_checked_too() -> None:
    state = GAME.new_game({}, 1)
    jump = GAME.parse_move(state, "e1-e3")
    assert GAME.history(GAME.apply(state, jump)) == ["e1-e3"]
    with pytest.raises(IllegalMove):
        GAME.apply(GAME.apply(state, jump), jump)  # now Perle's turn, and e1 is empty


@pytest.mark.parametrize("map_name", ["klassisch", "dreiloch", "krater", "burggraben", "saeulen"])
def test_position_round_trip_every_map(map_name: str) -> None:
    state = GAME.new_game({"map": map_name}, 1)
    for text in ["e2", "e8", "a5-c7"]:
        state = GAME.apply(state, text)
    fen = GAME.to_position(state)
    again = GAME.from_position(fen, {"map": map_name})
    assert GAME.to_position(again) == fen
    assert GAME.view(again, None)["map"] == map_name
    assert GAME.perft(again, 3) == GAME.perft(state, 3)


def test_position_format_documented_example() -> None:
    state = GAME.new_game({"map": "dreiloch"}, 1)
    assert GAME.to_position(state) == "p3r/6/7/4-3/r2-4p/4-3/7/6/p3r r 0"
    assert GAME.view(GAME.from_position("p3r/6/7/4-3/r2-4p/4-3/7/6/p3r r 0"), None)["map"] == "dreiloch"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "p3r/6/7/8/r7p/8/7/6/p3r",
        "p3r/6/7/8/r7p/8/7/6/p3r x 0",
        "p3r/6/7/8/r7p/8/7/6/p3r r -1",
        "p3r/6/7/8/r7p/8/7/6/p3r r 100",
        "p4r/6/7/8/r7p/8/7/6/p3r r 0",
        "p2r/6/7/8/r7p/8/7/6/p3r r 0",
        "p3r/6/7/8/r7p/8/7/6 r 0",
        "p3q/6/7/8/r7p/8/7/6/p3r r 0",
        "p3r/6/7/8/r7p/8/7/6/p3r/5 r 0",
        "p3r0/6/7/8/r7p/8/7/6/p3r r 0",
    ],
)
def test_malformed_positions(text: str) -> None:
    with pytest.raises(BadNotation) as err:
        GAME.from_position(text)
    assert err.value.de.startswith("Ungültige Stellung") and err.value.en.startswith("Invalid position")


def test_json_round_trip_and_is_plain_json() -> None:
    state = GAME.new_game({"map": "zufall", "end_rule": "aussetzen"}, 12345)
    for text in ["e2", "e8", "e1-e3", "i2"]:
        state = GAME.apply(state, text)
    data = GAME.to_json(state)
    assert json.loads(json.dumps(data)) == data
    again = GAME.from_json(json.loads(json.dumps(data)))
    assert GAME.to_json(again) == data
    assert GAME.view(again, 0) == GAME.view(state, 0)
    assert GAME.perft(again, 2) == GAME.perft(state, 2)


def test_json_round_trip_from_custom_position() -> None:
    state = GAME.from_position("r4/6/7/8/9/8/7/6/4p r 0", {"end_rule": "aussetzen"})
    state = GAME.apply(state, "a2")
    again = GAME.from_json(GAME.to_json(state))
    assert GAME.to_json(again) == GAME.to_json(state)
    assert GAME.view(again, None)["options"]["end_rule"] == "aussetzen"


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"game": "bullet"},
        {"game": "hexagon", "version": 2},
        {"game": "hexagon", "version": 1, "options": {}, "seed": 1, "start": None, "moves": ["e5"]},
        {"game": "hexagon", "version": 1, "options": {}, "seed": 1, "start": None, "moves": "e2"},
        {"game": "hexagon", "version": 1, "options": {"map": "mond"}, "seed": 1, "start": None, "moves": []},
        {"game": "hexagon", "version": 1, "options": {}, "seed": "x", "start": None, "moves": []},
        {"game": "hexagon", "version": 1, "options": {}, "seed": 1, "start": "junk", "moves": []},
        {
            "game": "hexagon",
            "version": 1,
            "options": {},
            "seed": 1,
            "start": None,
            "moves": ["e2"],
            "position": "p3r/6/7/8/r7p/8/7/6/p3r r 0",
        },
    ],
)
def test_malformed_json(data) -> None:
    with pytest.raises(BadNotation) as err:
        GAME.from_json(data)
    assert err.value.de and err.value.en


def _played(options: dict, seed: int, texts: list[str]):
    state = GAME.new_game(options, seed)
    for text in texts:
        state = GAME.apply(state, text)
    return state


def test_record_layout_and_replay() -> None:
    state = _played({"map": "dreiloch"}, 7, ["e2", "e8", "e1-e3", "i2"])
    headers = {"Rubin": "anna", "Perle": 'bo "b"', "Datum": "2026-11-30", "Ergebnis": "fake", "result": "1-0"}
    text = GAME.record(state, headers)
    lines = text.splitlines()
    assert lines[0] == '[Spiel "Battlehexagon"]'
    assert '[Karte "dreiloch"]' in lines and '[Endregel "auffuellen"]' in lines and '[Seed "7"]' in lines
    assert '[Rubin "anna"]' in lines and '[Perle "bo \\"b\\""]' in lines and '[Datum "2026-11-30"]' in lines
    assert '[Ergebnis "*"]' in lines and '[Ergebnis "fake"]' not in lines and '[result "1-0"]' not in lines
    assert lines[-2:] == ["1. e2 e8", "2. e1-e3 i2"]
    again = GAME.parse_record(text)
    assert GAME.to_json(again) == GAME.to_json(state)


def test_record_of_finished_game_with_pass_and_perle_first() -> None:
    from tests.games.test_hexagon_rules import A1_AREA, position

    start = position(red={"a1"}, white=A1_AREA, side="r")
    state = GAME.from_position(start, {"end_rule": "aussetzen"})
    state = GAME.apply(state, "— setzt aus")
    state = GAME.apply(state, GAME.legal_moves(state)[0].text)
    text = GAME.record(state, {})
    assert "1. — setzt aus" in text
    assert GAME.to_json(GAME.parse_record(text)) == GAME.to_json(state)

    perle_first = GAME.from_position("p3r/6/7/8/r7p/8/7/6/p3r p 0")
    perle_first = GAME.apply(GAME.apply(perle_first, "e8"), "e2")
    text = GAME.record(perle_first, {})
    assert "1. ... e8\n2. e2" in text
    assert GAME.to_json(GAME.parse_record(text)) == GAME.to_json(perle_first)


def test_record_of_ended_game_has_result_and_reason() -> None:
    state = GAME.new_game({}, 1)
    for _ in range(2):
        for text in ["e1-e3", "e9-e7", "e3-e1", "e7-e9"]:
            state = GAME.apply(state, text)
    text = GAME.record(state, {"Rubin": "a", "Perle": "b"})
    assert '[Ergebnis "½-½"]' in text
    assert '[Grund "wiederholung"]' in text
    assert '[GrundText "Dreifache Wiederholung / Threefold repetition"]' in text
    assert '[Stand "3-3"]' in text
    assert GAME.outcome(GAME.parse_record(text)).reason == "wiederholung"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        '[Spiel "Battlebullet"]\n\n1. e2',
        '[Spiel "Battlehexagon"]\n[Seed "x"]\n\n1. e2',
        '[Spiel "Battlehexagon"]\n[Optionen "{broken"]\n\n1. e2',
        '[Spiel "Battlehexagon"]\n[Karte "mond"]\n\n1. e2',
        '[Spiel "Battlehexagon"]\n\n1. e5',
        '[Spiel "Battlehexagon"]\n\n1. e2 e2',
        '[Spiel "Battlehexagon"\n\n1. e2',
    ],
)
def test_malformed_records(text: str) -> None:
    with pytest.raises(BadNotation) as err:
        GAME.parse_record(text)
    assert err.value.de and err.value.en


def test_render_shows_board_and_status() -> None:
    picture = GAME.render(GAME.new_game({"map": "dreiloch"}, 1))
    assert "Rubin 3 : 3 Perle" in picture
    assert picture.count("#") == 3
    assert picture.count("R") >= 3
