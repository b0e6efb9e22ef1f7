"""Battlehanse: hand-built positions for every edge of every rule, with concrete expected results."""

from __future__ import annotations

from collections import Counter

import pytest

from shared.games import IllegalMove, get_game

GAME = get_game("hanse")
LETTERS = "BGSTZPH"
COUNTS = (6, 6, 6, 8, 8, 10, 11)
FULL_RATS = "1.1.2.2.2.3.3/4.4.5.5.6.6/8.8.9.10.10"


def position(
    market: str,
    hand0: str,
    hand1: str,
    *,
    known0: str = "-",
    known1: str = "-",
    deck: str | None = None,
    zinn_left: str = "5,5,5,7,7,9",
    rats: str = FULL_RATS,
    zinn0: str = "-",
    zinn1: str = "-",
    rats0: str = "-",
    rats1: str = "-",
    turn: int = 0,
    starter: int = 0,
    round_no: int = 1,
    seals: str = "0-0",
):
    """A state from the position format; the deck is every card not placed elsewhere, unless given
    (then goods not in the deck count as sold, and every Packpferd must be placed)."""
    used: Counter[str] = Counter(market)
    for hand in (hand0, hand1):
        goods, stable = hand.split("/")
        used.update(goods.replace("-", ""))
        used["H"] += int(stable)
    rest = {letter: COUNTS[i] - used[letter] for i, letter in enumerate(LETTERS)}
    if deck is None:
        deck = "".join(letter * rest[letter] for letter in LETTERS)
        discard = [0] * 6
    else:
        for letter in deck:
            rest[letter] -= 1
        assert rest["H"] == 0, "place every Packpferd"
        discard = [rest[letter] for letter in LETTERS[:6]]
    fields = [
        market, hand0, hand1, known0, known1, deck or "-", zinn_left, rats, zinn0, zinn1, rats0, rats1,
        ",".join(map(str, discard)), str(turn), str(starter), str(round_no), seals, "spiel", "7",
    ]  # fmt: skip
    return GAME.from_position(" ".join(fields))


def texts(state) -> set[str]:
    return {info.text for info in GAME.legal_moves(state)}


def reason(state, text: str, seat: int | None = None) -> str:
    with pytest.raises(IllegalMove) as caught:
        GAME.parse_move(state, text, seat)
    assert caught.value.de and caught.value.en
    return caught.value.code


def test_rules_md_counting_example_has_seven_actions() -> None:
    state = position("HHHPB", "BBGPZ/0", "TTSSZ/0")
    assert texts(state) == {
        "pferde",
        "nimm Bernstein",
        "nimm Pelz",
        "tausch Bernstein+Pelz gegen Gold+Salz",
        "verkauf 2 Bernstein",
        "verkauf 1 Pelz",
        "verkauf 1 Salz",
    }
    assert GAME.perft(state, 1) == 7


def test_exchanges_with_packpferde_are_counted_and_applied() -> None:
    state = position("GGTPH", "TZ/2", "SS/0")
    moves = texts(state)
    assert len([t for t in moves if t.startswith("tausch")]) == 17  # counted by hand in the test's comment below
    # GG:4 GT:2 GP:4 TP:2 GGT:1 GGP:3 GTP:1 GGTP:0, plus 3 take-one, 1 take-all, 2 sales
    assert len(moves) == 23
    after = GAME.apply(state, "tausch 2 Gold gegen 2 Pferde")
    assert after.market == (0, 0, 0, 1, 0, 1, 3)
    assert after.hands[0] == (0, 2, 0, 1, 1, 0, 0)
    assert after.known[0] == (0, 2, 0, 0, 0, 0)
    assert after.deck == state.deck  # no refill in an exchange
    mixed = GAME.apply(state, "tausch 2 Gold gegen Tuch+1 Pferd")
    assert mixed.market == (0, 0, 0, 2, 0, 1, 2)
    assert mixed.hands[0] == (0, 2, 0, 0, 1, 0, 1)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("tausch Gold+Tuch gegen Tuch+Salz", "exchange_same_good"),
        ("tausch Gold+Pferd gegen Tuch+Salz", "exchange_horse"),
        ("tausch 2 Gold gegen Tuch", "exchange_unequal"),
        ("tausch Gold gegen Tuch", "exchange_too_few"),
        ("tausch 2 Gold+Tuch gegen 3 Pferde", "not_in_stable"),
        ("tausch 2 Gold gegen 2 Salz", "not_in_hand"),
        ("tausch 2 Silber gegen Tuch+Salz", "not_in_market"),
        ("nimm Pferd", "take_horse"),
        ("nimm Silber", "not_in_market"),
        ("verkauf 2 Tuch", "not_in_hand"),
        ("verkauf 1 Pferd", "sell_horse"),
    ],
)
def test_exchange_and_take_reasons(text: str, code: str) -> None:
    assert reason(position("GGTPH", "TZ/2", "SS/0"), text) == code


