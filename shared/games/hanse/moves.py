"""Moves as ints: encoding, generation (counted as docs/rules.md counts them) and applying.

Encoding (``m & 7`` is the type):

- ``TAKE | kind << 3``: take one good of ``kind`` from the market (refill 1).
- ``HORSES``: take all Packpferde from the market into the stable (refill).
- ``SELL | kind << 3 | n << 6``: sell ``n`` cards of ``kind``.
- ``EXCHANGE | taken[k] << (3 + 3k) | given[k] << (21 + 3k) | horses << 39`` for the
  six goods ``k``: goods taken from the market, goods given from the hand, Packpferde
  given from the stable.  One int per (taken, given, horses) triple, as docs/rules.md counts.
- ``WEITER``: acknowledge the Rundentafel and deal the next round (pause phase only).

:func:`legal` is cached on ``(market, hand)`` — nothing else decides which actions a
player has — so a search that meets the same trade situation again pays nothing.
:func:`step` applies a move without checking it and without writing history: the
fast path for search.  The engine's ``apply`` checks and logs on top of it.
"""

from __future__ import annotations

from itertools import product

from shared.games.hanse.cards import (
    EMPTY_PILES_END_ROUND,
    GOODS,
    HAND_LIMIT,
    HORSE,
    MARKET_SIZE,
    PRECIOUS,
    ZINN,
    rats_size,
)
from shared.games.hanse.scoring import END_DECK_EMPTY, END_THREE_PILES, round_table
from shared.games.hanse.state import OVER, PAUSE, PLAY, State, deal_round

TAKE = 0
HORSES = 1
SELL = 2
EXCHANGE = 3
WEITER = 4

_MASK3 = 7


def take_move(kind: int) -> int:
    return TAKE | kind << 3


def sell_move(kind: int, n: int) -> int:
    return SELL | kind << 3 | n << 6


def exchange_move(taken: tuple[int, ...], given: tuple[int, ...], horses: int) -> int:
    m = EXCHANGE | horses << 39
    for k in range(GOODS):
        m |= taken[k] << (3 + 3 * k) | given[k] << (21 + 3 * k)
    return m


def decode_exchange(m: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    taken = tuple((m >> (3 + 3 * k)) & _MASK3 for k in range(GOODS))
    given = tuple((m >> (21 + 3 * k)) & _MASK3 for k in range(GOODS))
    return taken, given, m >> 39


_takes_cache: dict[tuple[int, ...], tuple[tuple[int, int, int], ...]] = {}
_gives_cache: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}


