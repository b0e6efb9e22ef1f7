"""A second, deliberately plain Battlehanse rules implementation, for cross-checking.

Written from docs/rules.md alone: card names as strings, a Counter per hand, lists and
loops, no caching, no bit tricks.  It covers one round (setup comes from the engine's
JSON, because the deal is the engine's seeded shuffle) and ends it with the round's
scoring; ``("weiter",)`` is listed as the only action after a round that does not
decide the match, but not played.
"""

from __future__ import annotations

import itertools
from collections import Counter

# The engine's JSON lists counts in this kind order (documented in shared/games/hanse/cards.py).
ORDER = ["Bernstein", "Gold", "Silber", "Tuch", "Salz", "Pelz", "Packpferd"]
GOODS = ORDER[:6]
PRECIOUS = {"Bernstein", "Gold", "Silber"}
ZINN = {
    "Bernstein": [7, 7, 5, 5, 5],
    "Gold": [6, 6, 5, 5, 5],
    "Silber": [5, 5, 5, 5, 5],
    "Tuch": [5, 3, 3, 2, 2, 1, 1],
    "Salz": [5, 3, 3, 2, 2, 1, 1],
    "Pelz": [4, 3, 2, 1, 1, 1, 1, 1, 1],
}


def from_engine_json(data: dict) -> dict:
    """Reference state from the engine's full-state JSON."""
    state = {
        "market": Counter(),
        "hands": [Counter(), Counter()],
        "stables": [data["hands"][0][6], data["hands"][1][6]],
        "deck": [ORDER[c] for c in reversed(data["deck"])],  # next card first
        "zinn": {},
        "rats": {
            3: list(reversed(data["rats_piles"][0])),
            4: list(reversed(data["rats_piles"][1])),
            5: list(reversed(data["rats_piles"][2])),
        },
        "zinn_won": [list(data["zinn_won"][0]), list(data["zinn_won"][1])],
        "rats_won": [list(data["rats_won"][0]), list(data["rats_won"][1])],
        "turn": data["turn"],
        "seals": list(data["seals"]),
        "seals_to_win": data["seals_to_win"],
        "ended": data["phase"] != 0,
        "table": None,
    }
    for i, name in enumerate(ORDER):
        if data["market"][i]:
            state["market"][name] = data["market"][i]
    for p in (0, 1):
        for i, name in enumerate(GOODS):
            if data["hands"][p][i]:
                state["hands"][p][name] = data["hands"][p][i]
    for i, name in enumerate(GOODS):
        left = data["zinn_left"][i]
        state["zinn"][name] = ZINN[name][len(ZINN[name]) - left :]
    return state


def copy_state(state: dict) -> dict:
    return {
        "market": Counter(state["market"]),
        "hands": [Counter(state["hands"][0]), Counter(state["hands"][1])],
        "stables": list(state["stables"]),
        "deck": list(state["deck"]),
        "zinn": {k: list(v) for k, v in state["zinn"].items()},
        "rats": {k: list(v) for k, v in state["rats"].items()},
        "zinn_won": [list(x) for x in state["zinn_won"]],
        "rats_won": [list(x) for x in state["rats_won"]],
        "turn": state["turn"],
        "seals": list(state["seals"]),
        "seals_to_win": state["seals_to_win"],
        "ended": state["ended"],
        "table": state["table"],
    }


def hand_size(hand: Counter) -> int:
    return sum(hand.values())


def sub_multisets(cards: list[str], size: int) -> set[tuple[str, ...]]:
    return {tuple(sorted(combo)) for combo in itertools.combinations(sorted(cards), size)}


def actions(state: dict) -> list[tuple]:
    """Every legal action, counted as docs/rules.md counts them."""
    if state["ended"]:
        if max(state["seals"]) >= state["seals_to_win"]:
            return []
        return [("weiter",)]
    p = state["turn"]
    hand = state["hands"][p]
    stable = state["stables"][p]
    market = state["market"]
    result = []
    if market["Packpferd"] > 0:
        result.append(("horses",))
    if hand_size(hand) < 7:
        for good in GOODS:
            if market[good] > 0:
                result.append(("take", good))
    market_goods = [g for g in GOODS for _ in range(market[g])]
    hand_goods = [g for g in GOODS for _ in range(hand[g])]
    seen = set()
    for size in range(2, len(market_goods) + 1):
        for taken in sub_multisets(market_goods, size):
            for horses in range(0, stable + 1):
                give_goods = size - horses
                if give_goods < 0:
                    continue
                allowed = [g for g in hand_goods if g not in taken]
                for given in sub_multisets(allowed, give_goods):
                    if hand_size(hand) + len(taken) - len(given) > 7:
                        continue
                    action = ("exchange", taken, given, horses)
                    if action not in seen:
                        seen.add(action)
                        result.append(action)
    for good in GOODS:
        smallest = 2 if good in PRECIOUS else 1
        for n in range(smallest, hand[good] + 1):
            result.append(("sell", good, n))
    return result


