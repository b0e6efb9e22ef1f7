"""Battlegeneral: the setup phase, presets, mirroring and Blue's orientation."""

import pytest

from shared.games import BadNotation, IllegalMove, get_game
from shared.games.general.setup_phase import next_piece
from shared.games.general.setups import COMPUTER_SETUPS, PRESET_NAMES, STANDARD_SETUPS, preset_squares

G = get_game("general")


def fresh():
    return G.new_game({}, 5)


def own_setup(state, seat):
    return G.view(state, seat)["setup"]["own"]


def test_both_seats_set_up_at_once_and_red_starts():
    st = fresh()
    assert G.to_move(st) == (0, 1)
    st = G.apply(st, "aufstellung Blitzkrieg", 1)
    st = G.apply(st, "fertig", 1)
    assert G.to_move(st) == (0,)
    with pytest.raises(IllegalMove) as err:
        G.apply(st, "spiegeln", 1)
    assert err.value.code == "already_ready"
    st = G.apply(st, "aufstellung Corner Blitz", 0)
    st = G.apply(st, "fertig", 0)
    assert G.to_move(st) == (0,) and G.view(st, 0)["phase"] == "play"
    assert len(G.view(st, None)["pieces"]) == 80


def test_seat_is_required_while_both_set_up():
    with pytest.raises(IllegalMove) as err:
        G.apply(fresh(), "spiegeln")
    assert err.value.code == "seat_required"


def test_place_remove_and_validation():
    st = G.apply(fresh(), "setze a1 10", 0)
    assert own_setup(st, 0) == {"a1": "10"}
    cases = [
        ("setze a1 9", "occupied", "Das Feld ist nicht frei"),
        ("setze b1 10", "none_left", "Alle Feldmarschall (×1) stehen schon"),
        ("setze a5 9", "wrong_half", "Das Feld liegt nicht in deiner Bretthälfte"),
        ("setze a7 9", "wrong_half", "Das Feld liegt nicht in deiner Bretthälfte"),
        ("setze c5 9", "lake", "Das Feld ist ein See"),
        ("entferne b1", "no_own_piece", "Auf dem Feld steht keine eigene Figur"),
        ("fertig", "setup_incomplete", "Es stehen erst 1 von 40 Figuren"),
    ]
    for text, code, german in cases:
        with pytest.raises(IllegalMove) as err:
            G.apply(st, text, 0)
        assert (err.value.code, err.value.de) == (code, german)
    with pytest.raises(IllegalMove) as err:
        G.apply(st, "setze a4 9", 1)  # Blue's half is ranks 7–10
    assert err.value.code == "wrong_half"
    st2 = G.apply(st, "entferne a1", 0)
    assert own_setup(st2, 0) == {}
    assert own_setup(st, 0) == {"a1": "10"}  # the input state is unchanged


def test_counts_per_rank_are_enforced():
    st = fresh()
    for square in ("a1", "b1", "c1", "d1", "e1", "f1"):
        st = G.apply(st, f"setze {square} B", 0)
    with pytest.raises(IllegalMove) as err:
        G.apply(st, "setze g1 B", 0)
    assert err.value.code == "none_left"


def test_bad_setup_text():
    for text in ("setze a1", "setze z1 10", "setze a1 11", "entferne", "aufstellung Nirgendwo", "aufstellung"):
        with pytest.raises(BadNotation):
            G.parse_move(fresh(), text, 0)
    with pytest.raises(IllegalMove) as err:
        G.parse_move(fresh(), "a4-a5", 0)
    assert err.value.code == "setup_running"


