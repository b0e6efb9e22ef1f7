"""Why a move is illegal: the reasons a player reads, in German and English.

The generator (:mod:`.movegen`) decides *what* is legal; this module explains a
refusal for a readable move that the generator did not produce, checking the rules
in the order a player thinks of them.  A move that would carry an own marble off
the board cannot even be written (its target is no cell, see :mod:`.notation`) and
has no move id, so it never reaches this module.
"""

from __future__ import annotations

from shared.games.base import IllegalMove
from shared.games.bullet.board import NAME, SHIFTS


def refuse(own: int, enemy: int, group: tuple[int, ...], direction: int) -> IllegalMove:
    """The IllegalMove for moving ``group`` in ``direction`` (assumed not legal)."""
    shift = SHIFTS[direction]
    for cell in group:
        bit = 1 << cell
        if enemy & bit:
            return IllegalMove(
                "not_own", f"Auf {NAME[cell]} liegt eine gegnerische Kugel", f"{NAME[cell]} holds an enemy marble"
            )
        if not own & bit:
            return IllegalMove(
                "no_marble", f"Auf {NAME[cell]} liegt keine Kugel", f"There is no marble on {NAME[cell]}"
            )
    members = set(group)
    inline = len(group) == 1 or (group[0] + shift in members) or (group[-1] + shift in members)
    if not inline:
        for cell in group:
            target = cell + shift
            if (own | enemy) & (1 << target):
                return IllegalMove(
                    "broadside_blocked",
                    f"Seitwärts müssen alle Zielfelder frei sein ({NAME[target]} ist besetzt)",
                    f"A broadside move needs every target cell empty ({NAME[target]} is occupied)",
                )
        return IllegalMove("illegal", "Dieser Zug ist nicht erlaubt", "This move is not allowed")
    lead = next(c for c in group if c + shift not in members)
    target = lead + shift
    if own & (1 << target):
        return IllegalMove(
            "own_blocks",
            f"Das Feld {NAME[target]} ist nicht frei: eigene Kugeln schiebt man nicht",
            f"The cell {NAME[target]} is not empty: you never push your own marbles",
        )
    if len(group) == 1:
        return IllegalMove("single_push", "Eine einzelne Kugel kann nicht schieben", "A single marble cannot push")
    pushed = 0
    probe = target
    while probe in NAME and enemy & (1 << probe):
        pushed += 1
        probe += shift
    if pushed >= len(group):
        return IllegalMove(
            "no_majority",
            f"Keine Überzahl: {len(group)} gegen {pushed} schiebt nicht",
            f"No majority: {len(group)} against {pushed} cannot push",
        )
    if probe in NAME and own & (1 << probe):
        return IllegalMove(
            "sandwiched",
            f"Festgeklemmt: hinter den gegnerischen Kugeln steht eine eigene ({NAME[probe]})",
            f"Blocked: an own marble stands behind the enemy line ({NAME[probe]})",
        )
    return IllegalMove("illegal", "Dieser Zug ist nicht erlaubt", "This move is not allowed")
