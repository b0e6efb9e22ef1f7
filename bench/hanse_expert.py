"""A rule-based Battlehanse trader: a sparring partner for quick checks of Stark.

It is written independently of Stark's evaluation and search: every legal move gets a
score from a handful of trader's rules, read from its own view only (the market, its
hand and stable, the opponent's stable, hand size and gemerkte Karten, the piles, the
deck count, the points won so far).  The rules:

* sell sets for Ratsmarken (3, 4, 5+ cards), precious pairs while the top tokens last;
* sell before the top Zinnmarken go when the opponent is known to hold the same good;
* take what it collects, precious goods first; deny a good the opponent collects;
* take Packpferde for the Stallmarke and to pay for exchanges;
* exchange cheap cards and horses for two or more cards that complete a set;
* never leave the opponent a market with its collected good in it when it can help;
* watch the hand limit (a full hand sells);
* end the round when ahead, stall (no draws from a short deck) when behind.

It is not Stark's tuning target: it is one more opponent that plays sensibly, so a
change to Stark that loses against it is suspect.  ``choose_move`` has the players'
signature (``strength``, ``max_samples`` and ``stats`` are accepted and ignored).
"""

from __future__ import annotations

import random
from typing import Any

from shared.games.hanse import fast_apply, fast_moves, state_from_view
from shared.games.hanse.cards import (
    CARD_COUNTS,
    GOODS,
    HAND_LIMIT,
    HORSE,
    NAMES_DE,
    PRECIOUS,
    RATS_MEAN,
    ZINN,
    rats_size,
)
from shared.games.hanse.moves import EXCHANGE, HORSES, SELL, TAKE, decode_exchange
from shared.games.hanse.notation import format_move
from shared.games.hanse.state import PLAY

ENDING_WEIGHT = 25.0  # ending the round: worth this much when ahead, costs it when behind


def _next_token(zinn_left: tuple[int, ...], k: int) -> int:
    left = zinn_left[k]
    return ZINN[k][len(ZINN[k]) - left] if left else 0


def _tokens(zinn_left: tuple[int, ...], k: int, n: int) -> int:
    left = zinn_left[k]
    start = len(ZINN[k]) - left
    return sum(ZINN[k][start : start + min(n, left)])


class _Public:
    """The public facts of a view (and the mover's own hand), read once."""

    def __init__(self, view: dict[str, Any]) -> None:
        state = state_from_view(view, random.Random(0))  # only the public parts are read below
        self.state = state
        self.me = view["seat"]
        self.other = 1 - self.me
        self.hand = state.hands[self.me]
        self.goods = sum(self.hand[:GOODS])
        self.opp_known = state.known[self.other]
        self.opp_count = view["players"][self.other]["hand_count"]
        self.opp_stable = view["players"][self.other]["stable"]
        self.market = state.market
        self.zinn_left = state.zinn_left
        self.rats_left = tuple(len(p) for p in state.rats_piles)
        self.deck = view["deck_count"]
        me_p, opp_p = view["players"][self.me], view["players"][self.other]
        mine = sum(me_p["zinn"]) + sum(me_p["rats"] or [])
        theirs = sum(opp_p["zinn"]) + sum(RATS_MEAN[s - 3] for s in opp_p["rats_sizes"])
        self.lead = mine - theirs
        # Unseen cards of each good (deck or the opponent's hidden hand): what may still come.
        self.unseen = [
            CARD_COUNTS[k] - self.market[k] - self.hand[k] - self.opp_known[k] - view["discard"][NAMES_DE[k]]
            for k in range(GOODS)
        ]

    def stall_after(self, my_horses: int) -> float:
        if my_horses > self.opp_stable:
            return 5.0
        return -5.0 if my_horses < self.opp_stable else 0.0


def _sale_score(pub: _Public, k: int, n: int) -> float:
    value = _tokens(pub.zinn_left, k, n)
    size = rats_size(n)
    if size >= 0 and pub.rats_left[size]:
        value += RATS_MEAN[size]
    score = value
    if pub.opp_known[k]:
        score += 1.5 + 0.5 * pub.opp_known[k]  # race: the top tokens go to who sells first
    if pub.goods >= HAND_LIMIT:
        score += 2.0
    # Waiting pays when the set can still grow: more of it in the market or unseen.
    if n < pub.hand[k]:
        score -= 2.0  # selling part of a set gives away its Ratsmarke
    if n < 5 and pub.market[k] and not pub.opp_known[k]:
        score -= 2.0
    if n < 3 and not PRECIOUS[k] and pub.unseen[k] + pub.market[k] >= 3 and pub.deck > 12:
        score -= 3.0
    if n == 2 and PRECIOUS[k] and _next_token(pub.zinn_left, k) < 6 and pub.unseen[k] + pub.market[k] >= 1:
        score -= 1.5
    return score - 1.5  # a sale spends the turn and the cards


