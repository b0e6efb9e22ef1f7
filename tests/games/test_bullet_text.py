"""Options, notation, position text, JSON and records: round trips and bad input."""

from __future__ import annotations

import json

import pytest

from shared.games import BadNotation, BadOptions, GameError, IllegalMove, get_game
from tests.games import reference_bullet as ref

GAME = get_game("bullet")
STANDARD = "bbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww w 0 0 0"


def played(texts: list[str], options: dict | None = None):
    state = GAME.new_game(options or {}, 5)
    for text in texts:
        state = GAME.apply(state, text)
    return state


# ---- options ---------------------------------------------------------------------------
def test_default_options() -> None:
    assert GAME.normalize_options({}) == {"layout": "standard", "win_target": 6, "move_limit": None}
    assert GAME.default_options() == {"layout": "standard", "win_target": 6, "move_limit": None}
    assert GAME.normalize_options({"layout": "deutsch", "win_target": 4, "move_limit": 100})["win_target"] == 4


@pytest.mark.parametrize(
    "options",
    [
        {"layout": "gross"},
        {"win_target": 5},
        {"win_target": True},
        {"move_limit": 50},
        {"map": "klassisch"},
        {"win_target": "6"},
    ],
)
def test_bad_options(options: dict) -> None:
    with pytest.raises(BadOptions) as info:
        GAME.normalize_options(options)
    assert info.value.de and info.value.en and info.value.de != info.value.en
    with pytest.raises(BadOptions):
        GAME.new_game(options, 1)


def test_position_of_each_layout_matches_rules_table() -> None:
    assert GAME.to_position(GAME.new_game({}, 1)) == STANDARD
    for layout in ("standard", "belgisch", "deutsch"):
        expected = ref.position_text(ref.start_board(layout), 0)
        assert GAME.to_position(GAME.new_game({"layout": layout}, 1)) == expected


# ---- notation --------------------------------------------------------------------------
def test_every_legal_move_text_round_trips_in_any_order() -> None:
    state = played(["C3C5-D4D6", "G5G7-F4F6", "D4D6-E5E7"])
    for info in GAME.legal_moves(state):
        move = GAME.parse_move(state, info.text)
        assert GAME.move_text(state, move) == info.text
        source, target = info.text.split("-")
        if len(source) == 4:
            swapped = f"{source[2:]}{source[:2]}-{target[2:]}{target[:2]}".lower()
            assert GAME.parse_move(state, swapped) == move
            assert GAME.parse_move(state, f" {source[2:]} {source[:2]} - {target[:2]}{target[2:]} ") == move


@pytest.mark.parametrize("text", ["", "xyz", "A1", "A1-", "A1A2A3-B1", "J1-J2", "A1->B2", "A10-B1", "A1_B2", "A6-A7"])
def test_garbage_move_text(text: str) -> None:
    state = GAME.new_game({}, 1)
    with pytest.raises(BadNotation) as info:
        GAME.parse_move(state, text)
    assert info.value.de and info.value.en


def test_move_text_must_be_text() -> None:
    with pytest.raises(BadNotation):
        GAME.parse_move(GAME.new_game({}, 1), 17)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("A1A5-B1B5", "not_a_line"),  # five cells apart
        ("A1B3-A2B4", "not_a_line"),  # not on one line
        ("A1A3-B1B2", "count_mismatch"),
        ("A1-A3", "not_one_step"),
        ("C3C5-D3D6", "not_a_line"),
        ("C3C5-D5D7", "not_one_step"),
        ("E5-E6", "no_marble"),
        ("I5-H5", "not_own"),
        ("A1A3-B1B3", "broadside_blocked"),
        ("A1A2-A2A3", "own_blocks"),
        ("C4C5-C5C6", "legal"),
    ],
)
def test_illegal_moves_name_their_reason(text: str, code: str) -> None:
    state = GAME.new_game({}, 1)
    before = GAME.to_json(state)
    if code == "legal":  # the control: the same kind of text, legal here
        assert GAME.history(GAME.apply(state, text)) == [text]
        return
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, text)
    assert info.value.code == code
    assert info.value.de != info.value.en
    assert GAME.to_json(state) == before


