"""What the opponent's moves say about its hidden hand, and deals drawn to match.

The engine's :func:`~shared.games.hanse.state_from_view` deals the opponent's hidden
cards uniformly from the unseen goods.  A trader reads more from the table: a good the
opponent left lying in the market, with room in its hand, it probably does not collect
(a collector takes it, or exchanges for it); a good it just sold, it probably sold all of.
:func:`declines` counts, for each good, how often this round the opponent passed it
over in the market or sold it; :func:`informed_state` deals the hidden cards with weights
that fall with those counts (never to zero: a pass may have had other reasons), the rest
into the deck in random order.

Only the view is read: the market before each move of this round is rebuilt backwards
from today's market and the public move list (cards drawn lie open, and every take and
exchange names its cards).
"""

from __future__ import annotations

import random
from typing import Any

from shared.games.base import BadNotation
from shared.games.hanse import state_from_view
from shared.games.hanse.cards import GOODS, HAND_LIMIT, HORSE, KINDS, NAMES_DE
from shared.games.hanse.notation import parse_move_text
from shared.games.hanse.state import State

PASS_FACTOR = 0.75  # weight kept per time the opponent passed a good over
SOLD_FACTOR = 0.6  # weight kept after it sold that good
MIN_WEIGHT = 0.25

_KIND = {name: k for k, name in enumerate(NAMES_DE)}


def declines(view: dict[str, Any]) -> list[float]:
    """Per good, the weight of a hidden opponent card being of that good (1.0: no sign)."""
    weights = [1.0] * GOODS
    other = 1 - view["seat"]
    entries = [e for e in view.get("moves") or [] if e["round"] == view["round"]]
    market = [0] * KINDS
    for name in view["market"]:
        market[_KIND[name]] += 1
    hand_size = view["players"][other]["hand_count"]
    for entry in reversed(entries):
        try:
            parsed = parse_move_text(entry["text"])
        except BadNotation:
            return [1.0] * GOODS
        for name in entry["drawn"]:
            market[_KIND[name]] -= 1
        if parsed[0] == "take":
            market[parsed[1]] += 1
        elif parsed[0] == "horses":
            market[HORSE] += len(entry["drawn"])
        elif parsed[0] == "exchange":
            taken, given = parsed[1], parsed[2]
            for k in range(KINDS):
                market[k] += taken[k] - given[k]
        if min(market) < 0:
            return [1.0] * GOODS  # the list does not add up (a reshuffle): no reading
        if entry["seat"] != other:
            continue
        # The opponent's hand size before this move, walking backwards from today's.
        if parsed[0] == "take":
            hand_size -= 1
        elif parsed[0] == "sell":
            hand_size += parsed[2]
        elif parsed[0] == "exchange":
            hand_size += sum(parsed[2][:GOODS]) - sum(parsed[1][:GOODS])
        if parsed[0] == "sell":
            weights[parsed[1]] *= SOLD_FACTOR
            continue
        took = set()
        if parsed[0] == "take":
            took.add(parsed[1])
        elif parsed[0] == "exchange":
            took.update(k for k in range(GOODS) if parsed[1][k])
        if hand_size < HAND_LIMIT:
            for k in range(GOODS):
                if market[k] and k not in took:
                    weights[k] *= PASS_FACTOR
    return [max(MIN_WEIGHT, w) for w in weights]


def informed_state(view: dict[str, Any], rng: random.Random, weights: list[float]) -> State:
    """A deal consistent with ``view`` whose hidden opponent cards follow ``weights``."""
    state = state_from_view(view, rng)
    other = 1 - view["seat"]
    hand = list(state.hands[other])
    known = state.known[other]
    hidden = sum(hand[:GOODS]) - sum(known)
    if hidden <= 0 or view["players"][other]["hand"] is not None:
        return state
    pool = [0] * GOODS
    for k in range(GOODS):
        pool[k] = hand[k] - known[k]
        hand[k] = known[k]
    horses = 0
    for card in state.deck:
        if card == HORSE:
            horses += 1
        else:
            pool[card] += 1
    for _ in range(hidden):
        total = sum(pool[k] * weights[k] for k in range(GOODS))
        pick = rng.random() * total
        for k in range(GOODS):
            pick -= pool[k] * weights[k]
            if pick < 0 and pool[k]:
                break
        else:
            k = max(range(GOODS), key=lambda j: pool[j])
        pool[k] -= 1
        hand[k] += 1
    deck = [k for k in range(GOODS) for _ in range(pool[k])] + [HORSE] * horses
    rng.shuffle(deck)
    new = state.copy()
    hands = [state.hands[0], state.hands[1]]
    hands[other] = tuple(hand)
    new.hands = (hands[0], hands[1])
    new.deck = tuple(deck)
    return new
