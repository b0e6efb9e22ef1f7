"""A move is shown to the process's own sockets before its row is written (services/game/tables/table.py).

Tables against a real PostgreSQL; a stub listener's ``shown``, ``settled`` and ``retracted`` stand
for the game service's publisher, so the tests see what would be sent, and when.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import redis
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from services.game.solo.hint import HintDesk
from services.game.tables.refusals import TableRefusal
from services.game.tables.table import Settled, Tables
from shared import accounts, db, game_store
from shared.game_store import GameRow
from shared.games import get_game
from shared.table_replay import StateCache
from tests.stack import Infra
from tests.table_client import StubListener
from tests.table_rows import running_game, tables_pool


@pytest.fixture
def pool(infra: Infra) -> Iterator[ConnectionPool]:
    pool = tables_pool(infra.database_url, max_size=4)
    yield pool
    pool.close()


@pytest.fixture
def row(infra: Infra) -> GameRow:
    """A running Battlehexagon table with a 5-minute clock."""
    setup = db.make_pool(infra.database_url, max_size=1)
    try:
        return running_game(setup, clock={"base_ms": 300_000, "inc_ms": 0})
    finally:
        setup.close()


def _stored_version(infra: Infra, game_id: int) -> int:
    with psycopg.connect(infra.database_url, row_factory=dict_row) as conn:
        row = game_store.load(conn, game_id)
    assert row is not None
    return row.version


def _first_move(tables: Tables, game_id: int) -> tuple[int, str]:
    """The user to move and a legal move of theirs on the table as it stands."""
    settled = tables.current(game_id)
    game = get_game(settled.row.game)
    seat = game.to_move(settled.state)[0]
    return settled.row.seats[seat], game.legal_moves(settled.state)[0].text


def test_a_move_is_shown_before_it_is_written_and_a_join_meanwhile_waits_for_the_write(infra: Infra, pool, row: GameRow) -> None:  # noqa: ANN001
    listener = StubListener()
    tables = Tables(pool, StateCache(), listener)
    user, text = _first_move(tables, row.id)  # also caches the row: the move takes the one-statement path
    hold = threading.Event()
    seen: list[tuple[str, Any]] = []

    def shown(settled: Settled) -> list[dict[str, Any]]:
        seen.append(("shown", settled.row.version, _stored_version(infra, row.id)))
        hold.wait(10)  # a slow write: the join below must wait for it
        return [{"told": settled.row.version}]

    listener.on_may_show_first = lambda game_id: True
    listener.on_shown = shown
    listener.on_settled = lambda settled: seen.append(("settled", settled.row.version, settled.shown))
    mover = threading.Thread(target=tables.move, args=(user, row.id, row.version, text), daemon=True)
    mover.start()
    _until(lambda: bool(seen))
    joined: list[Settled] = []
    joiner = threading.Thread(target=lambda: joined.append(tables.current(row.id)), daemon=True)
    joiner.start()
    joiner.join(0.3)
    assert joiner.is_alive() and not joined  # the join waits while the move is shown and unwritten
    hold.set()
    mover.join(10)
    joiner.join(10)
    # Shown at the new version while PostgreSQL still held the old one; published on once committed,
    # with the very messages shown (not built again); the join read the committed move.
    assert seen == [("shown", row.version + 1, row.version),
                    ("settled", row.version + 1, [{"told": row.version + 1}])]
    assert [s.row.version for s in joined] == [row.version + 1]
    assert _stored_version(infra, row.id) == row.version + 1


def test_a_shown_move_refused_after_all_is_retracted(pool, row: GameRow) -> None:  # noqa: ANN001
    """Another process resigns the game between this process's cached row and the move's write."""
    listener = StubListener()
    here, elsewhere = Tables(pool, StateCache(), listener), Tables(pool, StateCache(), StubListener())
    user, text = _first_move(here, row.id)
    seen: list[tuple[str, Any]] = []
    listener.on_may_show_first = lambda game_id: True
    listener.on_shown = lambda settled: seen.append(("shown", settled.row.version)) or []
    listener.on_settled = lambda settled: seen.append(("settled", settled.row.version))
    listener.on_retracted = lambda game_id: seen.append(("retracted", game_id))
    opponent = next(uid for uid in row.seats if uid != user)
    elsewhere.resign(opponent, row.id)

    with pytest.raises(TableRefusal) as refused:
        here.move(user, row.id, row.version, text)

    assert refused.value.code == "table_finished"
    assert seen == [("shown", row.version + 1), ("retracted", row.id)]
    stored = here.current(row.id)
    assert stored.row.status != "running" and stored.row.moves == []  # the resignation stands, the move does not


@pytest.mark.parametrize("why", ["another process serves the table", "the process is stopping"])
def test_a_move_is_written_before_it_is_shown(infra: Infra, pool, row: GameRow, why: str) -> None:  # noqa: ANN001
    listener = StubListener()
    tables = Tables(pool, StateCache(), listener)
    user, text = _first_move(tables, row.id)
    seen: list[tuple[str, int, int]] = []
    listener.on_may_show_first = lambda game_id: why == "the process is stopping"
    if why == "the process is stopping":
        tables.stop_showing_first()
    listener.on_shown = lambda settled: seen.append(("shown", settled.row.version, 0)) or []
    listener.on_settled = lambda settled: seen.append(("settled", settled.row.version, _stored_version(infra, row.id)))

    tables.move(user, row.id, row.version, text)

    assert seen == [("settled", row.version + 1, row.version + 1)]


def test_a_tipp_asked_while_the_computers_answer_is_shown_waits_for_its_write(pool, infra: Infra) -> None:  # noqa: ANN001
    """The asker saw the computer's answer at once; the Tipp desk reads the row only once it is written."""
    human = accounts.create_guest(pool)
    with pool.connection() as conn, conn.transaction():
        game_id = game_store.create_game(conn, game="hanse", options={"seals_to_win": 1}, seed=5, seats=(human.id, None),
                                         mode="computer", clock=None, rated=False, stake=0, strength="leicht")
    listener = StubListener()
    tables = Tables(pool, StateCache(), listener)
    engine = get_game("hanse")
    settled = tables.current(game_id)
    if engine.to_move(settled.state) == (0,):  # the human begins: one move, written first, and it is the computer's turn
        settled = tables.move(human.id, game_id, settled.row.version, engine.legal_moves(settled.state)[0].text)
    hold = threading.Event()
    shown: list[int] = []

    def held(s: Settled) -> list[dict[str, Any]]:
        shown.append(s.row.version)
        hold.wait(10)
        return []

    listener.on_may_show_first = lambda game_id: True
    listener.on_shown = held
    answer = engine.legal_moves(settled.state)[0].text
    computer = threading.Thread(target=tables.computer_move, args=(game_id, settled.row.version, 1, answer), daemon=True)
    computer.start()
    _until(lambda: bool(shown))
    sent: list[Any] = []
    desk = HintDesk(tables, sent.append, redis.Redis.from_url(infra.redis_url))
    asked: list[Any] = []

    def ask() -> None:
        try:
            asked.append(desk.request(human.id, game_id, shown[0]))
        except TableRefusal as refusal:
            asked.append(refusal.code)

    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    asker.join(0.3)
    assert asker.is_alive() and not asked  # not refused as stale: it waits for the answer's write
    hold.set()
    computer.join(10)
    asker.join(10)
    assert [(r.ply, r.seat) for r in asked] == [(shown[0], 0)] and sent == asked


def _until(condition: Any) -> None:
    done = threading.Event()
    for _ in range(500):
        if condition():
            return
        done.wait(0.01)
    raise AssertionError("condition not met in 5 s")