def test_hand_limit_for_take_and_exchange() -> None:
    full = position("GGPHH", "BGSTZPP/2", "SS/0")
    assert reason(full, "nimm Gold") == "hand_full"
    assert not any(t.startswith("nimm") for t in texts(full))
    six = position("GGPHH", "BSTZPP/2", "SS/0")
    assert reason(six, "tausch 2 Gold gegen 2 Pferde") == "hand_limit"
    assert GAME.apply(six, "tausch 2 Gold gegen Tuch+1 Pferd").hands[0][:6] == (1, 2, 1, 0, 1, 2)
    assert "tausch 2 Gold gegen Tuch+1 Pferd" in texts(six)
    assert "tausch 2 Gold gegen 2 Pferde" not in texts(six)
    five = position("GGPHH", "BSTZP/2", "SS/0")
    assert sum(GAME.apply(five, "tausch 2 Gold gegen 2 Pferde").hands[0][:6]) == 7


def test_precious_goods_need_two_even_with_one_token_left() -> None:
    state = position("TTPHH", "GG/0", "SS/0", zinn_left="5,1,5,7,7,9")
    assert reason(state, "verkauf 1 Gold") == "precious_single"
    assert "verkauf 1 Gold" not in texts(state)
    after = GAME.apply(state, "verkauf 2 Gold")
    assert after.zinn_won[0] == (5,)  # the one Gold token left is the last 5
    assert after.zinn_left[1] == 0
    assert after.rats_won[0] == ()


def test_sale_from_empty_pile_brings_only_the_ratsmarke() -> None:
    state = position("GGPHH", "TTT/0", "SS/0", zinn_left="5,5,5,0,7,9", rats="3.1/4/8")
    after = GAME.apply(state, "verkauf 3 Tuch")
    assert after.zinn_won[0] == ()
    assert after.rats_won[0] == (3,)  # the top of the pile for three cards
    assert after.rats_piles[0] == (1,)
    assert after.phase == 0 and after.turn == 1
    no_rats = position("GGPHH", "TTTT/0", "SS/0", rats="-/-/8")
    sold = GAME.apply(no_rats, "verkauf 4 Tuch")
    assert sold.zinn_won[0] == (5, 3, 3, 2) and sold.rats_won[0] == ()


def test_sale_tokens_come_from_the_top_and_big_sales_get_the_big_ratsmarke() -> None:
    state = position("GGPHH", "PPPPPP/0", "SS/0", rats="1/4/10.8")
    after = GAME.apply(state, "verkauf 6 Pelz")
    assert after.zinn_won[0] == (4, 3, 2, 1, 1, 1)
    assert after.rats_won[0] == (10,)
    assert GAME.sale_value(state, "Pelz", 4) == {"zinn": [4, 3, 2, 1], "zinn_sum": 10, "ratsmarke": 4, "rats_mean": 5}


