"""Who may look at a table: everybody, except at a same-device table, which only its owner sees.

Two on one device is one person's table (both seats are theirs); it is not listed
anywhere, and the socket's ``table:join`` and the HTTP routes (the game, its record)
refuse anyone else with the same ``private_table`` refusal.
"""

from __future__ import annotations

from services.game.refusals import TableRefusal
from shared.game_store import GameRow


def check_onlooker(row: GameRow, user_id: int | None) -> None:
    """Raise ``private_table`` unless ``user_id`` (None: not signed in) may see ``row``."""
    if row.mode == "same_device" and (user_id is None or not row.seats_of(user_id)):
        raise TableRefusal("private_table")
