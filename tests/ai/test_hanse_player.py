"""The Battlehanse computer opponent: legal and in time, tactics, strength, and that
it plays from the seat's view alone."""

from __future__ import annotations

import json
import random
import time

import pytest

from bench.ai_hanse import play_match
from services.ai_worker.players import hanse as player
from services.ai_worker.players.hanse_belief import declines, informed_state
from shared.games import get_game
from shared.games.hanse import state_from_view
from shared.games.hanse.cards import CARD_COUNTS, GOODS, KINDS
from shared.games.hanse.state import PAUSE, PLAY, new_match

GAME = get_game("hanse")
STRENGTHS = ("leicht", "mittel", "stark")
# Lateness allowed: the search checks the clock every few hundred microseconds, but on a
# shared 2-core machine (load 6+) the process itself waits for the CPU that long.
SLACK = 0.4  # seen: 0.33 s at load 6-10; the share within budget is measured in bench/ai_*.py


def _seat_to_act(state) -> int:
    return state.turn  # in the pause the seat that begins next acknowledges


def _random_positions(count: int, seed: int = 3) -> list:
    """States from random matches: early, mid, near the deck's end, and pauses."""
    rng = random.Random(seed)
    positions = []
    match = 0
    while len(positions) < count:
        state = GAME.new_game({"first": match % 2}, match)
        match += 1
        ply = 0
        while GAME.outcome(state) is None and len(positions) < count:
            if state.phase == PAUSE or ply % 9 == 4 or len(state.deck) <= 3:
                positions.append(state)
            moves = GAME.legal_moves(state)
            state = GAME.apply(state, rng.choice(moves).text, _seat_to_act(state))
            ply += 1
    return positions


@pytest.mark.serial  # measures its own deadline: a busy machine's scheduler would judge it
@pytest.mark.parametrize("strength", STRENGTHS)
def test_legal_and_in_time_from_random_positions(strength: str) -> None:
    rng = random.Random(7)
    budget = 0.05
    positions = _random_positions(40)
    assert any(s.phase == PAUSE for s in positions) and any(len(s.deck) <= 3 for s in positions)
    for state in positions:
        seat = _seat_to_act(state)
        view = GAME.view(state, seat)
        legal = {m["text"] for m in view["legal_moves"]}
        started = time.monotonic()
        text = player.PLAYER.choose_move(view, strength, started + budget, rng)
        assert time.monotonic() - started < budget + SLACK
        assert text in legal
        if state.phase == PAUSE:
            assert text == "weiter"


def test_stark_reports_its_search() -> None:
    state = next(s for s in _random_positions(10, seed=2) if s.phase == PLAY)
    stats: dict[str, int] = {}
    view = GAME.view(state, state.turn)
    player.PLAYER.choose_move(view, "stark", time.monotonic() + 5, random.Random(1), 3, stats)
    assert stats["samples"] == 3 and stats["depth"] == player.STARK_DEPTH == 3
    assert stats["nodes"] > 3 * len(view["legal_moves"])


@pytest.mark.serial  # measures its own deadline: a busy machine's scheduler would judge it
def test_deadline_already_passed_gives_a_legal_move_at_once() -> None:
    for state in _random_positions(6, seed=9):
        view = GAME.view(state, _seat_to_act(state))
        started = time.monotonic()
        text = player.PLAYER.choose_move(view, "stark", started - 1.0, random.Random(1))
        assert time.monotonic() - started < 0.02
        assert text in {m["text"] for m in view["legal_moves"]}


def _planted(
    hand0: tuple[int, ...], hand1: tuple[int, ...], market: tuple[int, ...], known1: tuple[int, ...], seed: int = 4
):
    """A round-1 state with the given hands, market and seat 1's gemerkte Karten, seat 0
    to move; the rest of the 55 cards shuffled into the deck."""
    state = new_match(0, 2, seed)
    left = [CARD_COUNTS[k] - hand0[k] - hand1[k] - market[k] for k in range(KINDS)]
    assert min(left) >= 0 and sum(market) == 5
    deck = [k for k in range(KINDS) for _ in range(left[k])]
    random.Random(seed).shuffle(deck)
    planted = state.copy()
    planted.market = market
    planted.hands = (hand0, hand1)
    planted.known = ((0,) * GOODS, known1)
    planted.deck = tuple(deck)
    planted.turn = 0
    return planted