def test_three_empty_piles_end_the_round_at_once() -> None:
    state = position("GGTHH", "PP/3", "SS/2", zinn_left="0,0,5,7,7,1", zinn0="7.7", zinn1="6.6")
    after = GAME.apply(state, "verkauf 2 Pelz")
    assert GAME.is_round_pause(after) and GAME.to_move(after) == () and GAME.outcome(after) is None
    table = after.rounds[-1]
    assert table["end_reason"] == "drei_stapel"
    assert table["players"][0] == {
        "zinn": [7, 7, 1], "zinn_sum": 15, "rats": [], "rats_sum": 0, "horses": 3, "stall": 5, "total": 20,
    }  # fmt: skip
    assert table["players"][1]["total"] == 12
    assert table["seal"] == 0 and table["decided_by"] == "punkte"
    assert [i.text for i in GAME.legal_moves(after)] == ["weiter"]
    assert reason(after, "nimm Gold") == "round_over"


def test_selling_from_an_already_empty_pile_does_not_end_the_round() -> None:
    state = position("GGTHH", "BB/0", "SS/0", zinn_left="0,0,5,7,7,9")
    after = GAME.apply(state, "verkauf 2 Bernstein")
    assert after.phase == 0 and after.zinn_won[0] == ()


def test_deck_running_out_ends_the_round() -> None:
    # 11 Packpferde: 3 in the market, 8 in the stables; the deck holds one Gold.
    short = position("HHHTP", "Z/4", "S/4", deck="G")
    after = GAME.apply(short, "pferde")
    assert after.market == (0, 1, 0, 1, 0, 1, 0) and after.deck == ()
    assert GAME.is_round_pause(after) and after.rounds[-1]["end_reason"] == "stapel_leer"
    exact = position("HHHTP", "Z/4", "S/4", deck="GTP")
    filled = GAME.apply(exact, "pferde")
    assert filled.phase == 0 and sum(filled.market) == 5 and filled.deck == ()
    ended = GAME.apply(filled, "nimm Gold")
    assert ended.rounds[-1]["end_reason"] == "stapel_leer"
    assert [i.effect["ends_round"] for i in GAME.legal_moves(filled) if i.text == "nimm Gold"] == [True]


def _end_round(**kw):
    """Seat 0 sells the last Pelz token (value 1), which empties the third pile."""
    base = {"zinn_left": "0,0,5,7,7,1"}
    base.update(kw)
    hands = base.pop("hands", ("P/4", "S/4"))
    state = position("GGTHH", hands[0], hands[1], **base)
    return GAME.apply(state, "verkauf 1 Pelz")


def test_stallmarke_tie_gives_nobody_the_stallmarke() -> None:
    table = _end_round(zinn0="5", zinn1="6").rounds[-1]
    assert table["stall_owner"] is None
    assert [p["stall"] for p in table["players"]] == [0, 0]


def test_tie_on_points_more_ratsmarken_win() -> None:
    table = _end_round(zinn0="5", rats1="6", rats="1.1.2.2.2.3.3/4.4.5.5.6/8.8.9.10.10").rounds[-1]
    assert [p["total"] for p in table["players"]] == [6, 6]
    assert table["seal"] == 1 and table["decided_by"] == "ratsmarken"


def test_tie_on_points_and_ratsmarken_more_zinnmarken_win() -> None:
    table = _end_round(zinn0="5", zinn1="6").rounds[-1]
    assert [p["total"] for p in table["players"]] == [6, 6]
    assert table["seal"] == 0 and table["decided_by"] == "zinnmarken"


def test_full_tie_no_seal_and_the_same_player_begins() -> None:
    after = _end_round(zinn0="5", zinn1="3.3", starter=1)
    table = after.rounds[-1]
    assert table["seal"] is None and table["decided_by"] == "gleichstand"
    assert after.seals == (0, 0) and table["next_starter"] == 1
    nxt = GAME.apply(after, "weiter")
    assert nxt.round_no == 2 and nxt.starter == 1 and GAME.to_move(nxt) == (1,)
    assert sum(nxt.market) == 5 and nxt.zinn_won == ((), ()) and nxt.zinn_left == (5, 5, 5, 7, 7, 9)


