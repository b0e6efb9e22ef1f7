"""The cards and tokens of Battlehanse, as numbers.

Card kinds are small ints, used as indices into count tuples everywhere in the engine:

====  ===========  =======  ======  =====
kind  German       English  letter  cards
====  ===========  =======  ======  =====
0     Bernstein    amber    B       6
1     Gold         gold     G       6
2     Silber       silver   S       6
3     Tuch         cloth    T       8
4     Salz         salt     Z       8
5     Pelz         fur      P       10
6     Packpferd    horse    H       11
====  ===========  =======  ======  =====

Kinds 0–2 are precious (sold only two or more at a time).  The letters are used by
the position format (:mod:`.position`).  Zinnmarken and Ratsmarken values follow
docs/rules.md; a Ratsmarke's size class (0: sale of 3, 1: of 4, 2: of 5+) follows from its
value because the three ranges 1–3, 4–6, 8–10 do not overlap.
"""

from __future__ import annotations

GOODS = 6  # kinds 0..5 are goods
HORSE = 6
KINDS = 7

NAMES_DE = ("Bernstein", "Gold", "Silber", "Tuch", "Salz", "Pelz", "Packpferd")
NAMES_EN = ("amber", "gold", "silver", "cloth", "salt", "fur", "pack horse")
LETTERS = "BGSTZPH"
CARD_COUNTS = (6, 6, 6, 8, 8, 10, 11)
PRECIOUS = (True, True, True, False, False, False)

MARKET_SIZE = 5
MARKET_HORSES_AT_SETUP = 3
HAND_AT_SETUP = 5
HAND_LIMIT = 7

# Zinnmarken per good, top (most valuable) first.
ZINN = (
    (7, 7, 5, 5, 5),
    (6, 6, 5, 5, 5),
    (5, 5, 5, 5, 5),
    (5, 3, 3, 2, 2, 1, 1),
    (5, 3, 3, 2, 2, 1, 1),
    (4, 3, 2, 1, 1, 1, 1, 1, 1),
)

# Ratsmarken per size class: sale of 3, of 4, of 5 or more.
RATS = (
    (1, 1, 2, 2, 2, 3, 3),
    (4, 4, 5, 5, 6, 6),
    (8, 8, 9, 10, 10),
)
RATS_MEAN = (2, 5, 9)

STALLMARKE = 5
EMPTY_PILES_END_ROUND = 3


def rats_size(cards_sold: int) -> int:
    """Size class of the Ratsmarke a sale of ``cards_sold`` cards earns, -1 for none."""
    if cards_sold >= 5:
        return 2
    if cards_sold == 4:
        return 1
    if cards_sold == 3:
        return 0
    return -1


def rats_size_of_value(value: int) -> int:
    """Which pile a Ratsmarke value comes from (the ranges do not overlap)."""
    if value <= 3:
        return 0
    if value <= 6:
        return 1
    return 2


def cards_list(counts: tuple[int, ...] | list[int]) -> list[str]:
    """Count tuple → German card names in kind order, one entry per card."""
    out: list[str] = []
    for kind, n in enumerate(counts):
        out.extend([NAMES_DE[kind]] * n)
    return out
