"""Pieces of Battlegeneral: rank codes, counts, names and the fight rule.

Rank codes (ints, so fights are plain comparisons): Spion 1, Aufklärer 2, Mineur 3,
Unteroffizier 4, Leutnant 5, Hauptmann 6, Major 7, Oberst 8, General 9,
Feldmarschall 10, Mine 11, Fahne 12.  Codes 1–10 move; 11 and 12 never do.

Rank *tokens* (setup texts, fight annotations, views): ``S``, ``2`` … ``10``, ``B``
(Mine, from "bomb" as in the setups file), ``F``.
"""

from __future__ import annotations

SPY, SCOUT, MINER, MARSHAL, MINE, FLAG = 1, 2, 3, 10, 11, 12
MOVABLE_MAX = 10  # codes above this never move

# rank code → how many each army has (docs/rules.md, Battlegeneral "Pieces")
ARMY: dict[int, int] = {10: 1, 9: 1, 8: 2, 7: 3, 6: 4, 5: 4, 4: 4, 3: 5, 2: 8, SPY: 1, MINE: 6, FLAG: 1}
ARMY_SIZE = 40

TOKENS: dict[int, str] = {SPY: "S", MINE: "B", FLAG: "F", **{r: str(r) for r in range(2, 11)}}
TOKEN_TO_RANK: dict[str, int] = {t: r for r, t in TOKENS.items()}

NAMES: dict[int, tuple[str, str]] = {
    10: ("Feldmarschall", "Marshal"),
    9: ("General", "General"),
    8: ("Oberst", "Colonel"),
    7: ("Major", "Major"),
    6: ("Hauptmann", "Captain"),
    5: ("Leutnant", "Lieutenant"),
    4: ("Unteroffizier", "Sergeant"),
    3: ("Mineur", "Miner"),
    2: ("Aufklärer", "Scout"),
    SPY: ("Spion", "Spy"),
    MINE: ("Mine", "Mine"),
    FLAG: ("Fahne", "Flag"),
}

# Click-to-place order: the next piece is the highest-ranked one not yet placed,
# moving pieces from Feldmarschall down to Spion, then the Minen, the Fahne last.
PLACEMENT_ORDER: tuple[int, ...] = (10, 9, 8, 7, 6, 5, 4, 3, 2, SPY, MINE, FLAG)

# Fight results
ATTACKER_WINS, DEFENDER_WINS, BOTH_LOSE = 0, 1, 2


def fight(attacker: int, defender: int) -> int:
    """Who wins when ``attacker`` strikes ``defender`` (rank codes).

    The Fahne loses to everyone (capturing it ends the game); a Mine beats every
    attacker but the Mineur; the Spion beats the Feldmarschall only as attacker;
    otherwise the higher rank wins and equal ranks both go.
    """
    if defender == FLAG:
        return ATTACKER_WINS
    if defender == MINE:
        return ATTACKER_WINS if attacker == MINER else DEFENDER_WINS
    if attacker == SPY and defender == MARSHAL:
        return ATTACKER_WINS
    if attacker > defender:
        return ATTACKER_WINS
    if attacker == defender:
        return BOTH_LOSE
    return DEFENDER_WINS


def parse_rank_token(text: str) -> int | None:
    """``"10"`` → 10, ``"s"`` → 1 (case-insensitive); None when unknown."""
    return TOKEN_TO_RANK.get(text.strip().upper())