def test_wrong_seat_and_after_the_end() -> None:
    state = GAME.new_game({}, 1)
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, "C5-C6", seat=1)
    assert info.value.code == "not_your_turn" and "nicht am Zug" in info.value.de
    assert GAME.legal_moves(state, 1) == []
    assert GAME.to_move(state) == (0,)
    end = GAME.from_position(ref.position_text(ref.board_from("I6 H4 H5", "I5"), 1))
    assert GAME.outcome(end) is not None
    with pytest.raises(IllegalMove) as info:
        GAME.apply(end, "I5-I6")
    assert info.value.code == "game_over"
    assert GAME.legal_moves(end) == []


def test_apply_move_ids() -> None:
    state = GAME.new_game({}, 1)
    move = GAME.parse_move(state, "C3C5-D4D6")
    assert GAME.to_position(GAME.apply(state, move)) == GAME.to_position(GAME.apply(state, "C3C5-D4D6"))
    other = GAME.parse_move(GAME.apply(state, "C5-C6"), "G7-G8")  # a Schwarz move
    with pytest.raises(IllegalMove):
        GAME.apply(state, other)  # a move id that is not legal here
    for bad in (-1, 10**6, True):
        with pytest.raises(GameError):
            GAME.apply(state, bad)


def test_apply_never_mutates() -> None:
    state = GAME.new_game({}, 1)
    snapshot = (GAME.to_json(state), GAME.history(state), state.seen)
    GAME.apply(state, "C3C5-D4D6")
    assert (GAME.to_json(state), GAME.history(state), state.seen) == snapshot


# ---- positions -----------------------------------------------------------------------
def test_position_round_trip() -> None:
    state = played(["C3C5-D4D6", "G5G7-F4F6"])
    text = GAME.to_position(state)
    again = GAME.from_position(text)
    assert GAME.to_position(again) == text
    assert GAME.perft(again, 2) == GAME.perft(state, 2)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "garbage",
        "bbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww x 0 0 0",  # side
        "bbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww w 0 0 0",  # 8 rows
        "bbbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww w 0 0 0",  # row too long
        "bbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww w 0 0 0",  # row too short
        "bbbbb/bbbbbb/2bqb2/8/9/8/2www2/wwwwww/wwwww w 0 0 0",  # letter
        "bbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww w -1 0 0",
        "bbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww w 15 0 0",
        "bbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww w 6 6 0",  # both reached the target
        "bbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww w 0 0",
        "bbbbb/bbbbbb/bbbbbbb/8/9/8/2www2/wwwwww/wwwww w 0 0 0",  # 16 Schwarz marbles
    ],
)
def test_malformed_positions(text: str) -> None:
    with pytest.raises(BadNotation) as info:
        GAME.from_position(text)
    assert info.value.de and info.value.en


# ---- JSON ---------------------------------------------------------------------------
def test_json_round_trip_is_exact_and_plain() -> None:
    state = played(["C3C5-D4D6", "G5G7-F4F6", "D4D6-E5E7"], {"layout": "standard", "move_limit": 100})
    data = GAME.to_json(state)
    assert json.loads(json.dumps(data)) == data
    again = GAME.from_json(json.loads(json.dumps(data)))
    assert again == state
    assert GAME.to_json(again) == data


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(game="hexagon"),
        lambda d: d.pop("moves"),
        lambda d: d.update(moves=["C3C5-D4D6", "Z9-Z8"]),
        lambda d: d.update(moves=["C3C5-D4D6", "C3C5-D4D6"]),
        lambda d: d.update(position=STANDARD),
        lambda d: d.update(options={"layout": "rund"}),
        lambda d: d.update(seed="x"),
        lambda d: d.update(start=7),
        lambda d: d.update(moves=[5]),
    ],
)
def test_malformed_json(mutate) -> None:
    data = GAME.to_json(played(["C3C5-D4D6"]))
    mutate(data)
    with pytest.raises(BadNotation):
        GAME.from_json(data)
    with pytest.raises(BadNotation):
        GAME.from_json("not a dict")


