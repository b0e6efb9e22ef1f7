"""The Handelskasten: what a selection of cards on the table would do, in words.

A client sends what the player has tapped — cards in the market, cards on the hand,
Packpferde in the stable — and gets back whether that is a move, its text for
:meth:`parse_move`, and a sentence in German and English ("Du nimmst 2 Gold und gibst
Tuch + 1 Packpferd", "Du verkaufst 3 Tuch: 5 + 3 + 3 = 11 Punkte und eine Ratsmarke (1–3)")
or the reason why it is not allowed.  Interpretation of a selection:

- one market good, nothing else: take it; any market Packpferd: take all Packpferde;
- market goods plus hand cards and/or stable horses: an exchange;
- hand cards of one kind, nothing else: a sale.
"""

from __future__ import annotations

from typing import Any

from shared.games.base import GameError
from shared.games.hanse.cards import GOODS, HORSE, KINDS, NAMES_DE, NAMES_EN, RATS_MEAN
from shared.games.hanse.checks import check_parsed
from shared.games.hanse.effects import effect, sale_tokens
from shared.games.hanse.notation import WORD_TO_KIND, format_move
from shared.games.hanse.state import State

_RANGES = {3: "1–3", 4: "4–6", 5: "8–10"}


def _kinds(names: list[str]) -> list[int]:
    counts = [0] * KINDS
    for name in names:
        key = str(name).strip().lower()
        if key not in WORD_TO_KIND:
            raise GameError("bad_card", f"Unbekannte Karte: {name!r}", f"Unknown card: {name!r}")
        counts[WORD_TO_KIND[key]] += 1
    return counts


def _list(counts: list[int] | tuple[int, ...], horses: int, lang: str) -> str:
    names = NAMES_DE if lang == "de" else NAMES_EN
    parts = [f"{counts[k]} {names[k]}" if counts[k] > 1 else names[k] for k in range(GOODS) if counts[k]]
    if horses:
        word = (
            ("Packpferd" if horses == 1 else "Packpferde")
            if lang == "de"
            else ("pack horse" if horses == 1 else "pack horses")
        )
        parts.append(f"{horses} {word}")
    return " + ".join(parts)


def sale_value(state: State, kind: int, n: int) -> dict[str, Any]:
    """What selling ``n`` of ``kind`` brings now: Zinnmarken values, their sum, the Ratsmarke pile and its mean."""
    values, rats = sale_tokens(state, kind, n)
    return {
        "zinn": values,
        "zinn_sum": sum(values),
        "ratsmarke": rats,
        "rats_mean": RATS_MEAN[rats - 3] if rats else 0,
    }


def _not_ok(de: str, en: str, code: str = "incomplete") -> dict[str, Any]:
    return {"ok": False, "code": code, "text_de": de, "text_en": en, "move_text": None, "effect": None}


def describe_selection(state: State, seat: int, market: list[str], hand: list[str], stable: int = 0) -> dict[str, Any]:
    """``{ok, code, text_de, text_en, move_text, effect}`` for the cards a player has selected."""
    try:
        mk = _kinds(market)
        hd = _kinds(hand)
    except GameError as exc:
        return _not_ok(exc.de, exc.en, exc.code)
    if hd[HORSE]:
        stable += hd[HORSE]
        hd[HORSE] = 0
    if not any(mk) and not any(hd) and not stable:
        return _not_ok(
            "Tippe Karten im Markt, auf deiner Hand oder in deinem Stall an.",
            "Tap cards in the market, in your hand or in your stable.",
        )
    if mk[HORSE] and (sum(mk) > mk[HORSE] or any(hd) or stable):
        return _not_ok(
            "Packpferde aus dem Markt holst du nur alle zusammen und ohne andere Karten.",
            "Pack horses are taken from the market all together and on their own.",
            "take_horse",
        )
    if mk[HORSE]:
        parsed: tuple = ("horses",)
    elif sum(mk) == 1 and not any(hd) and not stable:
        parsed = ("take", mk.index(1))
    elif any(mk):
        if not any(hd) and not stable:
            return _not_ok(
                f"Für einen Tausch gibst du {sum(mk)} Karten zurück: wähle Waren auf der Hand oder Packpferde im Stall.",
                f"To exchange, give back {sum(mk)} cards: select goods in your hand or horses in your stable.",
            )
        parsed = ("exchange", tuple(mk), tuple(hd[:GOODS]) + (stable,))
    elif stable:
        return _not_ok(
            "Packpferde aus dem Stall gibst du nur beim Tausch ab: wähle dazu Waren im Markt.",
            "Horses leave your stable only in an exchange: select goods in the market too.",
        )
    else:
        kinds = [k for k in range(GOODS) if hd[k]]
        if len(kinds) > 1:
            return _not_ok(
                "Verkaufen kannst du nur eine Warensorte auf einmal.",
                "You can sell only one kind of good at a time.",
                "sell_mixed",
            )
        parsed = ("sell", kinds[0], hd[kinds[0]])
    try:
        m = check_parsed(state, parsed, seat)
    except GameError as exc:
        return _not_ok(exc.de, exc.en, exc.code)
    eff = effect(state, m)
    if parsed[0] == "horses":
        n = state.market[HORSE]
        if n == 1:
            de, en = "Du holst das Packpferd in deinen Stall.", "You take the pack horse into your stable."
        else:
            de, en = f"Du holst alle {n} Packpferde in deinen Stall.", f"You take all {n} pack horses into your stable."
    elif parsed[0] == "take":
        k = parsed[1]
        de, en = f"Du nimmst {NAMES_DE[k]}.", f"You take {NAMES_EN[k]}."
    elif parsed[0] == "exchange":
        given = parsed[2]
        de = f"Du nimmst {_list(mk, 0, 'de')} und gibst {_list(given, given[HORSE], 'de')}."
        en = f"You take {_list(mk, 0, 'en')} and give {_list(given, given[HORSE], 'en')}."
    else:
        k, n = parsed[1], parsed[2]
        value = sale_value(state, k, n)
        sum_text = " + ".join(str(v) for v in value["zinn"]) or "0"
        one = value["zinn_sum"] == 1  # "1 Punkt", "1 point"
        de = f"Du verkaufst {n} {NAMES_DE[k]}: {sum_text} = {value['zinn_sum']} {'Punkt' if one else 'Punkte'}"
        en = f"You sell {n} {NAMES_EN[k]}: {sum_text} = {value['zinn_sum']} {'point' if one else 'points'}"
        if value["ratsmarke"]:
            de += f" und eine Ratsmarke ({_RANGES[value['ratsmarke']]})"
            en += f" and a Ratsmarke ({_RANGES[value['ratsmarke']]})"
        de += "."
        en += "."
    return {"ok": True, "code": "ok", "text_de": de, "text_en": en, "move_text": format_move(m), "effect": eff}
