"""What a move visibly changes, as JSON for clients (preview and highlighting).

``effect(state, m)`` is a dict with the keys

- ``type``: ``nimm`` | ``pferde`` | ``tausch`` | ``verkauf`` | ``weiter``
- ``market_out`` / ``market_in``: card names leaving the market / laid into it from hand or stable
- ``hand_out`` / ``hand_in``: goods leaving / entering the mover's hand
- ``stable``: change of the mover's stable (Packpferde)
- ``refill``: how many cards will be drawn from the deck into the market (never which)
- ``zinn``: the Zinnmarken values a sale brings, top first; ``zinn_sum`` their sum
- ``ratsmarke``: for a sale earning one, the pile it comes from (3, 4 or 5 for "5+"), else None
- ``ends_round``: whether the move ends the round (three empty piles, or the deck cannot refill)

Everything here is known to the mover (and to everyone after the move), so it is safe
to send; the drawn cards themselves are not part of it.
"""

from __future__ import annotations

from typing import Any

from shared.games.hanse.cards import EMPTY_PILES_END_ROUND, GOODS, HORSE, NAMES_DE, ZINN, rats_size
from shared.games.hanse.moves import EXCHANGE, HORSES, SELL, TAKE, WEITER, decode_exchange
from shared.games.hanse.state import State


def sale_tokens(state: State, kind: int, n: int) -> tuple[list[int], int | None]:
    """The Zinnmarken values selling ``n`` of ``kind`` would bring now, and the Ratsmarke pile (3/4/5) or None."""
    left = state.zinn_left[kind]
    start = len(ZINN[kind]) - left
    values = list(ZINN[kind][start : start + min(n, left)])
    size = rats_size(n)
    rats = (3 + size) if size >= 0 and state.rats_piles[size] else None
    return values, rats


def effect(state: State, m: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "",
        "market_out": [],
        "market_in": [],
        "hand_out": [],
        "hand_in": [],
        "stable": 0,
        "refill": 0,
        "zinn": [],
        "zinn_sum": 0,
        "ratsmarke": None,
        "ends_round": False,
    }
    kind_of_move = m & 7
    if kind_of_move == WEITER:
        out["type"] = "weiter"
        return out
    deck_count = len(state.deck)
    if kind_of_move == TAKE:
        k = m >> 3
        out["type"] = "nimm"
        out["market_out"] = [NAMES_DE[k]]
        out["hand_in"] = [NAMES_DE[k]]
        out["refill"] = min(1, deck_count)
        out["ends_round"] = deck_count < 1
    elif kind_of_move == HORSES:
        n = state.market[HORSE]
        out["type"] = "pferde"
        out["market_out"] = [NAMES_DE[HORSE]] * n
        out["stable"] = n
        out["refill"] = min(n, deck_count)
        out["ends_round"] = deck_count < n
    elif kind_of_move == SELL:
        k, n = (m >> 3) & 7, m >> 6
        values, rats = sale_tokens(state, k, n)
        out["type"] = "verkauf"
        out["hand_out"] = [NAMES_DE[k]] * n
        out["zinn"] = values
        out["zinn_sum"] = sum(values)
        out["ratsmarke"] = rats
        empty_after = sum(1 for j in range(GOODS) if (state.zinn_left[j] - (len(values) if j == k else 0)) == 0)
        out["ends_round"] = bool(values) and empty_after >= EMPTY_PILES_END_ROUND
    elif kind_of_move == EXCHANGE:
        taken, given, horses = decode_exchange(m)
        out["type"] = "tausch"
        for k in range(GOODS):
            out["market_out"] += [NAMES_DE[k]] * taken[k]
            out["hand_in"] += [NAMES_DE[k]] * taken[k]
            out["hand_out"] += [NAMES_DE[k]] * given[k]
            out["market_in"] += [NAMES_DE[k]] * given[k]
        out["market_in"] += [NAMES_DE[HORSE]] * horses
        out["stable"] = -horses
    return out