def test_stark_sells_the_big_set_and_analyse_ranks_a_small_sale_low() -> None:
    # Five Tuch in hand; the opponent holds the other three (seen taken: gemerkt) and
    # nothing else.  Selling all five now takes 5+3+3+2+2 Zinn and a Ratsmarke of 8–10;
    # anything else lets the opponent sell its three first and take the top Zinnmarken
    # (selling one Tuch is the worst of it).
    state = _planted((0, 0, 0, 5, 1, 0, 0), (0, 0, 0, 3, 0, 0, 0), (0, 0, 0, 0, 0, 2, 3), (0, 0, 0, 3, 0, 0))
    view = GAME.view(state, 0)
    assert player.PLAYER.choose_move(view, "stark", time.monotonic() + 0.5, random.Random(1)) == "verkauf 5 Tuch"
    assert player.PLAYER.choose_move(view, "mittel", time.monotonic() + 0.5, random.Random(1)) == "verkauf 5 Tuch"
    ranked = player.analyse(view, time.monotonic() + 10, random.Random(2), limit=5, max_samples=6)
    assert ranked[0][0] == "verkauf 5 Tuch"
    small = player.value_of(view, "verkauf 1 Tuch", time.monotonic() + 10, random.Random(2), max_samples=6)
    assert ranked[0][1] - small >= player.REVIEW_THRESHOLDS[1]
    # any spelling the notation accepts
    assert player.value_of(view, "sell 5 cloth", time.monotonic() + 10, random.Random(2), max_samples=6) == ranked[0][1]


def test_candidates_race_on_the_same_deals() -> None:
    # Per deal the deal itself moves every candidate's value up or down together.
    rng = random.Random(3)
    deals = [rng.gauss(0.0, 8.0) for _ in range(12)]
    found = {
        1: [d + 10.0 for d in deals],  # the leader
        2: [d + 9.0 + rng.gauss(0.0, 0.2) for d in deals],  # a point behind on every deal
        3: [d + 9.5 + rng.gauss(0.0, 5.0) for d in deals],  # behind on average, but in doubt
        4: [d + 3.0 for d in deals],  # far behind
    }
    # The means alone (spread by the deals) cannot tell 2 from the leader; deal by deal it is clear.
    assert sorted(player._race(found)) == [2, 4]


def test_stark_stops_searching_when_one_move_is_left() -> None:
    state = _planted((0, 0, 0, 5, 1, 0, 0), (0, 0, 0, 3, 0, 0, 0), (0, 0, 0, 0, 0, 2, 3), (0, 0, 0, 3, 0, 0))
    view = GAME.view(state, 0)
    stats: dict[str, int] = {}
    move = player.PLAYER.choose_move(view, "stark", time.monotonic() + 60, random.Random(1), 400, stats)
    assert move == "verkauf 5 Tuch"
    assert player.PRUNE_FIRST <= stats["samples"] < 400


@pytest.mark.serial  # measures its own deadline: a busy machine's scheduler would judge it
def test_review_values_come_from_the_same_samples() -> None:
    # As the review task calls them: analyse with most of the time, then value_of of a
    # move analyse did not list, with a quarter of it, and of the best move.
    state = _random_positions(12, seed=21)[-1]
    view = GAME.view(state, _seat_to_act(state))
    if view["phase"] != "spiel":
        state = _random_positions(13, seed=21)[-1]
        view = GAME.view(state, _seat_to_act(state))
    ranked = player.analyse(view, time.monotonic() + 0.3, random.Random(1))
    best, best_value = ranked[0]
    assert player.value_of(view, best, time.monotonic() + 0.1, random.Random(2)) == best_value
    listed = {text for text, _v in ranked}
    other = next(m["text"] for m in view["legal_moves"] if m["text"] not in listed)
    started = time.monotonic()
    value = player.value_of(view, other, started + 0.1, random.Random(3))
    assert time.monotonic() - started < 0.1 + SLACK
    assert isinstance(value, float)


def test_pause_answers_weiter() -> None:
    state = next(s for s in _random_positions(80, seed=5) if s.phase == PAUSE)
    for seat in (0, 1):
        view = GAME.view(state, seat)
        assert player.PLAYER.choose_move(view, "stark", time.monotonic() + 0.05, random.Random(1)) == "weiter"
        # a hint in the pause names the one move
        assert player.analyse(view, time.monotonic() + 0.05, random.Random(1), limit=1) == [("weiter", 0.0)]


def _hidden_twin_states():
    """Two states that differ only in one card of the opponent's hidden hand (swapped
    with a deck card), with seat 0 to move."""
    rng = random.Random(12)
    for seed in range(50):
        state = GAME.new_game({}, seed)
        for _ in range(rng.randrange(0, 12)):
            if state.phase != PLAY:
                break
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)).text, state.turn)
        if state.phase != PLAY or state.turn != 0:
            continue
        hand, known = list(state.hands[1]), state.known[1]
        hidden = [k for k in range(GOODS) if hand[k] > known[k]]
        deck = list(state.deck)
        for i, card in enumerate(deck):
            if card < GOODS and hidden and card != hidden[0]:
                twin = state.copy()
                hand[hidden[0]] -= 1
                hand[card] += 1
                deck[i] = hidden[0]
                twin.hands = (state.hands[0], tuple(hand))
                twin.deck = tuple(deck)
                return state, twin
    raise AssertionError("no twin found")


