"""Move notation: short German words.

Canonical forms (what :func:`format_move` writes)::

    nimm Gold                          take one good from the market
    pferde                             take all Packpferde from the market
    tausch 2 Gold+Tuch gegen Salz+2 Pferde
                                       take 2 Gold and 1 Tuch, give 1 Salz and 2 Packpferde
    verkauf 3 Tuch                     sell 3 Tuch
    weiter                             after a round: acknowledge the Rundentafel, deal the next round

In an exchange each side lists items joined by ``+``; an item is ``[N ]Ware`` (the count
is written when above 1), goods in the order Bernstein, Gold, Silber, Tuch, Salz, Pelz,
then ``N Pferd``/``N Pferde`` last.  :func:`parse_move_text` is forgiving: any case,
any order, repeated items add up (``Gold+Gold``), ``2x Gold``, ``,`` or ``und`` as
separators, ``Packpferd(e)``, and English words (``take gold``, ``horses``,
``trade 2 gold for cloth+1 horse``, ``sell 3 cloth``, ``continue``).
"""

from __future__ import annotations

import re

from shared.games.base import BadNotation
from shared.games.hanse.cards import GOODS, HORSE, NAMES_DE
from shared.games.hanse.moves import EXCHANGE, HORSES, SELL, TAKE, WEITER, decode_exchange

_KIND_WORDS = {
    0: ("bernstein", "bernsteine", "amber", "b"),
    1: ("gold", "g"),
    2: ("silber", "silver", "s"),
    3: ("tuch", "tuche", "tücher", "tuecher", "cloth", "t"),
    4: ("salz", "salt", "z"),
    5: ("pelz", "pelze", "fur", "furs", "p"),
    6: ("pferd", "pferde", "packpferd", "packpferde", "horse", "horses", "h"),
}
WORD_TO_KIND = {word: kind for kind, words in _KIND_WORDS.items() for word in words}

_TAKE_WORDS = ("nimm", "nehme", "nehmen", "take")
_HORSE_WORDS = ("pferde", "packpferde", "horses", "alle pferde", "nimm pferde", "nimm alle pferde", "take horses")
_EXCHANGE_WORDS = ("tausch", "tausche", "tauschen", "exchange", "trade", "swap")
_SELL_WORDS = ("verkauf", "verkaufe", "verkaufen", "sell")
_WEITER_WORDS = ("weiter", "continue", "next")
_FOR_WORDS = (" gegen ", " for ")


def _bad(text: str) -> BadNotation:
    return BadNotation(
        "bad_notation",
        f"Unverständlicher Zug: {text!r} (z. B. „nimm Gold“, „pferde“, „tausch 2 Gold gegen Tuch+1 Pferd“, „verkauf 3 Tuch“)",
        f"Unreadable move: {text!r} (e.g. 'nimm Gold', 'pferde', 'tausch 2 Gold gegen Tuch+1 Pferd', 'verkauf 3 Tuch')",
    )


def _item_list(text: str) -> list[int]:
    """``2 Gold+Tuch+1 Pferd`` → counts per kind (7 entries); raises ValueError."""
    counts = [0] * 7
    parts = [p.strip() for p in re.split(r"\+|,|\bund\b|\band\b", text)]
    if not parts or any(not p for p in parts):
        raise ValueError(text)
    for part in parts:
        match = re.fullmatch(r"(?:(\d+)\s*[x×]?\s*)?([a-zäöü]+)", part)
        if not match or match.group(2) not in WORD_TO_KIND:
            raise ValueError(part)
        n = int(match.group(1)) if match.group(1) else 1
        if n < 1 or n > 20:
            raise ValueError(part)
        counts[WORD_TO_KIND[match.group(2)]] += n
    return counts


def parse_move_text(text: str) -> tuple:
    """Text → a parsed move, not yet checked against a position.

    Returns one of ``("take", kind)``, ``("horses",)``, ``("sell", kind, n)``,
    ``("exchange", taken7, given7)`` (7 counts each, index 6 = Packpferde),
    ``("weiter",)``.  Raises :class:`BadNotation`.
    """
    if not isinstance(text, str):
        raise _bad(repr(text))
    t = " ".join(text.strip().lower().split())
    if t in _HORSE_WORDS:
        return ("horses",)
    if t in _WEITER_WORDS:
        return ("weiter",)
    verb, _, rest = t.partition(" ")
    try:
        if verb in _TAKE_WORDS and rest:
            counts = _item_list(rest)
            if sum(counts) != 1:
                if counts[HORSE] == sum(counts):
                    return ("horses",)
                raise ValueError(rest)
            return ("take", counts.index(1))
        if verb in _SELL_WORDS and rest:
            counts = _item_list(rest)
            kinds = [k for k in range(7) if counts[k]]
            if len(kinds) != 1:
                raise ValueError(rest)
            return ("sell", kinds[0], counts[kinds[0]])
        if verb in _EXCHANGE_WORDS and rest:
            for word in _FOR_WORDS:
                if word in f" {rest} ":
                    left, _, right = f" {rest} ".partition(word)
                    return ("exchange", tuple(_item_list(left.strip())), tuple(_item_list(right.strip())))
            raise ValueError(rest)
    except ValueError:
        raise _bad(text) from None
    raise _bad(text)


def _items(counts: tuple[int, ...], horses: int) -> str:
    parts = []
    for k in range(GOODS):
        if counts[k]:
            parts.append(f"{counts[k]} {NAMES_DE[k]}" if counts[k] > 1 else NAMES_DE[k])
    if horses:
        parts.append(f"{horses} Pferd" if horses == 1 else f"{horses} Pferde")
    return "+".join(parts)


def format_move(m: int) -> str:
    """Move int → canonical text."""
    kind_of_move = m & 7
    if kind_of_move == TAKE:
        return f"nimm {NAMES_DE[m >> 3]}"
    if kind_of_move == HORSES:
        return "pferde"
    if kind_of_move == SELL:
        return f"verkauf {m >> 6} {NAMES_DE[(m >> 3) & 7]}"
    if kind_of_move == EXCHANGE:
        taken, given, horses = decode_exchange(m)
        return f"tausch {_items(taken, 0)} gegen {_items(given, horses)}"
    if kind_of_move == WEITER:
        return "weiter"
    raise _bad(str(m))