def _takes(market_goods: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """Every multiset of market goods of size >= 2 as (size, taken bits, mask of kinds taken)."""
    found = _takes_cache.get(market_goods)
    if found is None:
        out = []
        for combo in product(*(range(n + 1) for n in market_goods)):
            size = sum(combo)
            if size >= 2:
                code = 0
                mask = 0
                for k in range(GOODS):
                    if combo[k]:
                        code |= combo[k] << (3 + 3 * k)
                        mask |= 1 << k
                out.append((size, code, mask))
        found = _takes_cache[market_goods] = tuple(out)
    return found


def _gives(hand_goods: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per size 0..7, every sub-multiset of ``hand_goods`` as given bits."""
    found = _gives_cache.get(hand_goods)
    if found is None:
        by_size: list[list[int]] = [[] for _ in range(HAND_LIMIT + 1)]
        for combo in product(*(range(n + 1) for n in hand_goods)):
            code = 0
            for k in range(GOODS):
                code |= combo[k] << (21 + 3 * k)
            by_size[sum(combo)].append(code)
        found = _gives_cache[hand_goods] = tuple(tuple(codes) for codes in by_size)
    return found


def _generate(market: tuple[int, ...], hand: tuple[int, ...]) -> tuple[int, ...]:
    moves: list[int] = []
    hand_goods = hand[:GOODS]
    goods_in_hand = sum(hand_goods)
    if market[HORSE]:
        moves.append(HORSES)
    if goods_in_hand < HAND_LIMIT:
        for k in range(GOODS):
            if market[k]:
                moves.append(TAKE | k << 3)
    # Exchanges: every multiset of market goods (size >= 2), paid with hand goods of other
    # kinds plus horses; each horse given raises the goods in hand by one (limit 7).
    stable = hand[HORSE]
    room = HAND_LIMIT - goods_in_hand
    for size, taken, mask in _takes(market[:GOODS]):
        # Only kinds not taken may be given: the hand restricted to those is the cache key.
        gives = _gives(tuple(0 if mask >> k & 1 else hand_goods[k] for k in range(GOODS)))
        for horses in range(min(stable, size, room) + 1):
            codes = gives[size - horses]
            if codes:
                base = EXCHANGE | taken | horses << 39
                moves.extend([base | g for g in codes])
    for k in range(GOODS):
        lowest = 2 if PRECIOUS[k] else 1
        for n in range(lowest, hand[k] + 1):
            moves.append(SELL | k << 3 | n << 6)
    return tuple(moves)


_cache: dict[tuple, tuple[int, ...]] = {}
_CACHE_LIMIT = 200_000


def legal(state: State) -> tuple[int, ...]:
    """The legal move ints of the seat to move (``(WEITER,)`` in the pause, ``()`` when over)."""
    if state.phase != PLAY:
        return (WEITER,) if state.phase == PAUSE else ()
    market = state.market
    hand = state.hands[state.turn]
    key = (market, hand)
    found = _cache.get(key)
    if found is None:
        if len(_cache) >= _CACHE_LIMIT:
            _cache.clear()
            _gives_cache.clear()
        found = _cache[key] = _generate(market, hand)
    return found


def _refill(market: list[int], deck: tuple[int, ...]) -> tuple[tuple[int, ...], bool]:
    """Fill the market to 5 from the deck's end; returns (deck left, filled completely)."""
    missing = MARKET_SIZE - sum(market)
    take = min(missing, len(deck))
    for i in range(1, take + 1):
        market[deck[-i]] += 1
    if take:
        deck = deck[:-take]
    return deck, take == missing


def step(state: State, m: int) -> State:
    """Apply legal move ``m`` (unchecked) and return the new state; history is not written."""
    kind_of_move = m & 7
    if kind_of_move == WEITER:
        return deal_round(state, state.round_no + 1, state.turn)
    new = state.copy()
    p = state.turn
    market = list(state.market)
    hand = list(state.hands[p])
    known = list(state.known[p])
    end_reason = None
    if kind_of_move == TAKE:
        k = m >> 3
        market[k] -= 1
        hand[k] += 1
        known[k] += 1
        new.deck, full = _refill(market, state.deck)
        if not full:
            end_reason = END_DECK_EMPTY
    elif kind_of_move == HORSES:
        hand[HORSE] += market[HORSE]
        market[HORSE] = 0
        new.deck, full = _refill(market, state.deck)
        if not full:
            end_reason = END_DECK_EMPTY
    elif kind_of_move == SELL:
        k = (m >> 3) & 7
        n = m >> 6
        hand[k] -= n
        known[k] = max(0, known[k] - n)
        left = state.zinn_left[k]
        got = min(n, left)
        if got:
            start = len(ZINN[k]) - left
            zinn_left = list(state.zinn_left)
            zinn_left[k] = left - got
            new.zinn_left = tuple(zinn_left)
            won = list(state.zinn_won)
            won[p] = won[p] + ZINN[k][start : start + got]
            new.zinn_won = (won[0], won[1])
        size = rats_size(n)
        if size >= 0 and state.rats_piles[size]:
            piles = list(state.rats_piles)
            value = piles[size][-1]
            piles[size] = piles[size][:-1]
            new.rats_piles = (piles[0], piles[1], piles[2])
            rats = list(state.rats_won)
            rats[p] = rats[p] + (value,)
            new.rats_won = (rats[0], rats[1])
        discard = list(state.discard)
        discard[k] += n
        new.discard = tuple(discard)
        if got and new.zinn_left.count(0) >= EMPTY_PILES_END_ROUND:
            end_reason = END_THREE_PILES
    else:  # EXCHANGE
        for k in range(GOODS):
            t = (m >> (3 + 3 * k)) & _MASK3
            g = (m >> (21 + 3 * k)) & _MASK3
            if t:
                market[k] -= t
                hand[k] += t
                known[k] += t
            elif g:
                market[k] += g
                hand[k] -= g
                known[k] = max(0, known[k] - g)
        horses = m >> 39
        market[HORSE] += horses
        hand[HORSE] -= horses
    new.market = tuple(market)
    hands = list(state.hands)
    hands[p] = tuple(hand)
    new.hands = (hands[0], hands[1])
    knowns = list(state.known)
    knowns[p] = tuple(known)
    new.known = (knowns[0], knowns[1])
    if end_reason is None:
        new.turn = 1 - p
        return new
    return _end_round(new, end_reason)


def _end_round(state: State, end_reason: str) -> State:
    table = round_table(
        state.round_no,
        state.starter,
        end_reason,
        state.zinn_won,
        state.rats_won,
        state.hands,
        state.seals,
        state.seals_to_win,
    )
    state.rounds = state.rounds + (table,)
    state.seals = (table["seals_after"][0], table["seals_after"][1])
    if table["match_over"]:
        state.phase = OVER
        state.turn = table["seal"]
    else:
        state.phase = PAUSE
        state.turn = table["next_starter"]
    return state
