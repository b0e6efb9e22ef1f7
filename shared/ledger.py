"""The Taler ledger: every change of a balance is one appended row; the balance is their sum.

Rows are never updated or deleted (a trigger in the migration refuses it), so the
history of every balance can always be re-added.
"""

from __future__ import annotations

import psycopg
from psycopg_pool import ConnectionPool

START_BALANCE = 1000


def open_account(conn: psycopg.Connection, user_id: int) -> None:
    """Book the start capital; call inside the transaction that creates the user."""
    record(conn, user_id, START_BALANCE, "start")


def record(conn: psycopg.Connection, user_id: int, amount: int, reason: str, ref: str | None = None) -> None:
    """Append one change of ``amount`` Taler (negative to take) for ``reason``."""
    conn.execute(
        "INSERT INTO taler_ledger (user_id, amount, reason, ref) VALUES (%s, %s, %s, %s)",
        (user_id, amount, reason, ref),
    )


def balance(pool: ConnectionPool, user_id: int) -> int:
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT COALESCE(SUM(amount), 0) AS balance FROM taler_ledger WHERE user_id = %s", (user_id,)
        ).fetchone()
    return int(row["balance"])
