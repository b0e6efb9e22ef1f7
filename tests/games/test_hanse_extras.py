"""Battlehanse extras for table, UI and computer: undo with reshuffle, Handelskasten,
sale value, determinization from a view, the fast API."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from shared.games import BadNotation, IllegalMove, get_game
from shared.games.hanse import describe_selection, fast_apply, fast_moves, state_from_view
from shared.games.hanse.replay import replay
from shared.games.hanse.serial import check_state
from tests.games.test_hanse_rules import position

GAME = get_game("hanse")


def _played(seed: int, plies: int):
    rng = random.Random(seed)
    state = GAME.new_game({}, seed)
    for _ in range(plies):
        if GAME.outcome(state) is not None:
            break
        state = GAME.apply(state, rng.choice(fast_moves(state)))
    return state


def _seen(state) -> tuple:
    """Everything any player has seen: all but the deck order and the Ratsmarken left in the piles."""
    return (
        state.round_no, state.phase, state.turn, state.starter, state.market, state.hands, state.known,
        len(state.deck), Counter(state.deck), state.zinn_left, tuple(Counter(p) for p in state.rats_piles),
        state.zinn_won, state.rats_won, state.discard, state.seals, state.rounds, state.history,
    )  # fmt: skip


def test_undo_takes_back_one_move_and_reshuffles_only_unseen_cards() -> None:
    reordered = 0
    for seed in range(20):
        state = _played(seed, 25 + seed)
        before = replay(state.first, state.seals_to_win, state.seed, GAME.history(state)[:-1])
        undone = GAME.undo_and_reshuffle(state, seed=1000 + seed)
        assert _seen(undone) == _seen(before)
        assert GAME.history(undone) == GAME.history(state)[:-1]
        reordered += undone.deck != before.deck
        assert undone.reshuffles[-1] == (len(GAME.history(undone)), 1000 + seed)
        check_state(undone)
    assert reordered >= 18


def test_undo_twice_then_play_on_and_the_record_still_replays() -> None:
    rng = random.Random(9)
    state = _played(9, 40)
    state = GAME.undo_and_reshuffle(GAME.undo_and_reshuffle(state, 1), 2)
    assert len(GAME.history(state)) == 38
    while GAME.outcome(state) is None:
        state = GAME.apply(state, rng.choice(fast_moves(state)))
        if len(state.history) == 60:
            state = GAME.undo_and_reshuffle(state, 3)
            state = GAME.apply(state, rng.choice(fast_moves(state)))
    record = GAME.record(state, {})
    # The reshuffle at ply 39 was itself taken back by the second undo: two remain.
    assert state.reshuffles == ((38, 2), (59, 3))
    assert record.count("[Neumischung") == 2
    assert GAME.parse_record(record) == state


def test_undo_returns_drawn_cards_to_the_secret_deck() -> None:
    state = GAME.new_game({}, 12)
    take = next(i.text for i in GAME.legal_moves(state) if i.text.startswith("nimm"))
    after = GAME.apply(state, take)
    drawn = after.history[-1][3]
    assert len(drawn) == 1
    undone = GAME.undo_and_reshuffle(after, 5)
    assert undone.market == state.market and len(undone.deck) == len(state.deck)
    assert Counter(undone.deck) == Counter(state.deck)
    with pytest.raises(IllegalMove):
        GAME.undo_and_reshuffle(state, 5)


def test_describe_selection_exchange_take_horses_and_sale() -> None:
    state = position("GGTPH", "TTTZ/2", "ZZ/0")
    ex = describe_selection(state, 0, ["Gold", "Gold"], ["Tuch"], 1)
    assert ex["ok"] and ex["text_de"] == "Du nimmst 2 Gold und gibst Tuch + 1 Packpferd."
    assert ex["text_en"] == "You take 2 gold and give cloth + 1 pack horse."
    assert ex["move_text"] == "tausch 2 Gold gegen Tuch+1 Pferd"
    assert GAME.parse_move(state, ex["move_text"]) is not None
    assert ex["effect"]["market_in"] == ["Tuch", "Packpferd"]
    take = describe_selection(state, 0, ["Pelz"], [])
    assert (take["ok"], take["text_de"], take["move_text"]) == (True, "Du nimmst Pelz.", "nimm Pelz")
    horse = describe_selection(state, 0, ["Packpferd"], [])
    assert horse["text_de"] == "Du holst das Packpferd in deinen Stall." and horse["move_text"] == "pferde"
    sale = describe_selection(state, 0, [], ["Tuch", "Tuch", "Tuch"])
    assert sale["text_de"] == "Du verkaufst 3 Tuch: 5 + 3 + 3 = 11 Punkte und eine Ratsmarke (1–3)."
    assert sale["move_text"] == "verkauf 3 Tuch" and sale["effect"]["zinn_sum"] == 11


@pytest.mark.parametrize(
    ("market", "hand", "stable", "seat", "code"),
    [
        ([], [], 0, 0, "incomplete"),
        (["Gold", "Gold"], [], 0, 0, "incomplete"),
        ([], [], 1, 0, "incomplete"),
        (["Gold", "Gold"], ["Tuch"], 0, 0, "exchange_unequal"),
        (["Gold", "Tuch"], ["Tuch", "Salz"], 0, 0, "exchange_same_good"),
        (["Packpferd", "Gold"], [], 0, 0, "take_horse"),
        ([], ["Tuch", "Salz"], 0, 0, "sell_mixed"),
        ([], ["Gold"], 0, 0, "not_in_hand"),
        (["Gold"], [], 0, 1, "not_your_turn"),
        (["Diamant"], [], 0, 0, "bad_card"),
    ],
)
def test_describe_selection_says_why_not(market, hand, stable, seat, code) -> None:
    result = describe_selection(position("GGTPH", "TTTZ/2", "ZZ/0"), seat, market, hand, stable)
    assert not result["ok"] and result["code"] == code and result["move_text"] is None
    assert result["text_de"] and result["text_en"] and result["text_de"] != result["text_en"]


def test_describe_selection_precious_single() -> None:
    result = describe_selection(position("TTPHH", "GGB/0", "ZZ/0"), 0, [], ["Bernstein"])
    assert result["code"] == "precious_single" and "mindestens zweit" in result["text_de"]


def test_sale_value_and_unknown_good() -> None:
    state = position("TTPHH", "GG/0", "ZZ/0", zinn_left="5,3,5,7,7,9")
    assert GAME.sale_value(state, "Gold", 5) == {"zinn": [5, 5, 5], "zinn_sum": 15, "ratsmarke": 5, "rats_mean": 9}
    assert GAME.sale_value(state, "Pelz", 2) == {"zinn": [4, 3], "zinn_sum": 7, "ratsmarke": None, "rats_mean": 0}
    with pytest.raises(BadNotation):
        GAME.sale_value(state, "Diamant", 2)


def test_state_from_view_agrees_with_the_view_and_varies_the_unknown() -> None:
    for seed in range(15):
        state = _played(seed, 10 + 7 * seed)
        for seat in (0, 1, None):
            view = GAME.view(state, seat)
            samples = [state_from_view(view, random.Random(k)) for k in range(4)]
            for sampled in samples:
                check_state(sampled)
                assert GAME.view(sampled, seat) == view
                assert sampled.market == state.market and len(sampled.deck) == len(state.deck)
                for p in (0, 1):
                    assert sum(sampled.hands[p][:6]) == sum(state.hands[p][:6])
                    assert sampled.known[p] == state.known[p]
                    if p == seat:
                        assert sampled.hands[p] == state.hands[p] and sampled.rats_won[p] == state.rats_won[p]
                # The sampled state plays on like a real one.
                moves = fast_moves(sampled)
                if moves:
                    fast_apply(sampled, moves[0])
            if len(state.deck) >= 5:
                assert len({s.deck for s in samples}) > 1


def test_state_from_view_rejects_inconsistent_views() -> None:
    view = GAME.view(_played(3, 20), 0)
    view["deck_count"] += 1
    with pytest.raises(BadNotation):
        state_from_view(view, random.Random(1))
    view = GAME.view(_played(3, 20), 0)
    view["market"] = view["market"] + ["Gold"] * 7
    with pytest.raises(BadNotation):
        state_from_view(view, random.Random(1))


def test_fast_api_matches_legal_moves_and_never_mutates() -> None:
    rng = random.Random(2)
    for seed in range(10):
        state = _played(seed, 30)
        if GAME.outcome(state) is not None:
            continue
        ints = fast_moves(state)
        assert [GAME.parse_move(state, i.text) for i in GAME.legal_moves(state)] == list(ints)
        snapshot = GAME.to_json(state)
        for m in ints:
            fast_apply(state, m)
        GAME.apply(state, rng.choice(ints))
        assert GAME.to_json(state) == snapshot


def test_view_spectator_and_after_the_end() -> None:
    state = _played(4, 30)
    spectator = GAME.view(state, None)
    assert all(p["hand"] is None for p in spectator["players"])
    assert spectator["legal_moves"] == [] and spectator["hidden"] is None
    rng = random.Random(4)
    while GAME.outcome(state) is None:
        state = GAME.apply(state, rng.choice(fast_moves(state)))
    final = GAME.view(state, None)
    assert all(p["hand"] is not None and p["rats"] is not None for p in final["players"])
    assert len(final["hidden"]["deck"]) == len(state.deck)
    assert final["outcome"]["winner"] in (0, 1) and final["outcome"]["reason"] == "ratssiegel"
    assert final["rounds"][-1]["match_over"]
