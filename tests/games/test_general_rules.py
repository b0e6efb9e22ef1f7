"""Battlegeneral: hand-built positions for every edge of every play rule."""

import pytest

from shared.games import IllegalMove, get_game
from tests.games.reference_general import position_text

G = get_game("general")

# Both flags tucked in a corner behind mines, so a test position stays a legal game.
FLAGS = {"j1": "F", "i1": "B", "j2": "B", "a10": "f", "b10": "b", "a9": "b"}


def make(pieces, side="r", quiet=0, **options):
    return G.from_position(position_text({**FLAGS, **pieces}, side, quiet), options)


def texts(state):
    return {m.text for m in G.legal_moves(state)}


def piece_on(state, square):
    view = G.view(state, 0 if G.outcome(state) is None else None)
    found = [p for p in view["pieces"] if p["square"] == square]
    return found[0] if found else None


def test_scout_runs_and_strikes_at_end_of_line():
    st = make({"a2": "A", "a7": "h", "e8": "u"})
    moves = texts(st)
    assert {"a2-a3", "a2-a4", "a2-a5", "a2-a6", "a2-a7", "a2-a1", "a2-b2"} <= moves
    assert "a2-a8" not in moves  # not past the piece it strikes
    with pytest.raises(IllegalMove) as err:
        G.parse_move(st, "a2-a8")
    assert err.value.code == "blocked" and "überspringen" in err.value.de
    after = G.apply(st, "a2-a7")
    assert G.history(after) == ["a2xa7 (2:6)"]  # the scout loses to the Hauptmann
    assert piece_on(after, "a7")["rank"] == "6" and piece_on(after, "a7")["revealed"]
    assert piece_on(after, "a2") is None


def test_scout_winning_run_is_marked_as_scout():
    st = make({"a2": "A", "a7": "s", "e8": "u"})
    after = G.apply(st, "a2xa7")
    p = piece_on(after, "a7")
    assert p["rank"] == "2" and p["scouted"] and p["moved"] and p["owner"] == 0


def test_scout_cannot_cross_a_lake():
    st = make({"b5": "A", "e8": "u"})
    moves = texts(st)
    assert "b5-e5" not in moves and "b5-c5" not in moves
    assert {"b5-a5", "b5-b6", "b5-b9", "b5-b1"} <= moves
    with pytest.raises(IllegalMove) as err:
        G.parse_move(st, "b5-e5")
    assert err.value.code == "blocked"
    with pytest.raises(IllegalMove) as err:
        G.parse_move(st, "b5-c5")
    assert err.value.code == "lake"


def test_only_scouts_move_far_and_nothing_diagonal():
    st = make({"e2": "M", "e8": "u"})
    for text, code in (("e2-e4", "too_far"), ("e2-f3", "not_straight"), ("e2-e2", "not_straight")):
        with pytest.raises(IllegalMove) as err:
            G.parse_move(st, text)
        assert err.value.code == code


def test_mines_and_flag_never_move_and_own_square_is_blocked():
    st = make({"e2": "M", "e3": "L", "e8": "u"})
    for text in ("j1-h1", "i1-h1"):
        with pytest.raises(IllegalMove) as err:
            G.parse_move(st, text)
        assert err.value.code == "immovable"
    with pytest.raises(IllegalMove) as err:
        G.parse_move(st, "e2-e3")
    assert err.value.code == "own_piece"
    with pytest.raises(IllegalMove) as err:
        G.parse_move(st, "e8-e7")
    assert err.value.code == "no_own_piece"


@pytest.mark.parametrize(
    ("attacker", "defender", "winner_square_rank", "history"),
    [
        ("S", "m", ("e5", "S"), "e4xe5 (S:10)"),  # spy attacks marshal: spy wins
        ("M", "s", ("e5", "10"), "e4xe5 (10:S)"),  # marshal attacks spy
        ("N", "b", ("e5", "3"), "e4xe5 (3:B)"),  # miner clears a mine
        ("M", "b", ("e5", "B"), "e4xe5 (10:B)"),  # everyone else dies on it
        ("L", "l", None, "e4xe5 (5:5)"),  # equal: both go
        ("O", "g", ("e5", "9"), "e4xe5 (8:9)"),  # winning defender stays
        ("G", "o", ("e5", "9"), "e4xe5 (9:8)"),
    ],
)
def test_fights(attacker, defender, winner_square_rank, history):
    st = make({"e4": attacker, "e5": defender, "a1": "U", "h9": "u"})
    after = G.apply(st, "e4-e5")
    assert G.history(after) == [history]
    assert piece_on(after, "e4") is None
    if winner_square_rank is None:
        assert piece_on(after, "e5") is None
        assert len(G.view(after, 0)["captured"][0]) == len(G.view(st, 0)["captured"][0]) + 1
        assert len(G.view(after, 0)["captured"][1]) == len(G.view(st, 0)["captured"][1]) + 1
    else:
        p = piece_on(after, winner_square_rank[0])
        assert p["rank"] == winner_square_rank[1] and p["revealed"]
    assert G.view(after, None)["quiet_moves"] == 0


def test_spy_defending_loses_to_marshal():
    st = make({"e4": "S", "e5": "m", "a1": "U", "h9": "u"}, side="b")
    after = G.apply(st, "e5-e4")
    assert G.history(after) == ["e5xe4 (10:S)"]
    assert piece_on(after, "e4")["rank"] == "10" and piece_on(after, "e4")["owner"] == 1


