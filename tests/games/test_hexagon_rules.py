"""Battlehexagon rules at their edges, on hand-built positions with concrete results."""

from __future__ import annotations

import pytest

from shared.games import IllegalMove, get_game
from tests.games import reference_hexagon as ref

GAME = get_game("hexagon")
COLUMN_LENGTHS = [5, 6, 7, 8, 9, 8, 7, 6, 5]


def position(red=(), white=(), holes=(), side="r", clock=0) -> str:
    """Position text written cell by cell (no run-length), independent of the engine."""
    columns = []
    for letter, length in zip("abcdefghi", COLUMN_LENGTHS, strict=True):
        column = ""
        for number in range(1, length + 1):
            name = f"{letter}{number}"
            column += "r" if name in red else "p" if name in white else "-" if name in holes else "1"
        columns.append(column)
    return f"{'/'.join(columns)} {side} {clock}"


def state_of(end_rule="auffuellen", **cells):
    return GAME.from_position(position(**cells), {"end_rule": end_rule})


def texts(state) -> set[str]:
    return {m.text for m in GAME.legal_moves(state)}


def cells(state) -> tuple[set[str], set[str]]:
    v = GAME.view(state, None)["cells"]
    return set(v["rubin"]), set(v["perle"])


def test_start_position_and_first_moves() -> None:
    state = GAME.new_game({}, 1)
    assert cells(state) == ({"e1", "i5", "a5"}, {"i1", "e9", "a1"})
    assert GAME.to_move(state) == (0,)
    assert GAME.to_position(state) == "p3r/6/7/8/r7p/8/7/6/p3r r 0"
    moves = texts(state)
    assert {"e2", "d1", "f1", "e1-e3", "e1-c1", "e1-g1"} <= moves
    assert len(moves) == 24


def test_clone_keeps_source_and_jump_empties_it() -> None:
    state = GAME.new_game({}, 1)
    after_clone = GAME.apply(state, "e2")
    assert cells(after_clone)[0] == {"e1", "e2", "i5", "a5"}
    after_jump = GAME.apply(state, "e1-e3")
    assert cells(after_jump)[0] == {"e3", "i5", "a5"}
    assert cells(state)[0] == {"e1", "i5", "a5"}  # input untouched


def test_clones_to_one_destination_are_one_move() -> None:
    state = state_of(red={"d4", "f4", "e3"}, white={"a1"})
    infos = [m for m in GAME.legal_moves(state) if m.text == "e4"]
    assert len(infos) == 1  # e4 touches d4, f4 and e3 but is a single move
    assert infos[0].effect == {"kind": "clone", "from": None, "to": "e4", "turns": []}


def test_jump_over_a_hole() -> None:
    state = GAME.from_position(position(red={"e3"}, white={"a1"}, holes={"e4", "d5", "f5"}), {"map": "dreiloch"})
    assert GAME.view(state, None)["map"] == "dreiloch"
    assert "e3-e5" in texts(state)  # over the hole e4
    assert "e4" not in texts(state)
    after = GAME.apply(state, "e3-e5")
    assert cells(after)[0] == {"e5"}
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, "e3-e4")
    assert err.value.code == "hole"


def test_jump_over_stones_of_both_sides() -> None:
    state = state_of(red={"e3", "e4"}, white={"e6", "a1"}, side="r")
    assert "e4-e6" not in texts(state)
    state = state_of(red={"e3"}, white={"e4", "a1"})
    after = GAME.apply(state, "e3-e5")
    assert cells(after) == ({"e4", "e5"}, {"a1"})  # jumped over e4, then turned it


def test_turning_all_six() -> None:
    ring = set(ref.neighbours("e5"))
    assert len(ring) == 6
    state = state_of(red={"e3"}, white=ring | {"a1"})
    info = next(m for m in GAME.legal_moves(state) if m.text == "e3-e5")
    assert set(info.effect["turns"]) == ring
    assert info.effect == {"kind": "jump", "from": "e3", "to": "e5", "turns": sorted(ring, key=ref.ALL_NAMES.index)}
    after = GAME.apply(state, "e3-e5")
    assert cells(after) == (ring | {"e5"}, {"a1"})


def test_turning_only_enemy_neighbours_of_destination() -> None:
    state = state_of(red={"c3"}, white={"c4", "c5", "a1"})
    after = GAME.apply(state, "b3")
    # b3 touches c4 (turns) but not c5 (stays Perle)
    assert cells(after) == ({"c3", "b3", "c4"}, {"c5", "a1"})


