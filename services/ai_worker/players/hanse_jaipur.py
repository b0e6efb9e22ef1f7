"""Stark's Battlehanse evaluation: a position in points for one seat, as a trader sees it.

Where :mod:`.hanse_eval` (Leicht, Mittel) counts a hand at a flat share of its sale
value, this one asks what the cards will really fetch before the round ends:

* **Token piles and the race.**  Each kind in hand is worth the Zinnmarken it takes from
  the top of its pile now.  When the opponent holds the same kind the two race for the
  top tokens: the one to move sells first more often, so the value is a mix of selling
  first and selling after the opponent took its share.  A single precious card cannot be
  sold alone: it counts at a share until it has a partner.
* **Ratsmarken.**  A set of 3, 4 or 5+ adds the mean of the tokens still in that pile
  (the piles' remaining values are in the sampled state, so the mean is of those left);
  a set that one more card would lift to the next pile counts a share of the step when
  cards of that kind are still to come (market and the seat's unknown cards; the fitted
  weights give that step no share: the sets players really complete are worth it).
* **Time.**  The round ends when the deck runs out (about one card drawn every other
  move) or, with two piles empty, at the next sale that empties a third.  A seat sells
  one kind per turn, so only its best kinds fit into the turns it has left; the rest
  counts little.
* **Stallmarke.**  The lead in Packpferde decides it; how sure the lead is depends on how
  many horses are still to come (the fitted weights: a lead of three is about as sure
  whenever it is held).  A few horses are also the currency of exchanges.
* **Hand limit.**  A full hand cannot take: it has to sell or exchange next.
* **Seal.**  Near the round's end the points lead turns into the seal: the closer the
  end, the more of the seal's (and, when that seal decides the match, the match's) value
  the leader is credited with, so the value runs smoothly into
  :func:`.hanse_eval.round_over_value` at the end — ending a round while ahead is good,
  and behind it is better to stall.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from services.ai_worker.players.hanse_eval import MATCH_VALUE, SEAL_VALUE, round_over_value
from shared.games.hanse.cards import (
    CARD_COUNTS,
    EMPTY_PILES_END_ROUND,
    GOODS,
    HAND_LIMIT,
    HORSE,
    PRECIOUS,
    ZINN,
    rats_size,
)
from shared.games.hanse.moves import EXCHANGE, HORSES, SELL, TAKE, step
from shared.games.hanse.state import PLAY, State


@dataclass(frozen=True, eq=False)  # hashed by identity: the kind tables are kept per weight set
class Weights:
    """The evaluation's judgement, in points or shares of them.  The defaults are the
    hand-set weights; Stark plays :data:`STARK_WEIGHTS`, fitted by ``bench.hanse_tune``."""

    hand_share: float = 0.6  # cards in hand are worth this share of what they fetch: they still have to be sold
    late_share: float = 0.15  # share for kinds beyond the sales that fit into the turns left
    draws_per_ply: float = 0.6  # about this many cards leave the deck per move (sales and exchanges draw none)
    first_seller: float = 0.65  # chance the seat to move wins a race for the same good
    growth_share: float = 0.35  # share of the next Ratsmarke step credited while more cards may come
    lone_precious: float = 0.5  # a single precious card cannot be sold alone: this share until it has a partner
    horse_currency: float = 0.2  # per horse (up to four): pays for exchanges
    full_hand_cost: float = 1.5
    near_full_cost: float = 0.3
    seal_horizon: float = 24.0  # plies before the end from which the seal starts to count
    seal_scale: float = 5.0  # a lead of this many points makes the seal about three-quarters sure
    stall_spread: float = 0.6  # how much each horse still to come blurs the Packpferde lead …
    stall_sure: float = 0.5  # … and how sure a lead is when none is left to come


HAND_SET_WEIGHTS = Weights()
# Fitted to the final points margins of 33,000 positions from 300 self-play matches
# (``bench.hanse_tune``; held-out error 189 → 171), adopted after they beat the previous
# Stark at equal time far more often than the hand-set weights did (docs/performance.md).
STARK_WEIGHTS = Weights(
    hand_share=0.9, late_share=0.0312, draws_per_ply=0.7, first_seller=0.8375, growth_share=0.0,
    lone_precious=0.6562, horse_currency=0.6437, full_hand_cost=0.7688, near_full_cost=0.5719,
    stall_spread=0.0, stall_sure=3.2003,
)


_kind_tables: dict[tuple[Weights, tuple], dict[int, float]] = {}
_CACHE_LIMIT = 300_000  # entries; the search meets the same kinds against the same piles again and again


def _kind_table(rats_piles: tuple, w: Weights) -> dict[int, float]:
    """The per-kind values already computed against these Ratsmarken piles with these
    weights (see :func:`_potential`).  The piles change only with a sale, so one
    evaluation looks them up once for both seats."""
    key = (w, rats_piles)
    found = _kind_tables.get(key)
    if found is None:
        if len(_kind_tables) >= 4096:
            _kind_tables.clear()
        found = _kind_tables[key] = {}
    elif len(found) >= _CACHE_LIMIT:
        found.clear()
    return found


def _rats_means(rats_piles: tuple) -> tuple[float, float, float]:
    means = [sum(pile) / len(pile) if pile else 0.0 for pile in rats_piles]
    return means[0], means[1], means[2]


def _kind_value(
    k: int, n: int, rival: int, left: int, rats: tuple[float, float, float], first_to_sell: bool, coming: bool,
    w: Weights,
) -> float:
    """What ``n`` cards of kind ``k`` fetch with ``left`` Zinnmarken on its pile, the rival
    holding ``rival`` of them, ``first_to_sell`` when the seat moves next and ``coming``
    when more cards of the kind may still reach the seat (market or deck)."""
    start = len(ZINN[k]) - left
    pile = ZINN[k]
    first = sum(pile[start : start + min(n, left)])
    if rival and left:
        after = start + min(rival, left)
        second = sum(pile[after : after + n])
        p = w.first_seller if first_to_sell else 1.0 - w.first_seller
        value = p * first + (1.0 - p) * second
    else:
        value = float(first)
    if n >= 5:
        value += rats[2]
    elif n >= 3:
        size = n - 3
        value += rats[size]
        if coming:
            value += w.growth_share * max(0.0, rats[size + 1] - rats[size])
    elif n == 2 and coming:
        value += w.growth_share * rats[0]
    if n == 1 and PRECIOUS[k]:
        value *= w.lone_precious
    return value


def _potential(
    hand: tuple[int, ...],
    rival: tuple[int, ...],
    discard: tuple[int, ...],
    zinn_left: tuple[int, ...],
    rats_piles: tuple,
    table: dict[int, float],
    first_to_sell: bool,
    fit: int,
    w: Weights,
) -> float:
    """What ``hand``'s goods will fetch in the ``fit`` sales it has turns left for."""
    values = []
    for k in range(GOODS):
        n = hand[k]
        if n:
            r = rival[k]
            coming = CARD_COUNTS[k] - n - r - discard[k] > 0
            left = zinn_left[k]
            # Everything the kind's value depends on, as one int (n, r <= 7; left <= 9).
            key = ((((k << 3 | n) << 3 | r) << 4 | left) << 1 | first_to_sell) << 1 | coming
            value = table.get(key)
            if value is None:
                value = table[key] = _kind_value(k, n, r, left, _rats_means(rats_piles), first_to_sell, coming, w)
            values.append(value)
    if not values:
        return 0.0
    values.sort(reverse=True)
    return w.hand_share * (sum(values[:fit]) + w.late_share * sum(values[fit:]))


