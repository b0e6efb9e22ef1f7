"""How the table, not the rules, ends a game.

Each engine names its own endings in its ``Reason`` enum (:attr:`Game.reasons`); these
are the endings the platform decides: a clock, a resignation, an agreed draw, a player
who left.  The values are the codes stored in ``games.result``, sent to clients and
looked up for their texts, so they never change.
"""

from __future__ import annotations

from enum import StrEnum


class TableReason(StrEnum):
    TIME = "zeit"  # the chess clock fell
    MOVE_TIME = "zugzeit"  # the time for one move ran out
    RESIGNED = "aufgabe"
    DRAW_AGREED = "remis"
    LEFT = "verlassen"  # a player left the game (the other wins, or nobody when it was aborted)
    LEFT_DRAW = "verlassen_remis"  # the one who stayed claimed a draw
