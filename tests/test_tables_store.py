"""shared.game_store against a real PostgreSQL: creating, loading, writing a table."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from psycopg.rows import dict_row

from shared import accounts, db, game_store
from shared.clock import Clock, initial_quota_ms
from shared.games.base import BadOptions
from tests.stack import Infra


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