def effect(state: dict, action: tuple) -> dict:
    """The effect dict in the engine's documented format (shared/games/hanse/effects.py)."""
    out = {
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
    deck = len(state["deck"])
    if action[0] == "weiter":
        out["type"] = "weiter"
    elif action[0] == "take":
        out.update(type="nimm", market_out=[action[1]], hand_in=[action[1]], refill=min(1, deck), ends_round=deck == 0)
    elif action[0] == "horses":
        n = state["market"]["Packpferd"]
        out.update(type="pferde", market_out=["Packpferd"] * n, stable=n, refill=min(n, deck), ends_round=deck < n)
    elif action[0] == "exchange":
        _, taken, given, horses = action
        out.update(
            type="tausch",
            market_out=sorted(taken, key=ORDER.index),
            hand_in=sorted(taken, key=ORDER.index),
            hand_out=sorted(given, key=ORDER.index),
            market_in=sorted(given, key=ORDER.index) + ["Packpferd"] * horses,
            stable=-horses,
        )
    else:
        _, good, n = action
        tokens = state["zinn"][good][:n]
        bonus = 3 if n == 3 else 4 if n == 4 else 5 if n >= 5 else None
        if bonus is not None and not state["rats"][bonus]:
            bonus = None
        empty = [g for g in GOODS if not state["zinn"][g] or (g == good and len(state["zinn"][g]) <= n)]
        out.update(
            type="verkauf",
            hand_out=[good] * n,
            zinn=list(tokens),
            zinn_sum=sum(tokens),
            ratsmarke=bonus,
            ends_round=bool(tokens) and len(empty) >= 3,
        )
    return out


def _refill(state: dict) -> None:
    while sum(state["market"].values()) < 5 and state["deck"]:
        state["market"][state["deck"].pop(0)] += 1
    if sum(state["market"].values()) < 5:
        _end_round(state)


def _end_round(state: dict) -> None:
    state["ended"] = True
    totals = []
    for p in (0, 1):
        total = sum(state["zinn_won"][p]) + sum(state["rats_won"][p])
        if state["stables"][p] > state["stables"][1 - p]:
            total += 5
        totals.append(total)
    rats_counts = [len(state["rats_won"][p]) for p in (0, 1)]
    zinn_counts = [len(state["zinn_won"][p]) for p in (0, 1)]
    seal = None
    for a, b in (totals, rats_counts, zinn_counts):
        if a != b:
            seal = 0 if a > b else 1
            break
    if seal is not None:
        state["seals"][seal] += 1
    state["table"] = {"totals": totals, "seal": seal}


def apply(state: dict, action: tuple) -> dict:
    """A new reference state after ``action`` (the input is left alone)."""
    new = copy_state(state)
    p = new["turn"]
    hand = new["hands"][p]
    if action[0] == "take":
        new["market"][action[1]] -= 1
        hand[action[1]] += 1
        _refill(new)
    elif action[0] == "horses":
        new["stables"][p] += new["market"]["Packpferd"]
        new["market"]["Packpferd"] = 0
        _refill(new)
    elif action[0] == "exchange":
        _, taken, given, horses = action
        for g in taken:
            new["market"][g] -= 1
            hand[g] += 1
        for g in given:
            hand[g] -= 1
            new["market"][g] += 1
        new["stables"][p] -= horses
        new["market"]["Packpferd"] += horses
    elif action[0] == "sell":
        _, good, n = action
        hand[good] -= n
        for _ in range(n):
            if new["zinn"][good]:
                new["zinn_won"][p].append(new["zinn"][good].pop(0))
        bonus = 3 if n == 3 else 4 if n == 4 else 5 if n >= 5 else None
        if bonus is not None and new["rats"][bonus]:
            new["rats_won"][p].append(new["rats"][bonus].pop(0))
        if sum(1 for g in GOODS if not new["zinn"][g]) >= 3:
            _end_round(new)
    else:
        raise ValueError("the reference does not deal new rounds")
    if not new["ended"]:
        new["turn"] = 1 - p
    return new


def perft(state: dict, depth: int) -> int:
    if depth == 0:
        return 1
    moves = actions(state)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(state, a), depth - 1) for a in moves)


def comparable(state: dict) -> dict:
    """What the engine's JSON must agree with after the same moves."""
    return {
        "market": {g: n for g, n in state["market"].items() if n},
        "hands": [{g: n for g, n in h.items() if n} for h in state["hands"]],
        "stables": state["stables"],
        "deck": state["deck"],
        "zinn": state["zinn"],
        "rats": state["rats"],
        "zinn_won": state["zinn_won"],
        "rats_won": state["rats_won"],
        "seals": state["seals"],
        "ended": state["ended"],
    }
