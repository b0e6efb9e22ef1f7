"""shared.game_store against a real PostgreSQL: creating, loading, writing a table."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql
from psycopg.rows import dict_row, tuple_row

from shared import accounts, db, game_store
from shared.clock import Clock, initial_quota_ms
from shared.games.base import BadOptions
from tests.stack import Infra
from tests.table_rows import copies_of_game, move_append, running_game


@pytest.fixture
def pool(infra: Infra) -> Iterator:
    pool = db.make_pool(infra.database_url, max_size=2)
    yield pool
    pool.close()


def test_create_and_load_a_wartesaal_game(pool) -> None:  # noqa: ANN001
    a, b = accounts.create_guest(pool), accounts.create_guest(pool)
    with pool.connection() as conn, conn.transaction():
        gid = game_store.create_game(conn, game="hexagon", options={}, seed=7, seats=(a.id, b.id),
                                     mode="wartesaal", clock={"base_ms": 180_000, "inc_ms": 2000}, rated=True,
                                     stake=20)
    with pool.connection() as conn:
        row = game_store.load(conn, gid)
    assert row is not None and row.running and row.version == 0 and row.moves == []
    assert row.seats == (a.id, b.id) and row.clock == Clock(180_000, 2000)
    assert row.remaining_ms == [180_000, 180_000]
    assert row.lag_quota_ms == [initial_quota_ms(row.clock)] * 2
    assert row.options["map"]  # normalized by the engine: defaults filled in
    assert row.seats_of(a.id) == [0] and row.seats_of(b.id) == [1]


def test_create_rolls_back_with_the_callers_transaction(infra: Infra, pool) -> None:  # noqa: ANN001
    a, b = accounts.create_guest(pool), accounts.create_guest(pool)
    with psycopg.connect(infra.database_url, row_factory=dict_row) as conn:
        with pytest.raises(RuntimeError), conn.transaction():
            gid = game_store.create_game(conn, game="bullet", options={}, seed=1, seats=(a.id, b.id),
                                         mode="wartesaal", clock=None, rated=False, stake=0)
            raise RuntimeError("the lobby's stake debit failed")
        assert game_store.load(conn, gid) is None


def test_create_refuses_what_the_contract_forbids(pool) -> None:  # noqa: ANN001
    a = accounts.create_guest(pool)
    with pool.connection() as conn:
        with pytest.raises(BadOptions):
            game_store.create_game(conn, game="hexagon", options={"map": "gibtsnicht"}, seed=1, seats=(a.id, a.id),
                                   mode="same_device", clock=None, rated=False, stake=0)
        with pytest.raises(ValueError):  # a computer table needs a computer seat and a strength
            game_store.create_game(conn, game="hexagon", options={}, seed=1, seats=(a.id, a.id), mode="computer",
                                   clock=None, rated=False, stake=0, strength="leicht")
        with pytest.raises(ValueError):
            game_store.create_game(conn, game="hexagon", options={}, seed=1, seats=(a.id, None), mode="computer",
                                   clock=None, rated=False, stake=0)
        with pytest.raises(ValueError):  # stakes only in rated games
            game_store.create_game(conn, game="hexagon", options={}, seed=1, seats=(a.id, a.id),
                                   mode="same_device", clock=None, rated=False, stake=10)


def test_append_moves_writes_every_row_still_at_its_version_in_one_statement(pool) -> None:  # noqa: ANN001
    timed, untimed, computer, stale = (running_game(pool, clock={"base_ms": 60_000, "inc_ms": 0}),
                                       running_game(pool), running_game(pool, computer=True),
                                       running_game(pool, clock={"base_ms": 60_000, "inc_ms": 0}))
    with pool.connection() as conn, conn.transaction():  # an open offer, which lapses with the move
        conn.execute("UPDATE games SET draw_offer = 1 WHERE id = ANY(%s)", ([timed.id, untimed.id],))
    with pool.connection() as conn:
        timed, untimed = game_store.load(conn, timed.id), game_store.load(conn, untimed.id)  # type: ignore[assignment]
    assert timed is not None and untimed is not None and timed.draw_offer == 1
    with pool.connection() as conn, conn.transaction():  # anyone's write since the cached row: stale
        conn.execute("UPDATE games SET takeback_declines = '{1,0}' WHERE id = %s", (stale.id,))
    moves = [move_append(timed, "a1", 0), move_append(untimed, "b2", 1), move_append(computer, "c3", None),
             move_append(stale, "d4", 0)]
    with pool.connection() as conn, conn.transaction():
        xmins = game_store.append_moves(conn, moves)
        rows = {m.game_id: game_store.load(conn, m.game_id) for m in moves}
    assert set(xmins) == {timed.id, untimed.id, computer.id}
    assert len(set(xmins.values())) == 1  # one statement, one transaction
    for move in moves[:3]:
        row = rows[move.game_id]
        assert row is not None and row.xmin == xmins[move.game_id]
        assert (row.moves, row.move_seats, row.move_times) == ([move.move], [move.seat], [100])
        assert (row.remaining_ms, row.lag_quota_ms) == (move.remaining_ms, move.lag_quota_ms)
        assert (row.turn_started_at, row.version, row.draw_offer) == (move.turn_started_at, 1, None)
    assert rows[untimed.id].remaining_ms is None  # type: ignore[union-attr]
    assert rows[stale.id] is not None and rows[stale.id].moves == [] and rows[stale.id].version == 0  # type: ignore[union-attr]
    # One move alone: the same write behind the same guard.
    with pool.connection() as conn:
        assert game_store.append_moves(conn, [move_append(stale, "e5", 0)]) == {}  # still stale
        for row, seat in ((rows[computer.id], None), (rows[timed.id], 1)):
            move = move_append(row, "f6", seat)  # type: ignore[arg-type]
            xmin = game_store.append_moves(conn, [move])[row.id]  # type: ignore[union-attr]
            again = game_store.load(conn, row.id)  # type: ignore[union-attr]
            assert again is not None and again.xmin == xmin and again.moves[-1] == "f6"
            assert (again.move_seats[-1], again.remaining_ms, again.version) == (seat, move.remaining_ms, 2)
    # The moves travel as JSON: quotes, backslashes and umlauts in a move's text and a time
    # with microseconds in another zone arrive as they were.
    odd = dataclasses.replace(move_append(rows[untimed.id], 'Tausch "Öl"\\2', 0),  # type: ignore[arg-type]
                              turn_started_at=dt.datetime(2026, 12, 6, 9, 30, 1, 123456,
                                                          tzinfo=dt.timezone(dt.timedelta(hours=1))))
    other = running_game(pool)  # a batch of two: the JSON form
    with pool.connection() as conn:
        assert set(game_store.append_moves(conn, [odd, move_append(other, "g7", 0)])) == {untimed.id, other.id}
        again = game_store.load(conn, untimed.id)
    assert again is not None and again.moves[-1] == 'Tausch "Öl"\\2' and again.turn_started_at == odd.turn_started_at
    with pool.connection() as conn:
        assert game_store.append_moves(conn, []) == {}
        with pytest.raises(ValueError):  # UPDATE … FROM would write only one of them
            game_store.append_moves(conn, [move_append(timed, "x", 0), move_append(timed, "y", 0)])


def test_the_append_statement_finds_its_rows_by_the_primary_key(pool) -> None:  # noqa: ANN001
    """With many games stored, neither the first (custom) plans nor the generic plan psycopg's
    prepared statement settles on may scan the whole table for a move or two."""
    row = running_game(pool)
    with pool.connection() as conn, conn.transaction():
        copies_of_game(conn, row.id, 3000)
        moves = [move_append(row, "a1", 0), move_append(running_game(pool), "b2", 1)]
        statement = game_store._APPEND_MOVES.replace("%s::json", "$1::json").replace("%s::bigint[]", "$2::bigint[]")
        conn.execute(f"PREPARE append_plan (json, bigint[]) AS {statement}")
        try:
            for mode in ("force_custom_plan", "force_generic_plan"):
                conn.execute(f"SET LOCAL plan_cache_mode = {mode}")
                explain = sql.SQL("EXPLAIN EXECUTE append_plan ({}, {})").format(
                    sql.Literal(game_store._append_rows(moves)), sql.Literal([m.game_id for m in moves]))
                plan = "\n".join(line for (line,) in conn.cursor(row_factory=tuple_row).execute(explain))
                assert "Index Scan using games_pkey" in plan and "Seq Scan on games" not in plan, (mode, plan)
        finally:
            conn.execute("DEALLOCATE append_plan")
        raise psycopg.Rollback()  # the copies go again
