"""Who may look at a table: everybody, except at a same-device table, which only its owner sees,
and at a game whose deal others still play, which only its player sees.

Two on one device is one person's table (both seats are theirs); it is not listed
anywhere, and the socket's ``table:join`` and the HTTP routes (the game, its record)
refuse anyone else with the same ``private_table`` refusal.  A Tagesmarkt attempt has the
day's deal (``services.game.rules.sealed``): whoever watched one, running or over, would know the
cards that came up in it, in the deck's order, before their own counted attempt; until its
seal ends onlookers get ``deal_sealed``.
"""

from __future__ import annotations

from services.game.rules.sealed import is_sealed
from services.game.tables.refusals import TableRefusal
from shared.game_store import GameRow


def check_onlooker(row: GameRow, user_id: int | None) -> None:
    """Raise ``private_table`` or ``deal_sealed`` unless ``user_id`` (None: not signed in) may see ``row``."""
    if user_id is not None and row.seats_of(user_id):
        return
    if row.mode == "same_device":
        raise TableRefusal("private_table")
    if is_sealed(row):
        raise TableRefusal("deal_sealed")


def may_look(row: GameRow, user_id: int | None) -> bool:
    """Whether ``user_id`` may see ``row`` (:func:`check_onlooker` without the refusal)."""
    try:
        check_onlooker(row, user_id)
    except TableRefusal:
        return False
    return True