def test_next_piece_order_is_highest_rank_first_then_mines_then_flag():
    assert next_piece({}) == 10
    placed = {0: 10, 1: 9}
    assert next_piece(placed) == 8
    all_but_flag = {sq: r for sq, r in preset_squares("Blitzkrieg", 0).items() if r != 12}
    assert next_piece(all_but_flag) == 12
    only_mines_missing = {sq: r for sq, r in preset_squares("Blitzkrieg", 0).items() if r != 11}
    assert next_piece(only_mines_missing) == 11
    assert next_piece(preset_squares("Blitzkrieg", 0)) is None
    view = G.view(G.apply(fresh(), "setze a1 10", 0), 0)
    assert view["setup"]["next_piece"] == "9"


def test_presets_and_choices():
    assert len(PRESET_NAMES) == 25
    assert STANDARD_SETUPS == (
        "Blitzkrieg", "Corner Blitz", "Corner Fortress", "Cyclone Defense",
        "Early Warning", "Man the Barricades", "On Guard", "Scout's Gambit",
    )
    assert len(COMPUTER_SETUPS) == 20 and set(STANDARD_SETUPS) < set(COMPUTER_SETUPS)
    assert len(set(COMPUTER_SETUPS)) == 20


def test_red_orientation_of_a_preset():
    # Blitzkrieg back row "4 4 5 2 3 6 B F B 2", front row "3 8 5 6 9 10 4 6 8 2"
    setup = own_setup(G.apply(fresh(), "aufstellung blitzkrieg", 0), 0)
    assert [setup[f + "1"] for f in "abcdefghij"] == "4 4 5 2 3 6 B F B 2".split()
    assert [setup[f + "4"] for f in "abcdefghij"] == "3 8 5 6 9 10 4 6 8 2".split()
    assert setup["b2"] == "S"


def test_blue_orientation_mirrors_both_axes():
    setup = own_setup(G.apply(fresh(), "aufstellung Blitzkrieg", 1), 1)
    # Blue's back row is rank 10, its left is file j.
    assert [setup[f + "10"] for f in "jihgfedcba"] == "4 4 5 2 3 6 B F B 2".split()
    assert [setup[f + "7"] for f in "jihgfedcba"] == "3 8 5 6 9 10 4 6 8 2".split()
    assert setup["i9"] == "S" and setup["c10"] == "F"
    assert set(setup) == {f + str(r) for f in "abcdefghij" for r in (7, 8, 9, 10)}


def test_mirrored_preset_and_mirror_command():
    plain = own_setup(G.apply(fresh(), "aufstellung Blitzkrieg", 0), 0)
    mirrored = own_setup(G.apply(fresh(), "aufstellung Blitzkrieg gespiegelt", 0), 0)
    assert [mirrored[f + "1"] for f in "abcdefghij"] == list(reversed("4 4 5 2 3 6 B F B 2".split()))
    flipped = own_setup(G.apply(G.apply(fresh(), "aufstellung Blitzkrieg", 0), "spiegeln", 0), 0)
    assert flipped == mirrored != plain
    blue_mirrored = own_setup(G.apply(fresh(), "aufstellung Blitzkrieg gespiegelt", 1), 1)
    assert [blue_mirrored[f + "10"] for f in "abcdefghij"] == "4 4 5 2 3 6 B F B 2".split()


def test_preset_can_be_adjusted_then_finished():
    st = G.apply(fresh(), "aufstellung On Guard", 0)
    st = G.apply(st, "entferne a1", 0)
    assert "fertig" not in {m.text for m in G.legal_moves(st, 0)}
    st = G.apply(st, "setze a1 2", 0)
    assert "fertig" in {m.text for m in G.legal_moves(st, 0)}
    G.apply(st, "fertig", 0)


def test_setup_legal_moves_are_exact():
    st = G.apply(fresh(), "setze a1 10", 0)
    moves = {m.text for m in G.legal_moves(st, 0)}
    assert "entferne a1" in moves and "setze b1 9" in moves and "setze b1 10" not in moves
    assert "aufstellung Scout's Gambit gespiegelt" in moves and "fertig" not in moves
    assert len(moves) == 39 * 11 + 1 + 50 + 1
    for text in moves:
        G.apply(st, text, 0)  # every listed move is accepted
