"""``bench.tables --floor``: the echo that stores each move really writes it (real PostgreSQL and Redis)."""

from __future__ import annotations

import psycopg

from bench.tables import _EchoStore, stored_cpu


def test_the_storing_echo_appends_each_move_to_its_tables_row(infra) -> None:  # noqa: ANN001
    store = _EchoStore(infra.database_url, infra.redis_url)
    try:
        store.seat(7)
        store.seat(7)  # the second player of the table: the row is there already
        store.move(7, "a1", 1)
        store.move(7, "b2", 2)
        with psycopg.connect(infra.database_url) as conn:
            row = conn.execute("SELECT moves, version FROM bench_echo_moves WHERE game_id = 7").fetchone()
        assert row == (["a1", "b2"], 2)
    finally:
        store.pool.close()
        with psycopg.connect(infra.database_url, autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS bench_echo_moves")  # the suite's database keeps its own tables only


def test_stored_cpu_counts_postgres_and_redis_where_measured() -> None:
    assert stored_cpu({"cpu_ms_per_move": {"server": 0.5, "postgres_redis": 0.25, "clients": 9.0}}) == 0.75
    assert stored_cpu({"cpu_ms_per_move": {"server": 0.5, "clients": 9.0}}) == 0.5
