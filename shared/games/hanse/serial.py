"""Full state ↔ JSON (server side only: it contains the hidden deck, hands and Ratsmarken).

The JSON object has one key per :class:`~.state.State` field, tuples as lists; the
history entries are ``[round, seat, text, drawn, rats]``.  ``from_json`` checks the
shape and the card totals and raises :class:`BadNotation` on anything malformed.
"""

from __future__ import annotations

import copy
from typing import Any

from shared.games.base import BadNotation
from shared.games.hanse.cards import CARD_COUNTS, GOODS, HORSE, KINDS, RATS, ZINN, rats_size_of_value
from shared.games.hanse.state import State

FORMAT = "hanse/1"


def to_json(state: State) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "first": state.first,
        "seals_to_win": state.seals_to_win,
        "seed": state.seed,
        "round_no": state.round_no,
        "phase": state.phase,
        "turn": state.turn,
        "starter": state.starter,
        "market": list(state.market),
        "hands": [list(h) for h in state.hands],
        "known": [list(k) for k in state.known],
        "deck": list(state.deck),
        "zinn_left": list(state.zinn_left),
        "rats_piles": [list(p) for p in state.rats_piles],
        "zinn_won": [list(z) for z in state.zinn_won],
        "rats_won": [list(r) for r in state.rats_won],
        "discard": list(state.discard),
        "seals": list(state.seals),
        "rounds": copy.deepcopy(list(state.rounds)),
        "history": [[r, s, t, list(d), v] for r, s, t, d, v in state.history],
        "reshuffles": [list(x) for x in state.reshuffles],
    }


def _ints(value: Any, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or any(type(v) is not int for v in value):
        raise ValueError("expected a list of ints")
    if length is not None and len(value) != length:
        raise ValueError(f"expected {length} entries")
    return tuple(value)


def _pair(value: Any, length: int | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("expected two entries")
    return (_ints(value[0], length), _ints(value[1], length))


def _int(value: Any, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"expected an int in {low}..{high}")
    return value


def _seed(value: Any) -> int:
    if type(value) is not int:
        raise ValueError("a seed is an integer")
    return value


def check_state(state: State) -> None:
    """Raise ValueError unless the state's cards and tokens add up."""
    total = [state.market[k] + state.hands[0][k] + state.hands[1][k] for k in range(KINDS)]
    for card in state.deck:
        if not 0 <= card < KINDS:
            raise ValueError("unknown card in the deck")
        total[card] += 1
    for k in range(GOODS):
        total[k] += state.discard[k]
    if any(n < 0 for h in state.hands for n in h) or any(n < 0 for n in state.market):
        raise ValueError("negative count")
    if tuple(total) != CARD_COUNTS:
        raise ValueError("cards do not add up to the 55 of the game")
    for p in (0, 1):
        if sum(state.hands[p][:GOODS]) > 7:
            raise ValueError("more than 7 goods in a hand")
        if any(state.known[p][k] > state.hands[p][k] or state.known[p][k] < 0 for k in range(GOODS)):
            raise ValueError("gemerkte Karten not in the hand")
    for k in range(GOODS):
        if not 0 <= state.zinn_left[k] <= len(ZINN[k]):
            raise ValueError("Zinnmarken count out of range")
    for size in range(3):
        pool = list(RATS[size])
        won = [v for p in (0, 1) for v in state.rats_won[p] if rats_size_of_value(v) == size]
        for value in list(state.rats_piles[size]) + won:
            if value not in pool:
                raise ValueError("Ratsmarken do not add up")
            pool.remove(value)


def from_json(data: dict[str, Any]) -> State:
    try:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not a Battlehanse state")
        state = State.__new__(State)
        state.first = _int(data["first"], 0, 1)
        state.seals_to_win = _int(data["seals_to_win"], 1, 3)
        state.seed = _seed(data["seed"])
        state.round_no = _int(data["round_no"], 1, 10**6)
        state.phase = _int(data["phase"], 0, 2)
        state.turn = _int(data["turn"], 0, 1)
        state.starter = _int(data["starter"], 0, 1)
        state.market = _ints(data["market"], KINDS)
        state.hands = _pair(data["hands"], KINDS)
        state.known = _pair(data["known"], GOODS)
        state.deck = _ints(data["deck"])
        state.zinn_left = _ints(data["zinn_left"], GOODS)
        piles = data["rats_piles"]
        if not isinstance(piles, list) or len(piles) != 3:
            raise ValueError("expected three Ratsmarken piles")
        state.rats_piles = (_ints(piles[0]), _ints(piles[1]), _ints(piles[2]))
        state.zinn_won = _pair(data["zinn_won"])
        state.rats_won = _pair(data["rats_won"])
        state.discard = _ints(data["discard"], GOODS)
        seals = _ints(data["seals"], 2)
        state.seals = (seals[0], seals[1])
        rounds = data["rounds"]
        if not isinstance(rounds, list) or any(not isinstance(r, dict) for r in rounds):
            raise ValueError("rounds must be a list of objects")
        state.rounds = tuple(copy.deepcopy(rounds))
        history = []
        for entry in data["history"]:
            round_no, seat, text, drawn, rats = entry
            if not isinstance(text, str):
                raise ValueError("move text must be a string")
            history.append((_int(round_no, 1, 10**6), _int(seat, 0, 1), text, _ints(drawn), _int(rats, -1, 10)))
        state.history = tuple(history)
        state.reshuffles = tuple((_int(a, 0, 10**9), _seed(b)) for a, b in data["reshuffles"])
        if state.hands[0][HORSE] < 0 or state.hands[1][HORSE] < 0:
            raise ValueError("negative stable")
        check_state(state)
        return state
    except (KeyError, TypeError, ValueError) as exc:
        raise BadNotation(
            "bad_state", f"Ungültiger Spielstand (JSON): {exc}", f"Invalid game state (JSON): {exc}"
        ) from None