def test_two_squares_rule():
    st = make({"e2": "M", "h7": "u"})
    for red, blue in (("e2-e3", "h7-h8"), ("e3-e2", "h8-h9"), ("e2-e3", "h9-g9")):
        st = G.apply(G.apply(st, red), blue)
    assert "e3-e2" not in texts(st)
    with pytest.raises(IllegalMove) as err:
        G.apply(st, "e3-e2")
    assert err.value.code == "two_squares" and err.value.de.startswith("Zwei-Felder-Regel")
    assert {"e3-e4", "e3-d3", "e3-f3"} <= texts(st)
    # Moving to a third square starts a new count: back and forth is allowed again.
    st = G.apply(G.apply(st, "e3-e4"), "g9-g8")
    assert "e4-e3" in texts(st)


def test_two_squares_rule_counts_attacks_and_ignores_other_pieces_in_between():
    st = make({"e2": "M", "a2": "U", "h7": "u"})
    st = G.apply(G.apply(st, "e2-e3"), "h7-h8")
    st = G.apply(G.apply(st, "a2-a3"), "h8-h9")  # another piece breaks the run
    st = G.apply(G.apply(st, "e3-e2"), "h9-g9")
    st = G.apply(G.apply(st, "e2-e3"), "g9-g8")
    assert "e3-e2" in texts(st)  # only two moves in the new run


def test_more_squares_rule_chase_around_a_square():
    # Red's Major chases Blue's Hauptmann around the 2×2 block a1 b1 b2 a2.
    pieces = {"a1": "J", "b1": "h", "e9": "u"}
    st = G.from_position(position_text({"j1": "F", "i1": "B", "j2": "B", "j10": "f", "i10": "b", "j9": "b", **pieces}, "b"))
    script = ["b1-b2", "a1-b1", "b2-a2", "b1-b2", "a2-a1", "b2-a2", "a1-b1", "a2-a1", "b1-b2"]
    for text in script:
        st = G.apply(st, text)
    # The Major would recreate the position after its first chasing move.
    assert "a1-b1" not in texts(st)
    with pytest.raises(IllegalMove) as err:
        G.apply(st, "a1-b1")
    assert err.value.code == "more_squares" and err.value.de.startswith("Mehr-Felder-Regel")
    # Back to the square it just came from stays allowed (two-squares rule permitting).
    assert "a1-a2" in texts(st)
    assert G.apply(st, "a1-a2") is not None


def test_more_squares_rule_does_not_stop_the_chased_side():
    pieces = {"a1": "J", "b1": "h", "e9": "u"}
    st = G.from_position(position_text({"j1": "F", "i1": "B", "j2": "B", "j10": "f", "i10": "b", "j9": "b", **pieces}, "b"))
    for text in ["b1-b2", "a1-b1", "b2-a2", "b1-b2", "a2-a1", "b2-a2", "a1-b1", "a2-a1", "b1-b2", "a1-a2"]:
        st = G.apply(st, text)
    assert "b2-b1" in texts(st)  # the fleeing Hauptmann may repeat positions


def test_flag_capture_ends_the_game():
    st = make({"a8": "L", "h9": "u"})
    after = G.apply(st, "a8xa9")  # the mine kills the Leutnant …
    assert G.outcome(after) is None
    st = make({"b9": "N", "h9": "u"})
    after = G.apply(st, "b9-a9")  # the miner clears the mine
    after = G.apply(after, "h9-h8")
    after = G.apply(after, "a9-a10")
    out = G.outcome(after)
    assert (out.winner, out.reason, out.de, out.en) == (0, "fahne_erobert", "Fahne erobert", "Flag captured")
    assert G.to_move(after) == () and G.legal_moves(after) == []
    with pytest.raises(IllegalMove) as err:
        G.apply(after, "h8-h7")
    assert err.value.code == "game_over"


def test_side_without_moves_loses():
    # Blue's last mobile piece attacks the Red Marshal and dies: Blue has only flag and mines left.
    st = make({"e5": "M", "e6": "u", "a1": "U"}, side="b")
    after = G.apply(st, "e6xe5")
    assert G.outcome(after) is None  # Red is to move and can
    after = G.apply(after, "a1-a2")
    out = G.outcome(after)
    assert (out.winner, out.reason, out.de) == (0, "keine_zuege", "Keine legalen Züge mehr")


def test_both_blocked_is_a_draw():
    st = make({"e5": "L", "e6": "l"})
    after = G.apply(st, "e5xe6")
    out = G.outcome(after)
    assert (out.winner, out.reason) == (None, "beide_blockiert")


def test_quiet_move_limit():
    st = make({"e2": "M", "h7": "u"}, quiet=199)
    after = G.apply(st, "e2-e3")
    out = G.outcome(after)
    assert (out.winner, out.reason, out.en) == (None, "zweihundert_zuege", "200 moves without a fight")
    short = make({"e2": "M", "i7": "u", "e4": "a"}, max_quiet_moves=3)
    short = G.apply(short, "e2-e3")
    short = G.apply(short, "i7-i6")
    short = G.apply(short, "e3xe4")  # a fight resets the count
    assert G.view(short, None)["quiet_moves"] == 0 and G.outcome(short) is None
    short = G.apply(G.apply(short, "i6-i7"), "e4-e5")
    assert G.outcome(short) is None
    short = G.apply(short, "i7-i8")
    assert G.outcome(short).reason == "zweihundert_zuege"


def test_position_without_blue_flag_is_won_by_red():
    st = G.from_position(position_text({"j1": "F", "e2": "M", "e9": "u"}))
    assert (G.outcome(st).winner, G.outcome(st).reason) == (0, "fahne_erobert")


def test_perft_counts_one_move_per_from_to():
    st = make({"a2": "A", "a7": "h", "e8": "u"})
    # the only mobile Red piece, the scout: a1; a3..a6 and the strike on a7; b2..i2 (j2 is an own mine)
    assert G.perft(st, 1) == len(texts(st)) == 1 + 4 + 1 + 8