def test_hidden_cards_do_not_change_the_move() -> None:
    state_a, state_b = _hidden_twin_states()
    assert state_a.hands != state_b.hands and state_a.deck != state_b.deck  # the full states differ …
    view_a, view_b = GAME.view(state_a, 0), GAME.view(state_b, 0)
    assert view_a == view_b  # … but not in what seat 0 may see
    for strength in STRENGTHS:
        move_a = player.PLAYER.choose_move(view_a, strength, time.monotonic() + 30, random.Random(5), max_samples=3)
        move_b = player.PLAYER.choose_move(view_b, strength, time.monotonic() + 30, random.Random(5), max_samples=3)
        assert move_a == move_b
    values_a = player.analyse(view_a, time.monotonic() + 30, random.Random(6), max_samples=3)
    values_b = player.analyse(view_b, time.monotonic() + 30, random.Random(6), max_samples=3)
    assert values_a == values_b


def test_plays_from_a_plain_json_view() -> None:
    state_a, _twin = _hidden_twin_states()
    view = GAME.view(state_a, 0)
    assert view["players"][1]["hand"] is None and view["hidden"] is None  # no hidden cards in it
    plain = json.loads(json.dumps(view))
    expected = player.PLAYER.choose_move(view, "stark", time.monotonic() + 30, random.Random(8), max_samples=3)
    assert player.PLAYER.choose_move(plain, "stark", time.monotonic() + 30, random.Random(8), max_samples=3) == expected


def test_stark_beats_leicht() -> None:
    # Single-round matches (one seal wins), first player alternating; Stark searches 4
    # deals a move (a fixed budget: the same matches on any machine, however loaded).
    wins = 0
    matches = 8
    for match in range(matches):
        strengths = ("stark", "leicht") if match % 2 == 0 else ("leicht", "stark")
        result = play_match(strengths, 5.0, 700 + match, seals_to_win=1, first=match % 2, samples=4)
        if strengths[result["winner"]] == "stark":
            wins += 1
    assert wins >= 6


def test_a_good_passed_over_is_dealt_less_often() -> None:
    # Seat 0 takes the Packpferde with Salz lying in the market and room in its hand: as
    # seat 1 sees it, seat 0 probably does not collect Salz.
    state = GAME.apply(GAME.new_game({"first": 0}, 4), "pferde", 0)
    view = GAME.view(state, 1)
    salz = 4
    assert state.hands[0][:GOODS] != (0,) * GOODS and view["players"][0]["known"] == []
    weights = declines(view)
    assert weights[salz] < 1.0 and all(w == 1.0 for k, w in enumerate(weights) if k != salz)
    uniform = sum(state_from_view(view, random.Random(i)).hands[0][salz] for i in range(600))
    informed = sum(informed_state(view, random.Random(i), weights).hands[0][salz] for i in range(600))
    assert informed < 0.9 * uniform
    # The informed deal is still a deal of this view.
    dealt = informed_state(view, random.Random(1), weights)
    assert GAME.view(dealt, 1)["players"] == view["players"] and len(dealt.deck) == view["deck_count"]


def _last_move_state(hand0: tuple[int, ...], hand1: tuple[int, ...], won: tuple[tuple[int, ...], tuple[int, ...]]):
    """Seat 0 to move with the deck used up (any take ends the round at once); market
    2 Salz + 3 Pelz, seat 1 has the Stallmarke (six horses to five), every other good is
    sold; seat 1's cards all gemerkt."""
    state = new_match(0, 2, 4)
    market = (0, 0, 0, 0, 2, 3, 0)
    hand0, hand1 = hand0 + (5,), hand1 + (6,)
    planted = state.copy()
    planted.market = market
    planted.hands = (hand0, hand1)
    planted.known = ((0,) * GOODS, hand1[:GOODS])
    planted.deck = ()
    planted.discard = tuple(CARD_COUNTS[k] - hand0[k] - hand1[k] - market[k] for k in range(GOODS))
    planted.zinn_left = (2, 2, 5, 7, 3, 4)
    planted.zinn_won = won
    planted.turn = 0
    return planted


def test_stark_ends_the_round_while_ahead_and_stalls_while_behind() -> None:
    # Ahead by six (Stallmarke counted), and the opponent's four Tuch would overtake it
    # next move: end the round now.
    state = _last_move_state((0, 0, 0, 0, 0, 1), (0, 0, 0, 4, 0, 0), ((7, 7, 6, 6, 5), (5, 5, 5, 5)))
    view = GAME.view(state, 0)
    move = player.PLAYER.choose_move(view, "stark", time.monotonic() + 30, random.Random(1), max_samples=4)
    assert GAME.apply(state, move, 0).phase != PLAY, move
    # Behind by thirteen: a take would end the round lost; selling the four Tuch
    # (5+3+3+2 and a Ratsmarke of 4-6) catches up and keeps the round going.
    state = _last_move_state((0, 0, 0, 4, 0, 0), (0, 0, 0, 0, 0, 1), ((5, 5, 5, 5), (7, 7, 6, 6, 2)))
    view = GAME.view(state, 0)
    move = player.PLAYER.choose_move(view, "stark", time.monotonic() + 30, random.Random(1), max_samples=4)
    assert move == "verkauf 4 Tuch"
