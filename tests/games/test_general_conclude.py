"""Battlegeneral: a game the table ends (resignation, time, agreement, leaving) shows everything.

docs/rules.md: "After the game, everything" — not only after the rules' own end.  The
engine's ``conclude(state, outcome)`` makes the view show every rank and both setups,
and the record hold them (and read back to the same end)."""

from __future__ import annotations

import random

import pytest

from shared.games import BadNotation, IllegalMove, get_game
from shared.games.base import Outcome

G = get_game("general")
RESIGNED_BY_BLUE = Outcome(0, "aufgabe", "Aufgegeben", "Resigned")


def played(plies: int, seed: int = 3):
    """Both presets, then ``plies`` random moves (attacks preferred) that do not end the game."""
    st = G.new_game({}, seed)
    st = G.apply(st, "aufstellung Blitzkrieg", 0)
    st = G.apply(st, "aufstellung On Guard gespiegelt", 1)
    st = G.apply(st, "fertig", 1)
    st = G.apply(st, "fertig", 0)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = G.legal_moves(st)
        attacks = [m for m in moves if m.effect["attack"]]
        nxt = G.apply(st, rng.choice(attacks if attacks and rng.random() < 0.5 else moves).text)
        if G.outcome(nxt) is not None:
            break
        st = nxt
    return st


def test_resigned_game_shows_every_rank_to_both_seats_and_spectators():
    st = played(40)
    before = G.view(st, 0)
    hidden = [p for p in before["pieces"] if p["owner"] == 1 and not p["revealed"]]
    assert hidden and all(p["rank"] is None for p in hidden)
    assert "start_position" not in before
    ended = G.conclude(st, RESIGNED_BY_BLUE)
    assert G.outcome(st) is None  # the state itself is unchanged
    assert G.outcome(ended) == RESIGNED_BY_BLUE and G.to_move(ended) == ()
    with pytest.raises(IllegalMove):  # over: nothing more is played
        G.apply(ended, G.legal_moves(st)[0].text)
    truth = {p["id"]: p["rank"] for p in G.view(ended, None)["pieces"]}
    for seat in (0, 1, None):
        view = G.view(ended, seat)
        assert view["phase"] == "over" and view["legal_moves"] == [] and view["to_move"] == []
        assert view["outcome"]["reason"] == "aufgabe" and view["outcome"]["winner"] == 0
        assert all(p["rank"] is not None for p in view["pieces"])
        assert {p["id"]: p["rank"] for p in view["pieces"]} == truth
        assert view["start_position"] == ended.start
        assert len(view["pieces"]) + sum(len(side) for side in view["captured"]) == 80
    # The ranks are the real ones: Blue's hidden pieces as Blue itself knew them.
    blue = {p["id"]: p["rank"] for p in G.view(st, 1)["pieces"] if p["owner"] == 1}
    assert all(truth[pid] == rank for pid, rank in blue.items())


def test_ended_during_the_setup_shows_both_placements_as_far_as_they_got():
    st = G.new_game({}, 4)
    st = G.apply(st, "setze a1 F", 0)
    st = G.apply(st, "setze b1 B", 0)
    st = G.apply(st, "aufstellung Blitzkrieg", 1)
    assert G.view(st, 0)["setup"]["own"] == {"a1": "F", "b1": "B"}
    assert "setups" not in G.view(st, 0) and G.view(st, 0)["pieces"] == []
    ended = G.conclude(st, Outcome(0, "verlassen", "Partie verlassen", "Left the game"))
    for seat in (0, 1, None):
        view = G.view(ended, seat)
        assert view["phase"] == "over" and view["legal_moves"] == []
        assert view["setups"][0] == {"a1": "F", "b1": "B"}
        assert len(view["setups"][1]) == 40
        assert all(int(square[1:]) >= 7 for square in view["setups"][1])
        ranks = {(p["owner"], p["square"]): p["rank"] for p in view["pieces"]}
        assert len(ranks) == 42 and ranks[(0, "a1")] == "F" and None not in ranks.values()


