"""PostgreSQL access: one connection pool per process, and the migration runner.

Migrations are plain SQL files in ``shared/migrations`` named ``NNNN_what.sql``,
applied in order inside a transaction each and recorded in ``schema_migrations``;
an advisory lock lets several services start at once without racing.

Under gevent, import this module only after ``gevent.monkey.patch_all()``: psycopg
chooses its wait function at import time (see ../shared/notes/stack-pitfalls.md §2).
"""

from __future__ import annotations

from pathlib import Path

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_MIGRATION_LOCK = 727_001  # arbitrary advisory-lock key owned by the migration runner


def make_pool(database_url: str, max_size: int = 10, min_size: int = 1) -> ConnectionPool:
    """A pool whose connections return rows as dicts."""
    return ConnectionPool(
        database_url,
        min_size=min_size,
        max_size=max_size,
        kwargs={"row_factory": dict_row},
        check=ConnectionPool.check_connection,
        open=True,
    )


def migrate(database_url: str) -> list[str]:
    """Apply every migration not yet recorded; return the names applied now."""
    applied_now: list[str] = []
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
            for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
                if path.name in done:
                    continue
                with conn.transaction():
                    conn.execute(path.read_text())
                    conn.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (path.name,))
                applied_now.append(path.name)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))
    return applied_now


def check(pool: ConnectionPool) -> bool:
    """True when a query gets through (for /readyz)."""
    try:
        with pool.connection(timeout=2) as conn:
            conn.execute("SELECT 1")
        return True
    except Exception:
        return False
