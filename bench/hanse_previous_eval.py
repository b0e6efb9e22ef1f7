"""Frozen copy of Battlehanse's evaluation before the Jaipur evaluation, used by
:mod:`bench.hanse_previous_stark` (the reference opponent; do not improve it).

Battlehanse position value for one seat, in points (Zinn-/Ratsmarken, Stallmarke).

On a state where the round is still running: the points already won, plus a share of
what the goods in hand would fetch if sold now (the next Zinnmarken of that pile —
shared fairly when the opponent holds the same good — and, from three cards on, the
mean Ratsmarke 2/5/9), plus the Stallmarke as it stands,
minus the same for the opponent; a full hand (limit 7) costs a little because it
blocks taking.  The share falls as the deck runs down: at the round's end unsold
cards are worth nothing.

Once the round is over (pause or match end) the Rundentafel decides: the point
difference plus :data:`SEAL_VALUE` for the seal, and :data:`MATCH_VALUE` more when
that seal decides the match — this is how the search knows the seal standing: a
round that would give the opponent its deciding seal weighs far more than points.
"""

from __future__ import annotations

from shared.games.hanse.cards import GOODS, HAND_LIMIT, HORSE, RATS_MEAN, STALLMARKE, ZINN, rats_size
from shared.games.hanse.state import PLAY, State

SEAL_VALUE = 10.0
MATCH_VALUE = 30.0
HAND_SHARE_MIN = 0.3  # share of a hand's sale value counted when the deck is empty …
HAND_SHARE_MAX = 0.6  # … and when it is still thick (DECK_THICK cards or more)
DECK_THICK = 20
STALL_SHARE = 0.5  # the Stallmarke as it stands now, counted at half
FULL_HAND_COST = 1.0


def hand_value(state: State, seat: int) -> float:
    """What the goods in ``seat``'s hand would fetch if each kind were sold at once.

    A kind the opponent holds too is a race for the top Zinnmarken: it is valued as
    the mean of selling first and selling after the opponent sold its cards, so a sale
    that wins the race is worth more now than later."""
    hand = state.hands[seat]
    rival = state.hands[1 - seat]
    total = 0.0
    for k in range(GOODS):
        n = hand[k]
        if not n:
            continue
        left = state.zinn_left[k]
        start = len(ZINN[k]) - left
        first = sum(ZINN[k][start : start + min(n, left)])
        if rival[k]:
            after = start + min(rival[k], left)
            first = 0.5 * (first + sum(ZINN[k][after : after + min(n, len(ZINN[k]) - after)]))
        total += first
        size = rats_size(n)
        if size >= 0 and state.rats_piles[size]:
            total += RATS_MEAN[size]
    return total


def round_over_value(state: State, me: int) -> float:
    table = state.rounds[-1]
    players = table["players"]
    value = float(players[me]["total"] - players[1 - me]["total"])
    seal = table["seal"]
    if seal is not None:
        bonus = SEAL_VALUE + (MATCH_VALUE if table["match_over"] else 0.0)
        value += bonus if seal == me else -bonus
    return value


def evaluate(state: State, me: int) -> float:
    """Points ``me`` is ahead (see the module docstring)."""
    if state.phase != PLAY:
        return round_over_value(state, me)
    other = 1 - me
    won = sum(state.zinn_won[me]) + sum(state.rats_won[me]) - sum(state.zinn_won[other]) - sum(state.rats_won[other])
    share = HAND_SHARE_MIN + (HAND_SHARE_MAX - HAND_SHARE_MIN) * min(1.0, len(state.deck) / DECK_THICK)
    hands = share * (hand_value(state, me) - hand_value(state, other))
    mine, theirs = state.hands[me], state.hands[other]
    stall = 0.0
    if mine[HORSE] != theirs[HORSE]:
        stall = STALL_SHARE * STALLMARKE if mine[HORSE] > theirs[HORSE] else -STALL_SHARE * STALLMARKE
    full = 0.0
    if sum(mine[:GOODS]) >= HAND_LIMIT:
        full -= FULL_HAND_COST
    if sum(theirs[:GOODS]) >= HAND_LIMIT:
        full += FULL_HAND_COST
    return won + hands + stall + full
