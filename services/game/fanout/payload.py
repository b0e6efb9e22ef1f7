"""``table:state`` for one recipient: the whole table as that seat (or a spectator) may see it.

Each seat and each spectator gets its own payload built from ``GAME.view(state, seat)``
(a sealed game's ``sealed_view``: :mod:`services.game.rules.sealed`); nothing here ever puts
one seat's view into a payload meant for another.
"""

from __future__ import annotations

import time
from typing import Any

from services.game.rules.deadlines import clock_seat, has_time_limit
from services.game.rules.move_limits import per_move_limit_ms
from services.game.rules.round_pause import pause_deadline
from services.game.rules.sealed import view_of
from shared import clock
from shared.game_store import GameRow
from shared.games import get_game
from shared.schemas.table_events import FINAL_POSITION_DELAY_MS


def seats_of(row: GameRow, people: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """Who sits where: ``people`` maps user id → {"name", "elo"}."""
    return [
        {"user_id": None, "name": None, "elo": None, "computer": row.strength} if uid is None
        else {"user_id": uid, "name": people.get(uid, {}).get("name"), "elo": people.get(uid, {}).get("elo"),
              "computer": None}
        for uid in row.seats
    ]


def clocks_of(row: GameRow, state: Any, now_ms: int) -> dict[str, Any]:
    """Clocks as of ``now_ms``: the running seat's clock already charged for its turn so far,
    and when a round pause ends by itself (the countdown the table shows)."""
    pause_end = pause_deadline(row, state)
    pause = {"pause_until_ms": int(pause_end.timestamp() * 1000) if pause_end is not None else None}
    return clocks_without_pause(row, state, now_ms) | pause


def clocks_without_pause(row: GameRow, state: Any, now_ms: int) -> dict[str, Any]:
    running = clock_seat(row, state) if has_time_limit(row) else None
    elapsed = max(0, now_ms - int(row.turn_started_at.timestamp() * 1000))
    if row.clock is not None:
        remaining = list(row.remaining_ms or [0, 0])
        if running is not None:
            remaining[running] = clock.time_left_ms(row.clock, remaining[running], elapsed)
        return {"remaining_ms": remaining, "running": running, "server_now_ms": now_ms, "per_move_limit_ms": None}
    limit = per_move_limit_ms(row)
    if limit is not None:  # ohne Uhr: the game's allowance per move
        remaining = [limit, limit]
        if running is not None:
            remaining[running] = max(0, limit - elapsed)
        return {"remaining_ms": remaining, "running": running, "server_now_ms": now_ms, "per_move_limit_ms": limit}
    return {"remaining_ms": [], "running": None, "server_now_ms": now_ms, "per_move_limit_ms": None}


def moves_visible(view: dict[str, Any], engine_history: list[str]) -> list[str]:
    """The move list as the view allows: the view's own history where it keeps one
    (games with hidden information filter it), otherwise the engine's."""
    history = view.get("history")
    if isinstance(history, list) and all(isinstance(m, str) for m in history):
        return history
    return engine_history


def table_state(row: GameRow, state: Any, you: int | None, people: dict[int, dict[str, Any]],
                now_ms: int | None = None) -> dict[str, Any]:
    """The ``table:state`` payload for the recipient sitting on ``you`` (None: spectator)."""
    return TableStates(row, state, people, now_ms).of(you)


class TableStates:
    """The ``table:state`` payloads of one table as it stands, for each recipient in turn.

    What every recipient gets alike (seats, clocks, offers, the engine's move list) is
    built once, for the first payload, and shared by the others: a move's states go to
    both seats (and the spectators), and building those parts for each was a good share
    of a move's CPU (bench/tables.py).  Only the view, and the move list where the view
    keeps its own, are the recipient's own."""

    def __init__(self, row: GameRow, state: Any, people: dict[int, dict[str, Any]],
                 now_ms: int | None = None) -> None:
        self.row, self.state, self.people = row, state, people
        self.now_ms = now_ms
        self._common: dict[str, Any] | None = None
        self._history: list[str] | None = None

    def _engine_history(self) -> list[str]:
        if self._history is None:
            self._history = get_game(self.row.game).history(self.state)
        return self._history

    def of(self, you: int | None) -> dict[str, Any]:
        """The payload for the recipient sitting on ``you`` (None: spectator)."""
        row = self.row
        common = self._common
        if common is None:
            now_ms = int(time.time() * 1000) if self.now_ms is None else self.now_ms
            common = self._common = {
                "seats": seats_of(row, self.people),
                "clocks": clocks_of(row, self.state, now_ms),
                "offers": {"draw": row.draw_offer, "takeback": row.takeback_offer},
            }
        view = view_of(row, self.state, you)
        return {
            "game_id": row.id,
            "game": row.game,
            "version": row.version,
            "mode": row.mode,
            "rated": row.rated,
            "stake": row.stake,
            "seats": common["seats"],
            "you": you,
            "view": view,
            "clocks": common["clocks"],
            "offers": common["offers"],
            "status": row.status,
            "result": row.result,
            "moves": moves_visible(view, self._engine_history()),
            "final_position_delay_ms": FINAL_POSITION_DELAY_MS,
        }


def same_device_seat(row: GameRow, state: Any) -> int:
    """At a same-device table the screen shows the side to move (seat 0 when none or both)."""
    to_move = get_game(row.game).to_move(state)
    return to_move[0] if len(to_move) == 1 else 0