def _good_worth(pub: _Public, k: int, have: int) -> float:
    """What one more card of good ``k`` is worth to a hand holding ``have`` of it."""
    worth = _next_token(pub.zinn_left, k) * (0.55 if have else 0.4)
    if pub.zinn_left[k] <= have:
        worth *= 0.2  # no token left for this card
    if have + 1 in (3, 4, 5):
        worth += (RATS_MEAN[rats_size(have + 1)] - RATS_MEAN[rats_size(have)] if have >= 3 else 2.0) * 0.5
    return worth


def _market_gift(pub: _Public, market: tuple[int, ...]) -> float:
    """How much the market handed to the opponent helps it: its collected goods lie there."""
    gift = 0.0
    for k in range(GOODS):
        if market[k] and pub.opp_known[k]:
            gift += 0.6 * _next_token(pub.zinn_left, k) * min(market[k], 2)
    return gift + 0.3 * market[HORSE]


def _score(pub: _Public, m: int) -> float:
    kind = m & 7
    after = fast_apply(pub.state, m)
    if after.phase != PLAY:
        # Hidden Ratsmarken of the opponent are guessed at their mean: judge from the view only.
        stall = pub.stall_after(after.hands[pub.me][HORSE])
        ahead = pub.lead + stall + (_tokens(pub.zinn_left, (m >> 3) & 7, m >> 6) if kind == SELL else 0)
        return ENDING_WEIGHT if ahead > 0 else -ENDING_WEIGHT
    draws = kind in (TAKE, HORSES)
    stall_now = pub.deck <= 4 and pub.lead + pub.stall_after(pub.hand[HORSE]) < 0
    score = 0.0
    if draws and stall_now:
        score -= 4.0  # behind with a short deck: do not bring the end nearer
    if kind == SELL:
        k, n = (m >> 3) & 7, m >> 6
        return _sale_score(pub, k, n)
    if kind == TAKE:
        k = m >> 3
        score += _good_worth(pub, k, pub.hand[k])
        if PRECIOUS[k]:
            score += 1.0
        if pub.opp_known[k]:
            score += 0.5 * _next_token(pub.zinn_left, k)  # denied
        if pub.goods + 1 >= HAND_LIMIT:
            score -= 1.5
        market = list(pub.market)
        market[k] -= 1
        score -= _market_gift(pub, tuple(market)) + 0.5  # plus the unknown card drawn
        return score
    if kind == HORSES:
        n = pub.market[HORSE]
        score += (0.4 if pub.hand[HORSE] > pub.opp_stable + 2 else 0.8) * n
        score += 0.5 * (pub.stall_after(pub.hand[HORSE] + n) - pub.stall_after(pub.hand[HORSE]))
        market = list(pub.market)
        market[HORSE] = 0
        score -= _market_gift(pub, tuple(market)) + 0.5 * n  # n unknown cards for the opponent
        return score
    if kind == EXCHANGE:
        taken, given, horses = decode_exchange(m)
        hand = list(pub.hand)
        for k in range(GOODS):
            for _ in range(taken[k]):
                score += _good_worth(pub, k, hand[k])
                hand[k] += 1
            if pub.opp_known[k] and taken[k]:
                score += 0.4 * _next_token(pub.zinn_left, k)
        for k in range(GOODS):
            for _ in range(given[k]):
                hand[k] -= 1
                score -= _good_worth(pub, k, hand[k])
        score -= (0.6 if pub.hand[HORSE] > pub.opp_stable + 2 else 1.0) * horses
        score += 0.5 * (pub.stall_after(pub.hand[HORSE] - horses) - pub.stall_after(pub.hand[HORSE]))
        market = tuple(pub.market[k] - taken[k] + given[k] for k in range(GOODS)) + (pub.market[HORSE] + horses,)
        score -= _market_gift(pub, market) - _market_gift(pub, pub.market)
        if sum(hand[:GOODS]) >= HAND_LIMIT:
            score -= 1.0
        return score - 0.5
    return score


def choose_move(
    view: dict[str, Any],
    strength: str = "expert",
    deadline: float = 0.0,
    rng: random.Random | None = None,
    max_samples: int | None = None,
    stats: dict[str, int] | None = None,
) -> str:
    """The expert's move text for the seat of ``view``."""
    texts = [m["text"] for m in view.get("legal_moves") or []]
    if len(texts) <= 1 or view["phase"] != "spiel":
        return texts[0]
    rng = rng or random.Random(0)
    pub = _Public(view)
    moves = fast_moves(pub.state)
    scored = [(_score(pub, m) + rng.random() * 1e-3, m) for m in moves]
    best = max(scored)[1]
    return format_move(best)
