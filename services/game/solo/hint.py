"""Tipp at a Battlehanse table against the computer (seed 000).

"Tipp (nur gegen Leicht und Mittel): Der starke Computer rechnet deinen Zug und setzt
die Auswahl, du drückst selbst.  Eine Partie mit Tipp zählt nicht für die Bilanz."

:meth:`HintDesk.request` checks the table under its row lock (running, against Leicht
or Mittel, the asker's own turn, the version the asker saw), counts the Tipp on the game
(``games.hints``, migration 0007: the match is marked) and sends ``ai.hint`` on the
``interactive`` queue with the asker's ``view`` only — the worker answers with
``ai_hint`` to the asker's sockets (room ``user:<uid>``), and the client sets the
selection in the Handelskasten.  Nothing on the table changes: the player still plays
the move (or another one) by pressing the button.

One Tipp per table version: asking again at the same version (a double click, a script
sending forty) starts no second search and counts no second Tipp; it gets the first
one's answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import redis

from services.game.tables.refusals import TableRefusal
from services.game.tables.table import Tables
from shared import ai_protocol, game_store
from shared.ai_protocol import MoveRequest
from shared.games import get_game

HINT_GAMES = ("hanse",)
HINT_STRENGTH = "stark"  # the strong computer computes every Tipp
HINT_BUDGET_S = 1.5  # Stark's own thinking time for Battlehanse
# How long a Tipp's search may take before the same version may ask for another (its answer lost).
HINT_PENDING_S = 30.0


class HintDesk:
    """Checks a Tipp request, marks the match and sends it to the strong computer, once
    per table version: asked again at the same version, the Tipp is the first one's answer
    (the worker keeps it under ``ai_protocol.hint_key``), or, while that search still
    runs, the answer it will send to the asker's sockets anyway."""

    def __init__(self, tables: Tables, send: Callable[[MoveRequest], None], redis_client: redis.Redis,
                 pending_s: float = HINT_PENDING_S) -> None:
        self.tables = tables
        self.send = send
        self.redis = redis_client
        self.pending_s = pending_s

    def request(self, user_id: int, game_id: int, version: int) -> MoveRequest | dict[str, Any] | None:
        """Ask for the strong computer's move for ``user_id``'s seat; raises :class:`TableRefusal`.

        Returns the request sent (a new search), the Tipp already found at this version
        (a ``dict``, for the asker's socket), or None (its search still runs).  A search's
        answer comes from the worker, as ``ai_hint`` to room ``user:<uid>``."""
        # The asker may have seen the computer's answer before its write (services.game.tables.table).
        self.tables.until_written(game_id)
        with self.tables.pool.connection() as conn, conn.transaction():
            row = game_store.load(conn, game_id, lock=True)
            if row is None:
                raise TableRefusal("unknown_table")
            if not row.running:
                raise TableRefusal("table_finished", current_game_id=row.id)
            if row.mode != "computer" or row.game not in HINT_GAMES:
                raise TableRefusal("hint_not_here")
            seats = row.seats_of(user_id)
            if not seats:
                raise TableRefusal("spectator")
            if row.strength == "stark":
                raise TableRefusal("hint_not_against_stark")
            if version != row.version:
                raise TableRefusal("stale_version", current_game_id=row.id)
            seat = seats[0]
            engine = get_game(row.game)
            state = self.tables.cache.state(row)
            if engine.to_move(state) != (seat,):
                raise TableRefusal("not_your_turn")
            key = ai_protocol.hint_key(row.id, row.version)
            # One search per version; a search whose answer never came (worker lost) may be asked again.
            if not self.redis.set(key, ai_protocol.HINT_PENDING, nx=True, ex=max(1, round(self.pending_s))):
                found = self.redis.get(key)
                text = found.decode() if isinstance(found, bytes) else found
                return None if text in (None, ai_protocol.HINT_PENDING) else json.loads(text)
            view = engine.view(state, seat)
            conn.execute("UPDATE games SET hints = hints + 1 WHERE id = %s", (row.id,))
        request = ai_protocol.new_request("hint", row.game, row.id, row.version, seat, view, HINT_STRENGTH,
                                          HINT_BUDGET_S, user_id=user_id)
        # After the commit: the mark stands even if the worker's answer gets lost.
        self.send(request)
        return request


def hints_of(conn: object, game_id: int) -> int:
    """How many Tipps were asked for in ``game_id`` (0 when there is no such game)."""
    row = conn.execute("SELECT hints FROM games WHERE id = %s", (game_id,)).fetchone()  # type: ignore[attr-defined]
    if row is None:
        return 0
    return int(row["hints"] if isinstance(row, dict) else row[0])