# ---- records ----------------------------------------------------------------------------
def test_record_has_headers_and_numbered_moves() -> None:
    state = GAME.new_game({"layout": "standard", "win_target": 4}, 9)
    for text in ["C3C5-D4D6", "G5G7-F4F6", "D4D6-E5E7"]:
        state = GAME.apply(state, text)
    text = GAME.record(state, {"White": 'anna "die Große"', "Black": "bob", "Date": "2026-11-30"})
    lines = text.splitlines()
    assert '[Game "bullet"]' in lines and '[WinTarget "4"]' in lines and '[Seed "9"]' in lines
    assert '[White "anna \\"die Große\\""]' in lines and '[Date "2026-11-30"]' in lines
    assert "1. C3C5-D4D6 G5G7-F4F6" in lines and "2. D4D6-E5E7" in lines
    assert lines[-1] == "*"
    again = GAME.parse_record(text)
    assert again == state


def test_record_of_finished_game_from_a_position() -> None:
    start = ref.position_text(ref.board_from("C1 B1 E5", "A1 I9"), 1, (5, 0), 40)
    state = GAME.from_position(start)
    state = GAME.apply(state, "I9-I8")
    state = GAME.apply(state, "B1C1-A1B1")
    text = GAME.record(state, {"Result": "forged"})
    assert '[Result "1-0"]' in text and '[Reason "siegziel"]' in text and "1... I9-I8" in text
    assert "2. B1C1-A1B1" in text and "forged" not in text
    assert GAME.parse_record(text) == state


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.replace('[Game "bullet"]', '[Game "hexagon"]'),
        lambda t: t.replace("G5G7-F4F6", "G5G7-F5F7"),
        lambda t: t.replace("C3C5-D4D6", "Q1-Q2"),
        lambda t: t.replace('[Layout "standard"]', '[Layout "rund"]'),
        lambda t: t.replace('[WinTarget "6"]', '[WinTarget "sechs"]'),
        lambda t: t.replace('[Seed "5"]', '[Seed "fünf"]'),
        lambda t: t.replace('[Final "', '[Final "x'),
        lambda t: t.replace('[Layout "standard"]', "[Layout standard]"),
        lambda t: 17,
    ],
)
def test_malformed_records(change) -> None:
    text = GAME.record(played(["C3C5-D4D6", "G5G7-F4F6"]), {})
    with pytest.raises(BadNotation) as info:
        GAME.parse_record(change(text))
    assert info.value.de and info.value.en


# ---- view ----------------------------------------------------------------------------
def test_view_per_seat() -> None:
    state = played(["C3C5-D4D6"])  # Schwarz to move
    black, white, spectator = GAME.view(state, 1), GAME.view(state, 0), GAME.view(state, None)
    assert len(black["legal_moves"]) == GAME.perft(state, 1)
    assert black["legal_moves"][0] == GAME.legal_moves(state)[0].to_dict()
    assert white["legal_moves"] == [] and spectator["legal_moves"] == []
    for view in (black, white, spectator):
        assert view["to_move"] == [1] and view["history"] == ["C3C5-D4D6"]
        assert view["pushed_out"] == [0, 0] and view["outcome"] is None
    assert {k: v for k, v in black.items() if k not in ("seat", "legal_moves")} == {
        k: v for k, v in spectator.items() if k not in ("seat", "legal_moves")
    }
    limited = GAME.apply(GAME.new_game({"move_limit": 100}, 1), "C5-C6")
    assert GAME.view(limited, None)["moves_left"] == [99, 100]
