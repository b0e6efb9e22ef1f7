"""Zug zurück against the computer: after the take-back the unseen cards are mixed anew.

Battlehanse (seed 000): "Danach werden Nachziehstapel und Ratsmarken neu gemischt – was
nachgerückt wäre, bleibt also ein Geheimnis."  The cards drawn by the moves taken back
go back onto the deck; without a new shuffle the player would know what comes next.

A table replays from ``(game, options, seed, moves, move_seats, reshuffles)``: each
reshuffle is ``(ply, seed)`` and is made before move ``ply``
(:func:`shared.table_replay.replay`, the engine's ``after_takeback``).  The new seed
is drawn here, on the server, and kept only in ``games.reshuffles`` (migration 0007):
it never reaches a client while the game runs.  A take-back also drops the reshuffles
of the plies it removes, so the list always describes the moves kept, and the game's
reviews (a Rückblick asked for on a Rundentafel judged moves that may now be gone).

The same list keeps what any take-back must not undo (Battlegeneral: a rank a fight
showed stays shown, for both players and the computer): each entry is a take-back's
``(ply, mark)``, applied by the engine's ``after_takeback``.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable
from typing import Any

from psycopg.types.json import Jsonb

from shared.game_store import GameRow
from shared.games import get_game

SEED_BITS = 62  # fits games' bigint columns and the record's header alike


def reshuffles_after_undo(conn: Any, row: GameRow, keep: int, mix: bool, before: Any = None,
                          kept_state: Callable[[GameRow], Any] | None = None) -> GameRow:
    """``row`` (already cut to ``keep`` moves) with its reshuffles trimmed to them, plus
    the take-back's own mark at ``keep`` (``Game.takeback_mark``: a fresh mix when
    ``mix`` and the game has unseen cards; the ranks a fight in the removed moves showed);
    written on ``conn``.  ``before``: the state with the removed moves; ``kept_state``
    replays a row."""
    kept = tuple(r for r in row.reshuffles if r[0] <= keep)
    if before is not None and kept_state is not None:
        trimmed = dataclasses.replace(row, reshuffles=kept)
        mark = get_game(row.game).takeback_mark(before, kept_state(trimmed),
                                                secrets.randbits(SEED_BITS) if mix else None)
        if mark is not None:
            kept += ((keep, mark),)
    if kept != row.reshuffles:
        conn.execute("UPDATE games SET reshuffles = %s WHERE id = %s", (Jsonb([list(r) for r in kept]), row.id))
    conn.execute("DELETE FROM reviews WHERE game_id = %s", (row.id,))
    return dataclasses.replace(row, reshuffles=kept)