def test_the_rules_own_end_stands():
    st = played(0, seed=8)
    rng = random.Random(8)
    while G.outcome(st) is None:  # the 200-moves-without-a-fight rule ends every game
        st = G.apply(st, rng.choice(G.legal_moves(st)).text)
    assert G.conclude(st, RESIGNED_BY_BLUE) is st
    assert G.outcome(st).reason != "aufgabe"


def test_record_of_a_resigned_game_holds_both_setups_and_reads_back_resigned():
    st = played(30)
    running = G.record(st, {"Rot": "anna", "Blau": "bert"})
    assert "[Setup" not in running and "[Start" not in running and '[Result "*"]' in running
    text = G.record(G.conclude(st, RESIGNED_BY_BLUE), {"Rot": "anna", "Blau": "bert"})
    assert '[Result "1-0"]' in text and '[Reason "aufgabe"]' in text
    assert "r: aufstellung Blitzkrieg" in text and "b: aufstellung On Guard gespiegelt" in text
    assert f'[Start "{st.start}"]' in text
    back = G.parse_record(text)
    assert G.outcome(back) == RESIGNED_BY_BLUE
    assert G.view(back, None)["pieces"] == G.view(G.conclude(st, RESIGNED_BY_BLUE), None)["pieces"]


def test_record_of_a_game_ended_during_the_setup_reads_back():
    st = G.apply(G.apply(G.new_game({}, 4), "setze c2 10", 0), "aufstellung Blitzkrieg", 1)
    ended = G.conclude(st, Outcome(None, "remis", "Remis vereinbart", "Draw agreed"))
    text = G.record(ended, {})
    assert '[Setup "r: setze c2 10 | b: aufstellung Blitzkrieg"]' in text and "[Start" not in text
    back = G.parse_record(text)
    assert G.outcome(back) == ended.outcome and G.view(back, 0)["setups"] == G.view(ended, 0)["setups"]
    # Even nobody having placed a piece is a readable record.
    empty = G.record(G.conclude(G.new_game({}, 4), RESIGNED_BY_BLUE), {})
    assert G.outcome(G.parse_record(empty)) == RESIGNED_BY_BLUE


def test_a_record_cannot_claim_a_rules_ending_its_moves_do_not_reach():
    text = G.record(G.conclude(played(10), RESIGNED_BY_BLUE), {})
    forged = text.replace('[Reason "aufgabe"]', '[Reason "fahne_erobert"]')
    with pytest.raises(BadNotation):
        G.parse_record(forged)


def test_a_take_back_keeps_what_a_fight_showed():
    """The moves taken back leave their fights' reveals on the kept state (pure)."""
    before = played(30)
    kept = played(0)  # both setups, no move yet: what a take-back to the start replays
    mark = G.takeback_mark(before, kept, None)
    assert mark is not None
    shown = {p["id"] for p in G.view(before, 0)["pieces"] if p["revealed"]}
    shown |= {c["id"] for side in G.view(before, 0)["captured"] for c in side}
    restored = G.after_takeback(kept, mark)
    assert G.view(kept, 0)["pieces"] == G.view(played(0), 0)["pieces"]  # the kept state itself is unchanged
    for seat in (0, 1):
        for piece in G.view(restored, seat)["pieces"]:
            if piece["id"] in shown:
                assert piece["revealed"] and piece["rank"] is not None
    assert G.takeback_mark(kept, kept, None) is None  # nothing taken back, nothing to keep
    assert G.to_json(G.after_takeback(kept, mark)) != G.to_json(kept)


def test_a_sealed_view_after_the_end_shows_only_what_play_showed():
    st = played(30)
    ended = G.conclude(st, RESIGNED_BY_BLUE)
    for seat in (0, 1, None):
        sealed = G.sealed_view(ended, seat)
        assert sealed["outcome"] == RESIGNED_BY_BLUE.to_dict()
        assert sealed["pieces"] == G.view(st, seat)["pieces"] and "start_position" not in sealed
