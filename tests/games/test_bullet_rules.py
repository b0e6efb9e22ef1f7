"""Hand-built positions for every edge of the Battlebullet rules (docs/rules.md)."""

from __future__ import annotations

import pytest

from shared.games import BadNotation, IllegalMove, get_game
from tests.games import reference_bullet as ref

GAME = get_game("bullet")


def position(white: str, black: str, side: int = 0, out: tuple[int, int] = (0, 0), plies: int = 0, **options):
    text = ref.position_text(ref.board_from(white, black), side, out, plies)
    return GAME.from_position(text, options)


def marbles(state) -> tuple[list[str], list[str]]:
    view = GAME.view(state, None)
    return view["marbles"]["white"], view["marbles"]["black"]


def effect_of(state, text: str) -> dict:
    move = GAME.parse_move(state, text)
    canonical = GAME.move_text(state, move)
    return next(m.effect for m in GAME.legal_moves(state) if m.text == canonical)


def refused(state, text: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        GAME.parse_move(state, text)
    return info.value


# ---- pushing --------------------------------------------------------------------------
def test_two_push_one_off_the_edge() -> None:
    state = position("C1 B1", "A1")
    eff = effect_of(state, "B1C1-A1B1")
    assert eff["kind"] == "inline" and eff["dir"] == "SE"
    assert eff["push"] == 1 and eff["out"] is True
    assert ["A1", None] in eff["moves"]
    after = GAME.apply(state, "B1C1-A1B1")
    assert marbles(after) == (["A1", "B1"], [])
    assert GAME.view(after, None)["pushed_out"] == [1, 0]


def test_three_push_two_off_the_edge() -> None:
    state = position("E5 E6 E7", "E8 E9")
    eff = effect_of(state, "E5E7-E6E8")
    assert eff["push"] == 2 and eff["out"] is True
    assert sorted(eff["moves"], key=str) == sorted(
        [["E5", "E6"], ["E6", "E7"], ["E7", "E8"], ["E8", "E9"], ["E9", None]], key=str
    )
    after = GAME.apply(state, "E7E5-E8E6")  # ends named the other way round: same move
    assert marbles(after) == (["E6", "E7", "E8"], ["E9"])
    assert after.out == (1, 0)


def test_three_push_two_on_the_board() -> None:
    state = position("E3 E4 E5", "E6 E7")
    eff = effect_of(state, "E3E5-E4E6")
    assert eff["push"] == 2 and eff["out"] is False
    assert marbles(GAME.apply(state, "E3E5-E4E6")) == (["E4", "E5", "E6"], ["E7", "E8"])


def test_three_push_one() -> None:
    state = position("E3 E4 E5", "E6")
    assert effect_of(state, "E3E5-E4E6")["push"] == 1


def test_push_blocked_by_own_marble_behind() -> None:
    state = position("E3 E4 E5 E7", "E6")
    assert refused(state, "E3E5-E4E6").code == "sandwiched"
    assert refused(state, "E4E5-E5E6").code == "sandwiched"


@pytest.mark.parametrize(
    ("white", "black", "text"),
    [
        ("E3 E4", "E5 E6", "E3E4-E4E5"),  # 2 against 2
        ("E1 E2 E3", "E4 E5 E6", "E1E3-E2E4"),  # 3 against 3
        ("E2 E3 E4", "E5 E6 E7 E8", "E2E4-E3E5"),  # enemy line too long
        ("E3 E4", "E5 E6 E7", "E3E4-E4E5"),
    ],
)
def test_push_needs_majority(white: str, black: str, text: str) -> None:
    state = position(white, black)
    error = refused(state, text)
    assert error.code == "no_majority"
    assert "Überzahl" in error.de and "majority" in error.en


def test_single_marble_cannot_push() -> None:
    state = position("E4", "E5")
    assert refused(state, "E4-E5").code == "single_push"


def test_never_push_own_marbles() -> None:
    state = position("E4 E5 E6 E7", "I9")
    error = refused(state, "E4E5-E5E6")
    assert error.code == "own_blocks"
    assert "nicht frei" in error.de and "not empty" in error.en


def test_push_cannot_jump_a_gap() -> None:
    # the enemy line must start directly ahead of the leading marble
    state = position("E3 E4", "E6")
    assert effect_of(state, "E3E4-E4E5")["push"] == 0


# ---- broadside ---------------------------------------------------------------------------
def test_broadside_next_to_enemy_never_pushes() -> None:
    state = position("E4 E5", "F5 I9")
    error = refused(state, "E4E5-F4F5")
    assert error.code == "broadside_blocked"
    assert "F5" in error.de
    # the other way, both targets empty, is fine and pushes nothing
    eff = effect_of(state, "E4E5-D3D4")
    assert eff["kind"] == "broadside" and eff["push"] == 0


def test_broadside_partly_blocked() -> None:
    state = position("E4 E5 E6", "F7")
    assert refused(state, "E4E6-F5F7").code == "broadside_blocked"
    legal = {
        m.text for m in GAME.legal_moves(state) if m.effect["kind"] == "broadside" and len(m.effect["marbles"]) == 3
    }
    # three marbles: 4 sideways directions, one blocked by F7
    assert legal == {"E4E6-F4F6", "E4E6-D3D5", "E4E6-D4D6"}


def test_broadside_of_two_counts_once() -> None:
    state = position("E4 E5", "I9")
    texts = [m.text for m in GAME.legal_moves(state)]
    assert len(texts) == len(set(texts))
    # 2 singles x 6 directions minus 2 blocked by each other, pair: 2 in line + 4 sideways
    assert len(texts) == 10 + 2 + 4
    assert GAME.parse_move(state, "E5E4-F5F4") == GAME.parse_move(state, "E4E5-F4F5")


# ---- the board edge -----------------------------------------------------------------------
def test_own_marbles_never_leave_the_board() -> None:
    state = position("A1 A2 A3", "I9")
    for info in GAME.legal_moves(state):
        assert all(to is not None for _, to in info.effect["moves"])
    with pytest.raises(BadNotation):
        GAME.parse_move(state, "A1A3-A0A2")  # A0 is no cell: the move cannot even be written
    with pytest.raises(BadNotation):
        GAME.parse_move(state, "A1-B0")
    # only the in-line move east and the sideways/up moves remain
    texts = {m.text for m in GAME.legal_moves(state) if len(m.effect["marbles"]) == 3}
    assert texts == {"A1A3-A2A4", "A1A3-B1B3", "A1A3-B2B4"}


# ---- end of the game ---------------------------------------------------------------------
@pytest.mark.parametrize(("target", "before"), [(6, 5), (4, 3)])
def test_win_target_reached(target: int, before: int) -> None:
    state = position("C1 B1 E5", "A1 I9", out=(before, 0), win_target=target)
    after = GAME.apply(state, "B1C1-A1B1")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "siegziel"
    assert outcome.score == (float(target), 0.0)
    assert GAME.to_move(after) == ()
    assert "Siegziel" in outcome.de


def test_win_target_not_yet_reached() -> None:
    state = position("C1 B1 E5", "A1 I9", out=(3, 0), win_target=6)
    after = GAME.apply(state, "B1C1-A1B1")
    assert GAME.outcome(after) is None and after.out == (4, 0)


def test_move_limit_decides_by_marbles_pushed_out() -> None:
    state = position("E1 E2", "I9 I8", side=1, out=(2, 1), plies=199, move_limit=100)
    assert GAME.outcome(state) is None
    after = GAME.apply(state, "I9-H9")
    outcome = GAME.outcome(after)
    assert outcome.reason == "zuglimit" and outcome.winner == 0


def test_move_limit_draw_when_equal() -> None:
    state = position("E1 E2", "I9 I8", side=1, out=(1, 1), plies=199, move_limit=100)
    outcome = GAME.outcome(GAME.apply(state, "I9-H9"))
    assert outcome.reason == "zuglimit" and outcome.winner is None


def test_no_move_limit_by_default() -> None:
    state = position("E1 E2", "I9 I8", side=1, out=(1, 1), plies=199)
    assert GAME.outcome(GAME.apply(state, "I9-H9")) is None


def test_threefold_repetition_is_a_draw() -> None:
    state = GAME.new_game({}, 3)
    shuffle = ["C5-C6", "G7-G8", "C6-C5", "G8-G7"]
    for text in shuffle:
        state = GAME.apply(state, text)
    assert GAME.outcome(state) is None  # start position for the second time
    for text in shuffle[:3]:
        state = GAME.apply(state, text)
    assert GAME.outcome(state) is None
    state = GAME.apply(state, shuffle[3])  # and the third
    outcome = GAME.outcome(state)
    assert outcome.reason == "wiederholung" and outcome.winner is None
    assert GAME.to_move(state) == ()


def test_same_marbles_other_side_to_move_is_no_repetition() -> None:
    # Weiß circles E1-E2-F2 (3 moves), Schwarz shuffles I9-I8 (2 moves): the marbles
    # repeat every 6 plies with the side to move alternating, every 12 plies exactly.
    state = position("E1", "I9")
    white = ["E1-E2", "E2-F2", "F2-E1"]
    black = ["I9-I8", "I8-I9"]
    for ply in range(24):
        assert GAME.outcome(state) is None, ply
        text = white[(ply // 2) % 3] if ply % 2 == 0 else black[(ply // 2) % 2]
        state = GAME.apply(state, text)
    # E1/I9 with Weiß to move: plies 0, 12, 24 (with Schwarz to move it occurred at 5 and 17)
    assert GAME.outcome(state).reason == "wiederholung"


def test_side_without_moves_loses() -> None:
    # the lone Schwarz marble in the corner I5 is walled in after G5-H5
    state = position("I6 H4 G5 E1", "I5")
    after = GAME.apply(state, "G5-H5")
    outcome = GAME.outcome(after)
    assert outcome.reason == "keine_zuege" and outcome.winner == 0
    assert GAME.legal_moves(after) == []


def test_position_without_moves_is_over_at_once() -> None:
    state = position("I6 H4 H5", "I5", side=1)
    assert GAME.outcome(state).reason == "keine_zuege"


# ---- Gefahr an ---------------------------------------------------------------------------
def test_danger_marks_marbles_that_can_be_pushed_out() -> None:
    state = position("E5 E6 E7 C1 B1", "E8 E9 A1 A5", side=1)
    assert GAME.danger_info(state, 1) == ["A1", "E9"]
    assert GAME.danger_info(state, 0) == []
    assert GAME.view(state, 1)["danger"] == [[], ["A1", "E9"]]