# A Rubin stone on a1 shut in: every cell within two steps of a1 is Perle's.
A1_AREA = {n for n in ref.ALL_NAMES if 1 <= ref.distance("a1", n) <= 2}


def test_no_move_auffuellen_fills_the_rest_for_the_opponent() -> None:
    state = state_of(red={"a1"}, white=A1_AREA, side="r")
    outcome = GAME.outcome(state)
    assert outcome.reason == "keine_zuege" and outcome.winner == 1
    empty = 61 - 1 - len(A1_AREA)
    assert outcome.score == (1.0, float(len(A1_AREA) + empty))
    assert GAME.to_move(state) == ()
    assert GAME.legal_moves(state) == []
    assert (outcome.de, outcome.en) == ("Kein Zug mehr (Auffüllen)", "No move left (fill up)")


def test_no_move_aussetzen_passes_then_the_other_moves_on() -> None:
    state = state_of("aussetzen", red={"a1"}, white=A1_AREA, side="r", clock=5)
    assert GAME.outcome(state) is None
    infos = GAME.legal_moves(state)
    assert [m.to_dict() for m in infos] == [
        {"text": "— setzt aus", "effect": {"kind": "pass", "from": None, "to": None, "turns": []}}
    ]
    for spelling in ("— setzt aus", "pass", "--", "PASS"):
        assert GAME.parse_move(state, spelling) == GAME.parse_move(state, "— setzt aus")
    after = GAME.apply(state, "pass")
    assert GAME.to_move(after) == (1,)
    assert cells(after) == cells(state)
    assert GAME.view(after, None)["clock"] == 6  # a pass counts toward the 50-move rule
    assert GAME.history(after) == ["— setzt aus"]
    assert len(GAME.legal_moves(after)) > 1


def test_pass_refused_when_a_move_exists_or_under_auffuellen() -> None:
    state = state_of("aussetzen", red={"e1"}, white={"a1"})
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, "pass")
    assert err.value.code == "pass_not_allowed"
    with pytest.raises(IllegalMove) as err:
        GAME.apply(GAME.new_game({}, 1), "— setzt aus")
    assert err.value.code == "no_pass_rule"


# e5 empty, everything within two steps of it a hole, the rest filled: nobody can move.
E5_MOAT = {n for n in ref.ALL_NAMES if 1 <= ref.distance("e5", n) <= 2}
OUTER = [n for n in ref.ALL_NAMES if ref.distance("e5", n) >= 3]


@pytest.mark.parametrize(
    ("end_rule", "reason", "score"),
    [("aussetzen", "keine_zuege_beide", (21.0, 21.0)), ("auffuellen", "keine_zuege", (21.0, 22.0))],
)
def test_neither_side_can_move(end_rule: str, reason: str, score: tuple) -> None:
    red, white = set(OUTER[:21]), set(OUTER[21:])
    state = state_of(end_rule, red=red, white=white, holes=E5_MOAT, side="r")
    outcome = GAME.outcome(state)
    assert outcome.reason == reason
    assert outcome.score == score
    assert outcome.winner == (None if score[0] == score[1] else 1)
    assert GAME.view(state, None)["map"] == "eigen"


def test_fifty_move_rule_counts_jumps_and_passes_and_resets_on_clone() -> None:
    state = state_of(red={"e1"}, white={"e9"}, clock=99)
    assert GAME.outcome(state) is None
    after_jump = GAME.apply(state, "e1-e3")
    outcome = GAME.outcome(after_jump)
    assert (outcome.reason, outcome.winner, outcome.de) == ("fuenfzig_zuege", None, "50-Züge-Regel")
    after_clone = GAME.apply(state, "e2")
    assert GAME.outcome(after_clone) is None
    assert GAME.view(after_clone, None)["clock"] == 0
    passing = state_of("aussetzen", red={"a1"}, white=A1_AREA, clock=99)
    assert GAME.outcome(GAME.apply(passing, "pass")).reason == "fuenfzig_zuege"


def test_fifty_moves_per_side_without_clone_is_a_draw_exactly_at_move_100() -> None:
    state = state_of(red={"e1"}, white={"e9"})
    seen = {GAME.to_position(state).rsplit(" ", 1)[0]}
    for ply in range(100):
        assert GAME.outcome(state) is None, ply
        for info in GAME.legal_moves(state):
            if info.effect["kind"] != "jump" or info.effect["turns"]:
                continue
            after = GAME.apply(state, info.text)
            key = GAME.to_position(after).rsplit(" ", 1)[0]
            if key not in seen:
                break
        seen.add(key)
        state = after
        assert GAME.view(state, None)["clock"] == ply + 1
    outcome = GAME.outcome(state)
    assert (outcome.reason, outcome.winner) == ("fuenfzig_zuege", None)


