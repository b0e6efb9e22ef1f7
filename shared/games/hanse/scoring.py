"""Round end: the full round calculation (Rundentafel) and who gets the Ratssiegel.

Points = Zinnmarken + Ratsmarken + Stallmarke (5 for more Packpferde in the stable,
none on a tie).  More points win the seal; on equal points more Ratsmarken, then more
Zinnmarken decide; a full tie gives no seal and the same player begins the next round.
Otherwise the loser of the round begins the next one.
"""

from __future__ import annotations

from typing import Any

from shared.games.hanse.cards import HORSE, STALLMARKE

END_THREE_PILES = "drei_stapel"
END_DECK_EMPTY = "stapel_leer"
END_TEXTS = {
    END_THREE_PILES: ("Drei Zinnmarken-Stapel sind leer", "Three Zinnmarken piles are empty"),
    END_DECK_EMPTY: (
        "Der Markt kann nicht mehr aufgefüllt werden: der Nachziehstapel ist aufgebraucht",
        "The market cannot be refilled: the deck is used up",
    ),
}
DECIDED_TEXTS = {
    "punkte": ("mehr Punkte", "more points"),
    "ratsmarken": ("Punktgleichstand – mehr Ratsmarken", "tie on points – more Ratsmarken"),
    "zinnmarken": (
        "Punkt- und Ratsmarkengleichstand – mehr Zinnmarken",
        "tie on points and Ratsmarken – more Zinnmarken",
    ),
    "gleichstand": ("völliger Gleichstand – kein Siegel", "complete tie – no seal"),
}


def round_table(
    round_no: int,
    starter: int,
    end_reason: str,
    zinn_won: tuple[tuple[int, ...], tuple[int, ...]],
    rats_won: tuple[tuple[int, ...], tuple[int, ...]],
    hands: tuple[tuple[int, ...], tuple[int, ...]],
    seals_before: tuple[int, int],
    seals_to_win: int,
) -> dict[str, Any]:
    """The Rundentafel of a finished round as a JSON-able dict (see module docstring)."""
    horses = (hands[0][HORSE], hands[1][HORSE])
    stall_owner = 0 if horses[0] > horses[1] else 1 if horses[1] > horses[0] else None
    players = []
    for seat in (0, 1):
        zinn_sum = sum(zinn_won[seat])
        rats_sum = sum(rats_won[seat])
        stall = STALLMARKE if stall_owner == seat else 0
        players.append(
            {
                "zinn": list(zinn_won[seat]),
                "zinn_sum": zinn_sum,
                "rats": list(rats_won[seat]),
                "rats_sum": rats_sum,
                "horses": horses[seat],
                "stall": stall,
                "total": zinn_sum + rats_sum + stall,
            }
        )
    seal: int | None = None
    decided_by = "gleichstand"
    for criterion, key in (("punkte", "total"), ("ratsmarken", "rats"), ("zinnmarken", "zinn")):
        a, b = players[0][key], players[1][key]
        if isinstance(a, list):
            a, b = len(a), len(b)
        if a != b:
            seal = 0 if a > b else 1
            decided_by = criterion
            break
    seals = list(seals_before)
    if seal is not None:
        seals[seal] += 1
    match_over = seal is not None and seals[seal] >= seals_to_win
    next_starter = None if match_over else (starter if seal is None else 1 - seal)
    end_de, end_en = END_TEXTS[end_reason]
    dec_de, dec_en = DECIDED_TEXTS[decided_by]
    if seal is None:
        de = f"Runde {round_no}: {dec_de}."
        en = f"Round {round_no}: {dec_en}."
    else:
        de = f"Runde {round_no}: Spieler {seal + 1} bekommt das Ratssiegel ({dec_de})."
        en = f"Round {round_no}: player {seal + 1} wins the council seal ({dec_en})."
    return {
        "round": round_no,
        "starter": starter,
        "end_reason": end_reason,
        "end_de": end_de,
        "end_en": end_en,
        "players": players,
        "stall_owner": stall_owner,
        "decided_by": decided_by,
        "seal": seal,
        "seals_after": seals,
        "match_over": match_over,
        "next_starter": next_starter,
        "de": de,
        "en": en,
    }
