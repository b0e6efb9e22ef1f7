"""The last known row of each table in this process, for moves in one round trip.

A cached row is only ever a guess: the move that starts from it is written by an
UPDATE guarded by the row's ``xmin`` (``shared.game_store.append_moves``), which
matches nothing once anyone else has written the table.  So a stale entry costs a
second try under the row lock, never a wrong move.
"""

from __future__ import annotations

from shared.game_store import GameRow
from shared.lru_map import LruMap

ROWS_CACHED = 4096  # tables; a row is a few hundred bytes plus its move log


class RowCache:
    """Least-recently-used rows by game id; finished tables are dropped."""

    def __init__(self, size: int = ROWS_CACHED) -> None:
        self._rows: LruMap[int, GameRow] = LruMap(size)

    def get(self, game_id: int) -> GameRow | None:
        return self._rows.get(game_id)

    def put(self, row: GameRow) -> None:
        if not row.running or not row.xmin:
            self._rows.forget(row.id)
            return
        self._rows.put(row.id, row)

    def forget(self, game_id: int) -> None:
        self._rows.forget(game_id)