def evaluate(state: State, me: int, w: Weights = STARK_WEIGHTS) -> float:
    """Points ``me`` is ahead, with the seal weighed in as the round's end nears."""
    if state.phase != PLAY:
        return round_over_value(state, me)
    zinn_won, rats_won = state.zinn_won, state.rats_won
    points = sum(zinn_won[0]) + sum(rats_won[0]) - sum(zinn_won[1]) - sum(rats_won[1])
    return _value(state, me, state.turn, state.hands, points, len(state.deck), state.zinn_left,
                  state.rats_piles, state.discard, w)


def value_after(state: State, move: int, me: int, w: Weights = STARK_WEIGHTS) -> float:
    """``evaluate(step(state, move), me)`` without building the position: the search
    values every move of a position and keeps one, so the others need only the counts
    the evaluation reads.  A move that ends the round is stepped for the Rundentafel."""
    kind_of_move = move & 7
    p = state.turn
    deck = len(state.deck)
    zinn_left, rats_piles, discard = state.zinn_left, state.rats_piles, state.discard
    zinn_won, rats_won = state.zinn_won, state.rats_won
    points = sum(zinn_won[0]) + sum(rats_won[0]) - sum(zinn_won[1]) - sum(rats_won[1])
    hand = list(state.hands[p])
    if kind_of_move == TAKE:
        if deck < 1:
            return evaluate(step(state, move), me, w)
        hand[move >> 3] += 1
        deck -= 1
    elif kind_of_move == HORSES:
        horses = state.market[HORSE]
        if deck < horses:
            return evaluate(step(state, move), me, w)
        hand[HORSE] += horses
        deck -= horses
    elif kind_of_move == SELL:
        k = (move >> 3) & 7
        n = move >> 6
        hand[k] -= n
        left = zinn_left[k]
        got = min(n, left)
        gained = 0
        if got:
            if zinn_left.count(0) + (got == left) >= EMPTY_PILES_END_ROUND:
                return evaluate(step(state, move), me, w)
            start = len(ZINN[k]) - left
            gained = sum(ZINN[k][start : start + got])
            zinn_left = zinn_left[:k] + (left - got,) + zinn_left[k + 1 :]
        size = rats_size(n)
        if size >= 0 and rats_piles[size]:
            pile = rats_piles[size]
            gained += pile[-1]
            rats_piles = rats_piles[:size] + (pile[:-1],) + rats_piles[size + 1 :]
        points += gained if p == 0 else -gained
        discard = discard[:k] + (discard[k] + n,) + discard[k + 1 :]
    elif kind_of_move == EXCHANGE:
        for k in range(GOODS):
            hand[k] += ((move >> (3 + 3 * k)) & 7) - ((move >> (21 + 3 * k)) & 7)
        hand[HORSE] -= move >> 39
    else:
        return evaluate(step(state, move), me, w)
    hands = (tuple(hand), state.hands[1]) if p == 0 else (state.hands[0], tuple(hand))
    return _value(state, me, 1 - p, hands, points, deck, zinn_left, rats_piles, discard, w)


