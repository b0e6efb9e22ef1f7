"""Running tables written straight to the ``games`` table, and moves to append to them (store and move-writer tests)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from psycopg.rows import dict_row, tuple_row
from psycopg_pool import ConnectionPool

from shared import accounts, game_store
from shared.game_store import GameRow, MoveAppend


def tables_pool(database_url: str, max_size: int) -> ConnectionPool:
    """Like the game service's tables pool: autocommit, rows as dicts."""
    return ConnectionPool(database_url, min_size=1, max_size=max_size,
                          kwargs={"row_factory": dict_row, "autocommit": True}, open=True)


def running_game(pool: ConnectionPool, *, clock: dict[str, int] | None = None, computer: bool = False) -> GameRow:
    """A running Battlehexagon table between two new guests (or a guest and the computer)."""
    a, b = accounts.create_guest(pool), accounts.create_guest(pool)
    with pool.connection() as conn, conn.transaction():
        gid = game_store.create_game(conn, game="hexagon", options={}, seed=3, seats=(a.id, None if computer else b.id),
                                     mode="computer" if computer else "wartesaal", clock=clock, rated=False,
                                     stake=0, strength="leicht" if computer else None)
        row = game_store.load(conn, gid)
    assert row is not None
    return row


def copies_of_game(conn: Any, game_id: int, n: int) -> None:
    """``n`` more rows like game ``game_id`` in ``games``, then ANALYZE: a table as large as a
    real one, for the planner (inside a transaction the caller may roll back)."""
    columns = ", ".join(name for (name,) in conn.cursor(row_factory=tuple_row).execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'games'"
        " AND column_name <> 'id' AND is_generated = 'NEVER'"))
    conn.execute(f"INSERT INTO games ({columns}) SELECT {columns} FROM games,"  # noqa: S608
                 " generate_series(1, %s) WHERE id = %s", (n, game_id))
    conn.execute("ANALYZE games")


def move_append(row: GameRow, move: str, seat: int | None, *, xmin: int | None = None) -> MoveAppend:
    """``move`` on ``row`` as the table would append it: 100 ms spent, the version after the row's."""
    remaining = [row.remaining_ms[0] - 100, row.remaining_ms[1]] if row.remaining_ms is not None else None
    return MoveAppend(game_id=row.id, expected_xmin=row.xmin if xmin is None else xmin, move=move, seat=seat,
                      spent_ms=100, remaining_ms=remaining, lag_quota_ms=[row.lag_quota_ms[0] + 7, 9],
                      turn_started_at=dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC), version=row.version + 1)
