"""``view(state, seat)``: the only door through which a state leaves toward a client.

What a seat may know (docs/rules.md): its own hand (each card flagged ``known`` when the
opponent saw it taken — the "eye") and stable; of the opponent the stable size, the
hand size and its *gemerkte Karten*; the number of Ratsmarken each side holds and the
pile each came from (sales are public), their values only for the owner until the
round ends; the market, the deck *count*, the remaining Zinnmarken (printed values),
the sold goods, seals and finished Rundentafeln.  A spectator (``seat=None``) sees
what both sides see.  After the match: everything, including the deck order and the
Ratsmarken left in the piles (``"hidden"``).

The move list is public (what a player takes, gives and sells is seen by all, and
the cards drawn into the market lie open), except the value of a Ratsmarke, which
only its owner sees until the round ends.  A new round's deal is not in the move list.

Shape (all lists of card names are in kind order)::

    {"game", "seat", "options", "round", "phase", "to_move", "turn", "starter",
     "market", "deck_count", "zinn_piles": [{"good", "left": [values]}],
     "rats_left": [n3, n4, n5], "discard": {good: n}, "seals", "seals_to_win",
     "players": [{"seat", "hand_count", "stable", "known": [goods],
                  "hand": [{"card", "known"}] | None, "zinn": [values],
                  "rats_count", "rats_sizes": [3|4|5], "rats": [values] | None}] ,
     "legal_moves": [{"text", "effect"}], "moves": [{"round", "seat", "text",
     "drawn": [cards], "ratsmarke": 3|4|5|None, "rats": value|None}],
     "rounds": [Rundentafel], "outcome": dict|None, "hidden": dict|None}
"""

from __future__ import annotations

import copy
from typing import Any

from shared.games.base import Seat
from shared.games.hanse.cards import GOODS, HORSE, NAMES_DE, ZINN, cards_list, rats_size_of_value
from shared.games.hanse.effects import effect
from shared.games.hanse.moves import legal
from shared.games.hanse.notation import format_move
from shared.games.hanse.state import OVER, PAUSE, PHASE_NAMES, PLAY, State


def _hand_cards(hand: tuple[int, ...], known: tuple[int, ...]) -> list[dict[str, Any]]:
    cards = []
    for k in range(GOODS):
        for i in range(hand[k]):
            cards.append({"card": NAMES_DE[k], "known": i < known[k]})
    return cards


def _rats_visible(state: State, owner: int, seat: Seat, round_no: int, sealed: bool) -> bool:
    if sealed and state.phase == OVER:
        # The match over but its deal sealed: only what a round's end showed in play.
        return owner == seat or any(table["round"] == round_no for table in state.rounds)
    return state.phase == OVER or owner == seat or round_no < state.round_no or state.phase != PLAY


def build_view(state: State, seat: Seat, outcome: dict[str, Any] | None, sealed: bool = False,
               open_all: bool = False) -> dict[str, Any]:
    """The view of ``seat``; ``sealed``: after the end too only what play showed (the
    engine's ``sealed_view``); ``open_all``: a finished match's replay, both hands and every
    Ratsmarke of this moment open."""
    over = state.phase == OVER and not sealed
    players = []
    for p in (0, 1):
        hand = state.hands[p]
        players.append(
            {
                "seat": p,
                "hand_count": sum(hand[:GOODS]),
                "stable": hand[HORSE],
                "known": cards_list(state.known[p]),
                "hand": _hand_cards(hand, state.known[p]) if (over or open_all or p == seat) else None,
                "zinn": list(state.zinn_won[p]),
                "rats_count": len(state.rats_won[p]),
                "rats_sizes": [3 + rats_size_of_value(v) for v in state.rats_won[p]],
                "rats": list(state.rats_won[p]) if open_all or _rats_visible(state, p, seat, state.round_no, sealed) else None,
            }
        )
    moves = []
    for round_no, mover, text, drawn, rats in state.history:
        moves.append(
            {
                "round": round_no,
                "seat": mover,
                "text": text,
                "drawn": [NAMES_DE[c] for c in drawn],
                "ratsmarke": 3 + rats_size_of_value(rats) if rats >= 0 else None,
                "rats": rats if rats >= 0 and (open_all or _rats_visible(state, mover, seat, round_no, sealed)) else None,
            }
        )
    legal_moves: list[dict[str, Any]] = []
    if seat is not None and (state.phase == PAUSE or (state.phase == PLAY and state.turn == seat)):
        legal_moves = [{"text": format_move(m), "effect": effect(state, m)} for m in legal(state)]
    hidden = None
    if over:
        hidden = {
            "deck": [NAMES_DE[c] for c in reversed(state.deck)],
            "rats_piles": [list(reversed(pile)) for pile in state.rats_piles],
        }
    return {
        "game": "hanse",
        "seat": seat,
        "options": {"first": state.first, "seals_to_win": state.seals_to_win},
        "round": state.round_no,
        "phase": PHASE_NAMES[state.phase],
        "to_move": [state.turn] if state.phase == PLAY else [],
        "turn": state.turn,
        "starter": state.starter,
        "market": cards_list(state.market),
        "deck_count": len(state.deck),
        "zinn_piles": [
            {"good": NAMES_DE[k], "left": list(ZINN[k][len(ZINN[k]) - state.zinn_left[k] :])} for k in range(GOODS)
        ],
        "rats_left": [len(pile) for pile in state.rats_piles],
        "discard": {NAMES_DE[k]: state.discard[k] for k in range(GOODS)},
        "seals": list(state.seals),
        "seals_to_win": state.seals_to_win,
        "players": players,
        "legal_moves": legal_moves,
        "moves": moves,
        "rounds": copy.deepcopy(list(state.rounds)),
        "outcome": outcome,
        "hidden": hidden,
    }