def test_loser_begins_the_next_round() -> None:
    after = _end_round(zinn0="7", zinn1="3", starter=0)
    assert after.rounds[-1]["seal"] == 0 and after.seals == (1, 0)
    nxt = GAME.apply(after, "weiter", seat=1)
    assert nxt.starter == 1 and GAME.to_move(nxt) == (1,)
    assert len(nxt.known[0]) == 6 and nxt.known == ((0,) * 6, (0,) * 6)


def test_stallmarke_can_decide_and_two_seals_end_the_match() -> None:
    after = _end_round(zinn1="3", hands=("P/5", "S/3"), seals="1-0")
    table = after.rounds[-1]
    assert table["players"][0]["stall"] == 5 and table["players"][0]["total"] == 6
    assert table["match_over"] and after.seals == (2, 0)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winner == 0 and outcome.score == (2.0, 0.0)
    assert GAME.to_move(after) == () and GAME.legal_moves(after) == []
    assert reason(after, "weiter") == "game_over"


def test_one_seal_option_ends_after_one_round() -> None:
    state = position("GGTHH", "P/4", "S/4", zinn_left="0,0,5,7,7,1", zinn1="9")
    state = GAME.from_position(GAME.to_position(state), {"seals_to_win": 1})
    after = GAME.apply(state, "verkauf 1 Pelz")
    assert GAME.outcome(after).winner == 1


def test_gemerkte_karten_follow_takes_sales_and_exchanges() -> None:
    state = position("GGTPH", "TZ/2", "ZZZ/0")
    took = GAME.apply(state, "nimm Gold")
    assert took.known[0] == (0, 1, 0, 0, 0, 0)
    seen_by_1 = GAME.view(took, 1)["players"][0]
    assert seen_by_1["known"] == ["Gold"] and seen_by_1["hand"] is None and seen_by_1["hand_count"] == 3
    own = GAME.view(took, 0)["players"][0]["hand"]
    assert {"card": "Gold", "known": True} in own and {"card": "Tuch", "known": False} in own
    # Seat 1 moves; then seat 0 gives the Gold back in an exchange: no longer gemerkt.
    passed = GAME.apply(took, "verkauf 1 Salz")
    exchange = next(t for t in texts(passed) if t.startswith("tausch") and "gegen Gold" in t)
    back = GAME.apply(passed, exchange)
    assert back.known[0][1] == 0
    # Taking two Tuch openly, then selling one: one stays gemerkt.
    two = position("TTGPH", "-/0", "ZZZ/0")
    two = GAME.apply(two, "nimm Tuch")
    two = GAME.apply(two, "verkauf 1 Salz")
    two = GAME.apply(two, "nimm Tuch")
    assert two.known[0][3] == 2
    two = GAME.apply(two, "verkauf 1 Salz")
    two = GAME.apply(two, "verkauf 1 Tuch")
    assert two.known[0][3] == 1 and two.hands[0][3] == 1


def test_take_all_horses_and_no_horses() -> None:
    state = position("HHHPB", "BBGPZ/1", "TTSSZ/0")
    after = GAME.apply(state, "pferde")
    assert after.hands[0][6] == 4 and after.market[6] + sum(after.market[:6]) == 5
    assert len(after.deck) == len(state.deck) - 3
    none = position("GGTPB", "Z/0", "S/0")
    assert reason(none, "pferde") == "no_horses"


def test_wrong_seat_and_weiter_while_running() -> None:
    state = position("HHHPB", "BBGPZ/1", "TTSSZ/0")
    assert reason(state, "nimm Pelz", seat=1) == "not_your_turn"
    assert reason(state, "weiter") == "round_running"
    assert GAME.legal_moves(state, 1) == []
