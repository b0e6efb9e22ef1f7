"""The Taler ledger: every change of a balance is one appended row; the balance is their sum.

Rows are never updated or deleted (a trigger in the migration refuses it), so the
history of every balance can always be re-added.
"""

from __future__ import annotations

import psycopg
from psycopg_pool import ConnectionPool

START_BALANCE = 1000


def open_account(conn: psycopg.Connection, user_id: int) -> bool:
    """Book the start capital of a registered account (reason ``start``, ref ``account``: a unique
    index allows one such row per user) unless it has it already; call inside the transaction that
    registers the user.  Guests get none (``shared.accounts``)."""
    row = conn.execute(
        # The index's predicate spelled out (a parameter could not be matched to it).
        "INSERT INTO taler_ledger (user_id, amount, reason, ref) VALUES (%s, %s, 'start', 'account')"
        " ON CONFLICT (user_id) WHERE reason = 'start' AND ref = 'account' DO NOTHING RETURNING id",
        (user_id, START_BALANCE),
    ).fetchone()
    return row is not None


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