def _value(
    state: State,
    me: int,
    turn: int,
    hands: tuple[tuple[int, ...], tuple[int, ...]],
    points: int,
    deck: int,
    zinn_left: tuple[int, ...],
    rats_piles: tuple,
    discard: tuple[int, ...],
    w: Weights,
) -> float:
    """The evaluation of a position in play from the counts it reads (``points``: seat 0's
    tokens minus seat 1's; ``deck``: cards left to draw); ``state`` gives only the seals.
    Written flat, one table look-up per kind held: it runs for every position searched."""
    other = 1 - me
    lead = float(points if me == 0 else -points)
    plies = deck / w.draws_per_ply
    if zinn_left.count(0) >= 2:
        plies = min(plies, 6.0)
    mine_to_move = turn == me
    my_turns = (plies + (1 if mine_to_move else 0)) / 2
    their_turns = (plies + (0 if mine_to_move else 1)) / 2
    mine, theirs = hands[me], hands[other]
    table = _kind_table(rats_piles, w)
    lead += _potential(mine, theirs, discard, zinn_left, rats_piles, table, mine_to_move, max(1, int(my_turns)), w) - (
        _potential(theirs, mine, discard, zinn_left, rats_piles, table, not mine_to_move, max(1, int(their_turns)), w))

    to_come = CARD_COUNTS[HORSE] - mine[HORSE] - theirs[HORSE]
    lead += 5.0 * math.tanh((mine[HORSE] - theirs[HORSE]) / (w.stall_sure + w.stall_spread * to_come))
    lead += w.horse_currency * (min(mine[HORSE], 4) - min(theirs[HORSE], 4))

    my_goods, their_goods = sum(mine[:GOODS]), sum(theirs[:GOODS])
    if my_goods >= HAND_LIMIT:
        lead -= w.full_hand_cost
    elif my_goods == HAND_LIMIT - 1:
        lead -= w.near_full_cost
    if their_goods >= HAND_LIMIT:
        lead += w.full_hand_cost
    elif their_goods == HAND_LIMIT - 1:
        lead += w.near_full_cost

    closeness = max(0.0, 1.0 - plies / w.seal_horizon)
    if closeness:
        to_win = state.seals_to_win
        my_stake = SEAL_VALUE + (MATCH_VALUE if state.seals[me] + 1 >= to_win else 0.0)
        their_stake = SEAL_VALUE + (MATCH_VALUE if state.seals[other] + 1 >= to_win else 0.0)
        p = 0.5 + 0.5 * math.tanh(lead / w.seal_scale)
        lead += closeness * (p * my_stake - (1.0 - p) * their_stake)
    return lead
