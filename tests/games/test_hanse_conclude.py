"""Battlehanse: a match the table ends (resignation, time, agreement, leaving) shows everything.

docs/rules.md: "After the game, everything" — every hand, the deck order and the Ratsmarken
values, as after the deciding Ratssiegel.  ``conclude(state, outcome)`` gives that, and
the record writes every deal and reads back to the same end."""

from __future__ import annotations

import random

import pytest

from shared.games import IllegalMove, get_game
from shared.games.base import Outcome
from shared.games.hanse import fast_moves

GAME = get_game("hanse")
RESIGNED_BY_FIRST = Outcome(1, "aufgabe", "Aufgegeben", "Resigned")


def played(seed: int, plies: int):
    """A match ``plies`` moves in (through ``apply``, so the history is kept), not yet over."""
    rng = random.Random(seed)
    state = GAME.new_game({}, seed)
    for _ in range(plies):
        nxt = GAME.apply(state, rng.choice(fast_moves(state)))
        if GAME.outcome(nxt) is not None:
            break
        state = nxt
    return state


def test_resigned_match_shows_every_hand_the_deck_and_the_ratsmarken():
    state = played(5, 9)
    before = GAME.view(state, 0)
    assert before["players"][1]["hand"] is None and before["hidden"] is None
    ended = GAME.conclude(state, RESIGNED_BY_FIRST)
    assert GAME.outcome(state) is None  # the running state is unchanged
    assert GAME.outcome(ended) == RESIGNED_BY_FIRST and GAME.to_move(ended) == ()
    with pytest.raises(IllegalMove):  # over: nothing more is played
        GAME.apply(ended, GAME.legal_moves(state)[0].text)
    for seat in (0, 1, None):
        view = GAME.view(ended, seat)
        assert view["outcome"]["reason"] == "aufgabe" and view["outcome"]["winner"] == 1
        assert view["legal_moves"] == [] and view["to_move"] == []
        for p in (0, 1):
            player = view["players"][p]
            assert player["hand"] is not None and len(player["hand"]) == sum(state.hands[p][:6])
            assert player["rats"] == list(state.rats_won[p])
        assert view["hidden"]["deck"] and len(view["hidden"]["deck"]) == len(state.deck)
        assert [len(pile) for pile in view["hidden"]["rats_piles"]] == [len(p) for p in state.rats_piles]
        assert all(m["rats"] is not None for m in view["moves"] if m["ratsmarke"] is not None)


def test_concluded_during_the_round_pause_and_the_rules_end_stands():
    rng = random.Random(2)
    state = GAME.new_game({}, 2)
    while not GAME.is_round_pause(state):
        state = GAME.apply(state, rng.choice(fast_moves(state)))
    ended = GAME.conclude(state, Outcome(None, "remis", "Remis vereinbart", "Draw agreed"))
    assert GAME.outcome(ended).winner is None and not GAME.is_round_pause(ended)
    assert GAME.view(ended, None)["hidden"] is not None
    while GAME.outcome(state) is None:
        state = GAME.apply(state, rng.choice(fast_moves(state)))
    assert GAME.conclude(state, RESIGNED_BY_FIRST) is state
    assert GAME.outcome(state).reason == "ratssiegel"


def test_record_of_a_resigned_match_shows_the_deals_and_reads_back_resigned():
    state = played(7, 12)
    running = GAME.record(state, {})
    assert "Austeilen" not in running and "zieht" not in running and "[Ende" not in running
    text = GAME.record(GAME.conclude(state, RESIGNED_BY_FIRST), {"Spieler1": "anna"})
    assert "Austeilen" in text and '[Ende "aufgabe 1"]' in text and "Aufgegeben / Resigned" in text
    back = GAME.parse_record(text)
    assert GAME.outcome(back) == RESIGNED_BY_FIRST
    assert GAME.view(back, None) == GAME.view(GAME.conclude(state, RESIGNED_BY_FIRST), None)


def test_a_sealed_view_after_the_end_shows_only_what_play_showed():
    """A match whose deal others still play (the Tagesmarkt): ended by the table or by the rules,
    no hand but the seat's, no deck order, no Ratsmarken piles, no opponent's Ratsmarke of a
    round without its Rundentafel."""
    state = played(5, 9)
    for ended in (GAME.conclude(state, RESIGNED_BY_FIRST), _ended_by_the_rules(7)):
        for seat in (0, 1, None):
            sealed = GAME.sealed_view(ended, seat)
            assert sealed["hidden"] is None and sealed["outcome"] is not None
            for player in sealed["players"]:
                if player["seat"] != seat:
                    assert player["hand"] is None
                    if not sealed["rounds"]:
                        assert player["rats"] is None
            assert GAME.view(ended, seat)["hidden"] is not None  # unsealed, the end shows everything


def _ended_by_the_rules(seed: int):
    rng = random.Random(seed)
    state = GAME.new_game({"seals_to_win": 1}, seed)
    while GAME.outcome(state) is None:
        state = GAME.apply(state, rng.choice(fast_moves(state)))
    return state
