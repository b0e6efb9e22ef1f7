"""Determinization: a full state from a view plus a random assignment of the unknown cards.

The strong computer plays through many such states.  From a seat's view the unknown
parts are: the deck order, the opponent's hand cards that are not gemerkt, and the
values of the opponent's Ratsmarken this round together with the Ratsmarken left in
the piles.  :func:`state_from_view` draws them uniformly among all assignments that
agree with the view (hidden hand cards are goods only: Packpferde go to the stable):

- unseen cards = all 55 − market − sold goods − stables − every hand card the view shows;
- hidden hand cards are a uniform random choice among the unseen goods, the rest is
  the deck in random order;
- per Ratsmarken pile, the values not seen are shuffled; the opponent's hidden tokens
  take the first ones (in the order of its sales), the pile gets the rest.

The result has the view's public history (hidden Ratsmarken values filled in with the
sampled ones), so ``view(result, seat) == view_it_came_from``; future rounds are dealt
from a fresh seed drawn from ``rng``.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from shared.games.base import BadNotation
from shared.games.hanse.cards import CARD_COUNTS, GOODS, HORSE, KINDS, NAMES_DE, RATS, ZINN, rats_size_of_value
from shared.games.hanse.state import PHASE_NAMES, State

_NAME_TO_KIND = {name: k for k, name in enumerate(NAMES_DE)}


def _counts(names: list[str]) -> list[int]:
    counts = [0] * KINDS
    for name in names:
        counts[_NAME_TO_KIND[name]] += 1
    return counts


def state_from_view(view: dict[str, Any], rng: random.Random) -> State:
    """A full state consistent with ``view`` (from :func:`.view.build_view`); raises BadNotation if inconsistent."""
    try:
        return _sample(view, rng)
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise BadNotation(
            "bad_view", f"Ansicht passt nicht zusammen: {exc}", f"The view is inconsistent: {exc}"
        ) from None


def _sample(view: dict[str, Any], rng: random.Random) -> State:
    market = _counts(view["market"])
    unseen = list(CARD_COUNTS)
    for k in range(KINDS):
        unseen[k] -= market[k]
    for name, n in view["discard"].items():
        unseen[_NAME_TO_KIND[name]] -= n
    hands: list[list[int]] = []
    knowns: list[tuple[int, ...]] = []
    hidden_count = [0, 0]
    for p in (0, 1):
        player = view["players"][p]
        known = _counts(player["known"])[:GOODS]
        knowns.append(tuple(known))
        if player["hand"] is not None:
            hand = _counts([c["card"] for c in player["hand"]])
        else:
            hand = known + [0]
            hidden_count[p] = player["hand_count"] - sum(known)
        hand[HORSE] = player["stable"]
        for k in range(KINDS):
            unseen[k] -= hand[k]
        hands.append(hand)
    if min(unseen) < 0:
        raise ValueError("more cards shown than exist")
    goods = [k for k in range(GOODS) for _ in range(unseen[k])]
    rng.shuffle(goods)
    position = 0
    for p in (0, 1):
        for _ in range(hidden_count[p]):
            hands[p][goods[position]] += 1
            position += 1
    deck = goods[position:] + [HORSE] * unseen[HORSE]
    rng.shuffle(deck)
    if len(deck) != view["deck_count"]:
        raise ValueError("deck count does not match")

    # Ratsmarken: per pile, every value not shown is equally likely for each hidden token.
    rats_won: list[list[int]] = [[], []]
    piles = []
    pools = []
    for size in range(3):
        pool = list(RATS[size])
        for p in (0, 1):
            for value in view["players"][p]["rats"] or []:
                if rats_size_of_value(value) == size:
                    pool.remove(value)
        rng.shuffle(pool)
        pools.append(pool)
    for p in (0, 1):
        player = view["players"][p]
        if player["rats"] is not None:
            rats_won[p] = list(player["rats"])
        else:
            rats_won[p] = [pools[s - 3].pop() for s in player["rats_sizes"]]
    for size in range(3):
        if len(pools[size]) != view["rats_left"][size]:
            raise ValueError("Ratsmarken counts do not match")
        piles.append(tuple(pools[size]))

    history = []
    hidden_fill = [list(rats_won[0]), list(rats_won[1])]
    current = view["round"]
    for entry in view["moves"]:
        rats = -1
        if entry["ratsmarke"] is not None:
            if entry["rats"] is not None:
                rats = entry["rats"]
            elif entry["round"] == current:
                # The hidden values of this round, in the order the owner took them.
                taken_before = sum(1 for e in history if e[0] == current and e[1] == entry["seat"] and e[4] >= 0)
                rats = hidden_fill[entry["seat"]][taken_before]
            else:
                raise ValueError("hidden Ratsmarke of a finished round")
        drawn = tuple(_NAME_TO_KIND[name] for name in entry["drawn"])
        history.append((entry["round"], entry["seat"], entry["text"], drawn, rats))

    state = State.__new__(State)
    state.first = view["options"]["first"]
    state.seals_to_win = view["options"]["seals_to_win"]
    state.seed = rng.randrange(2**31)
    state.round_no = view["round"]
    state.phase = PHASE_NAMES.index(view["phase"])
    state.turn = view["turn"]
    state.starter = view["starter"]
    state.market = tuple(market)
    state.hands = (tuple(hands[0]), tuple(hands[1]))
    state.known = (knowns[0], knowns[1])
    state.deck = tuple(deck)
    state.zinn_left = tuple(len(pile["left"]) for pile in view["zinn_piles"])
    if any(state.zinn_left[k] > len(ZINN[k]) for k in range(GOODS)):
        raise ValueError("too many Zinnmarken")
    state.rats_piles = (piles[0], piles[1], piles[2])
    state.zinn_won = (tuple(view["players"][0]["zinn"]), tuple(view["players"][1]["zinn"]))
    state.rats_won = (tuple(rats_won[0]), tuple(rats_won[1]))
    state.discard = tuple(view["discard"][NAMES_DE[k]] for k in range(GOODS))
    state.seals = (view["seals"][0], view["seals"][1])
    state.rounds = tuple(copy.deepcopy(view["rounds"]))
    state.history = tuple(history)
    state.reshuffles = ()
    return state