def test_threefold_repetition() -> None:
    state = GAME.new_game({}, 1)
    for _ in range(2):
        for text in ["e1-e3", "e9-e7", "e3-e1", "e7-e9"]:
            assert GAME.outcome(state) is None
            state = GAME.apply(state, text)
    outcome = GAME.outcome(state)
    assert (outcome.reason, outcome.winner, outcome.en) == ("wiederholung", None, "Threefold repetition")
    assert GAME.view(state, None)["clock"] == 8


def test_same_stones_other_side_is_not_a_repetition() -> None:
    # passes give the same stones with the other side to move: different positions
    state = state_of("aussetzen", red={"a1"}, white=A1_AREA | {"e9"})
    state = GAME.apply(state, "pass")
    assert GAME.outcome(state) is None


def test_board_full() -> None:
    everything = set(ref.ALL_NAMES)
    white = set(ref.ALL_NAMES[:30])
    red = everything - white - {"i5"}
    state = state_of(red=red, white=white, side="r")
    after = GAME.apply(state, "i5")
    outcome = GAME.outcome(after)
    assert (outcome.reason, outcome.de, outcome.en) == ("brett_voll", "Brett voll", "Board full")
    red_after, white_after = cells(after)
    assert len(red_after) + len(white_after) == 61
    assert outcome.score == (float(len(red_after)), float(len(white_after)))
    assert outcome.winner == 0


def test_board_full_equal_is_a_draw() -> None:
    holes = {"e5"}
    names = [n for n in ref.ALL_NAMES if n not in holes]
    state = state_of(red=set(names[:30]), white=set(names[30:]), holes=holes)
    outcome = GAME.outcome(state)
    assert (outcome.reason, outcome.winner, outcome.score) == ("brett_voll", None, (30.0, 30.0))


def test_no_stones_left() -> None:
    state = state_of(red={"e1"}, white={"e3", "d2"}, side="r")
    after = GAME.apply(state, "e2")
    outcome = GAME.outcome(after)
    assert (outcome.reason, outcome.winner, outcome.score) == ("keine_steine", 0, (4.0, 0.0))
    assert (outcome.de, outcome.en) == ("Keine Steine mehr", "No stones left")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("e1", "cell_not_empty"),
        ("e3", "no_stone_adjacent"),
        ("i1-g1", "not_your_stone"),
        ("e1-e2", "jump_too_short"),
        ("e1-e4", "jump_wrong_distance"),
        ("e1-e9", "cell_not_empty"),
    ],
)
def test_illegal_moves_say_why(text: str, code: str) -> None:
    state = GAME.new_game({}, 1)
    before = GAME.to_json(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, text)
    assert err.value.code == code
    assert err.value.de and err.value.en and err.value.de != err.value.en
    assert GAME.to_json(state) == before


def test_cell_not_empty_message() -> None:
    with pytest.raises(IllegalMove) as err:
        GAME.parse_move(GAME.new_game({}, 1), "e1")
    assert err.value.de == "Das Feld e1 ist nicht frei"
    assert err.value.en == "The cell e1 is not empty"


def test_wrong_seat_and_moves_after_the_end() -> None:
    state = GAME.new_game({}, 1)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, "e8", seat=1)
    assert err.value.code == "not_your_turn"
    assert GAME.legal_moves(state, seat=1) == []
    over = state_of(red={"a1"}, white=A1_AREA)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(over, "pass")
    assert err.value.code == "game_over"
    assert (err.value.de, err.value.en) == ("Die Partie ist vorbei", "The game is over")


def test_help_info() -> None:
    state = state_of(red={"e1", "a5"}, white={"e4", "b6"})
    help_red = GAME.help_info(state, 0)
    assert set(help_red["clone_targets"]) == {"d1", "e2", "f1", "a4", "b5"}
    # Perle can reach e2/e3/… (next to e1) and a4/b5/… (next to a5): both Rubin stones at risk
    assert set(help_red["threatened"]) == {"e1", "a5"}
    far = state_of(red={"e1"}, white={"e9"})
    assert GAME.help_info(far, 0)["threatened"] == []
    assert GAME.view(state, 0)["help"] == help_red
    assert "help" not in GAME.view(state, 1)
