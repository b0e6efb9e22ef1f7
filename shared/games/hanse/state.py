"""The Battlehanse state: one immutable record of plain tuples and ints.

A :class:`State` is never changed after it is built; every move builds a new one
(:meth:`State.copy` then field assignment on the fresh copy, before anyone else sees it).

Fields (all JSON-able after tuple → list):

- ``first``, ``seals_to_win``: the options.
- ``seed``: the match seed; round *r* is dealt from ``random.Random(f"hanse:{seed}:{r}")``.
- ``round_no`` (1-based), ``phase`` (:data:`PLAY`, :data:`PAUSE` = round over and
  the Rundentafel is showing until ``weiter``, :data:`OVER`), ``turn`` (seat to move;
  during the pause: the seat that begins the next round), ``starter`` (who began this round).
- ``market``: 7 counts per kind (the market's order carries no meaning).
- ``hands``: per seat 7 counts; index 6 (:data:`~.cards.HORSE`) is the stable.
- ``known``: per seat 6 counts, the *gemerkte Karten* (goods the opponent saw it take).
- ``deck``: the draw pile; the next card is ``deck[-1]``.
- ``zinn_left``: per good how many Zinnmarken remain (values are fixed, :data:`~.cards.ZINN`).
- ``rats_piles``: three tuples of the remaining Ratsmarken; the top is the last element.
- ``zinn_won``, ``rats_won``: per seat the token values taken this round, in order.
- ``discard``: goods sold this round, per kind (public).
- ``seals``: Ratssiegel per seat; ``rounds``: the finished rounds' Rundentafeln (dicts).
- ``history``: one entry per move, ``(round_no, seat, text, drawn, rats)`` with the
  cards drawn into the market (public) and the Ratsmarke value taken (-1 for none).
- ``reshuffles``: ``(ply, seed)`` for each undo-reshuffle, so that a record replays.
"""

from __future__ import annotations

import random

from shared.games.hanse.cards import (
    CARD_COUNTS,
    GOODS,
    HAND_AT_SETUP,
    HORSE,
    KINDS,
    MARKET_HORSES_AT_SETUP,
    MARKET_SIZE,
    RATS,
    ZINN,
)

_new_state = object.__new__

PLAY = 0
PAUSE = 1
OVER = 2
PHASE_NAMES = ("spiel", "pause", "ende")

_FIELDS = (
    "first",
    "seals_to_win",
    "seed",
    "round_no",
    "phase",
    "turn",
    "starter",
    "market",
    "hands",
    "known",
    "deck",
    "zinn_left",
    "rats_piles",
    "zinn_won",
    "rats_won",
    "discard",
    "seals",
    "rounds",
    "history",
    "reshuffles",
)


class State:
    """One position of a match.  Treat as immutable."""

    __slots__ = _FIELDS

    first: int
    seals_to_win: int
    seed: int
    round_no: int
    phase: int
    turn: int
    starter: int
    market: tuple[int, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    known: tuple[tuple[int, ...], tuple[int, ...]]
    deck: tuple[int, ...]
    zinn_left: tuple[int, ...]
    rats_piles: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    zinn_won: tuple[tuple[int, ...], tuple[int, ...]]
    rats_won: tuple[tuple[int, ...], tuple[int, ...]]
    discard: tuple[int, ...]
    seals: tuple[int, int]
    rounds: tuple[dict, ...]
    history: tuple[tuple, ...]
    reshuffles: tuple[tuple[int, int], ...]

    def copy(self) -> State:
        # Written out field by field: this is on the search's hot path.
        new = _new_state(State)
        new.first = self.first
        new.seals_to_win = self.seals_to_win
        new.seed = self.seed
        new.round_no = self.round_no
        new.phase = self.phase
        new.turn = self.turn
        new.starter = self.starter
        new.market = self.market
        new.hands = self.hands
        new.known = self.known
        new.deck = self.deck
        new.zinn_left = self.zinn_left
        new.rats_piles = self.rats_piles
        new.zinn_won = self.zinn_won
        new.rats_won = self.rats_won
        new.discard = self.discard
        new.seals = self.seals
        new.rounds = self.rounds
        new.history = self.history
        new.reshuffles = self.reshuffles
        return new

    def key(self) -> tuple:
        """Everything that decides the future of play (not history), for equality tests."""
        return tuple(getattr(self, name) for name in _FIELDS if name not in ("history", "reshuffles", "rounds"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and all(getattr(self, n) == getattr(other, n) for n in _FIELDS)

    def __hash__(self) -> int:
        return hash(self.key())


def round_rng(seed: int, round_no: int) -> random.Random:
    # A string seed is hashed with SHA-512 by random.Random: stable across runs and platforms.
    return random.Random(f"hanse:{seed}:{round_no}")


def deal_round(state: State, round_no: int, starter: int) -> State:
    """A copy of ``state`` with round ``round_no`` freshly dealt (seals, rounds, history kept)."""
    rng = round_rng(state.seed, round_no)
    deck: list[int] = []
    for kind in range(KINDS):
        count = CARD_COUNTS[kind] - (MARKET_HORSES_AT_SETUP if kind == HORSE else 0)
        deck.extend([kind] * count)
    rng.shuffle(deck)
    piles = []
    for pile in RATS:
        values = list(pile)
        rng.shuffle(values)
        piles.append(tuple(values))
    market = [0] * KINDS
    market[HORSE] = MARKET_HORSES_AT_SETUP
    for _ in range(MARKET_SIZE - MARKET_HORSES_AT_SETUP):
        market[deck.pop()] += 1
    hands = []
    for _seat in (0, 1):
        hand = [0] * KINDS
        for _ in range(HAND_AT_SETUP):
            hand[deck.pop()] += 1  # a horse lands at index 6: the stable
        hands.append(tuple(hand))
    new = state.copy()
    new.round_no = round_no
    new.phase = PLAY
    new.turn = starter
    new.starter = starter
    new.market = tuple(market)
    new.hands = (hands[0], hands[1])
    new.known = ((0,) * GOODS, (0,) * GOODS)
    new.deck = tuple(deck)
    new.zinn_left = tuple(len(p) for p in ZINN)
    new.rats_piles = (piles[0], piles[1], piles[2])
    new.zinn_won = ((), ())
    new.rats_won = ((), ())
    new.discard = (0,) * GOODS
    return new


def new_match(first: int, seals_to_win: int, seed: int) -> State:
    """Round 1 of a fresh match."""
    blank = State.__new__(State)
    for name in _FIELDS:  # every slot set; deal_round fills the round's fields
        object.__setattr__(blank, name, None)
    blank.first = first
    blank.seals_to_win = seals_to_win
    blank.seed = seed
    blank.seals = (0, 0)
    blank.rounds = ()
    blank.history = ()
    blank.reshuffles = ()
    return deal_round(blank, 1, first)
