"""services.game.tables.move_writer against a real PostgreSQL: many callers, one statement, each its own answer."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from services.game.tables.move_writer import MoveWriter
from shared import db, game_store
from shared.game_store import GameRow, MoveAppend
from tests.stack import Infra
from tests.table_rows import move_append, running_game, tables_pool


@pytest.fixture
def pool(infra: Infra) -> Iterator[ConnectionPool]:
    """Like the game service's tables pool, with one connection (so a test can hold the writer back)."""
    pool = tables_pool(infra.database_url, max_size=1)
    yield pool
    pool.close()


def _games(infra: Infra, n: int) -> list[GameRow]:
    setup = db.make_pool(infra.database_url, max_size=1)  # the writer's pool has one connection, for the writer
    try:
        return [running_game(setup, clock={"base_ms": 60_000, "inc_ms": 0}) for _ in range(n)]
    finally:
        setup.close()


def _move(row: GameRow, text: str) -> MoveAppend:
    return move_append(row, text, 0)


def _held_back(pool: ConnectionPool, writer: MoveWriter, first: MoveAppend, rest: list[MoveAppend],
               append: Callable[[MoveAppend], Any] | None = None) -> list[Any]:
    """Each move appended from a thread of its own while the pool's only connection is held.

    ``first`` finds nothing being written, so its caller writes it (a batch of just that
    move) and waits for the connection; ``rest`` all gather meanwhile, so the writer
    loop takes them as the next batch.
    Returns each move's answer (or exception), ``first`` first."""
    answers: list[Any] = [None] * (1 + len(rest))

    def run(i: int, move: MoveAppend) -> None:
        try:
            answers[i] = (append or writer.append)(move)
        except Exception as exc:  # noqa: BLE001 - the answer under test
            answers[i] = exc

    threads = [threading.Thread(target=run, args=(i, m), daemon=True) for i, m in enumerate([first, *rest])]
    with pool.connection():
        threads[0].start()
        _until(lambda: writer._writing == 1)  # first is being written and waits for the connection
        for thread in threads[1:]:
            thread.start()
        _until(lambda: len(writer._pending) == len(rest))
    for thread in threads:
        thread.join(timeout=10)
    return answers


def _until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 5
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.002)


def test_moves_that_arrive_together_share_a_statement_and_one_move_per_game_wins(infra: Infra, pool) -> None:  # noqa: ANN001
    first, *rows = _games(infra, 5)
    twin = rows[0]
    writer = MoveWriter(pool)
    moves = [_move(row, f"m{i}") for i, row in enumerate(rows)] + [_move(twin, "twin")]
    answers = _held_back(pool, writer, _move(first, "first"), moves)
    assert all(isinstance(a, int) for a in answers[:-1]) and answers[-1] is None  # the twin's row had moved on
    # The four games in one transaction (one statement); the twin in a batch after theirs.
    assert len(set(answers[1:-1])) == 1 and answers[0] != answers[1]
    with pool.connection() as conn:
        stored = {row.id: game_store.load(conn, row.id) for row in [first, *rows]}
    assert stored[twin.id].moves == ["m0"] and stored[twin.id].version == 1  # type: ignore[union-attr]
    for row, answer in zip([first, *rows], answers, strict=False):
        assert stored[row.id].xmin == answer and len(stored[row.id].moves) == 1  # type: ignore[union-attr]


def test_two_moves_for_one_game_from_many_threads_exactly_one_is_written(infra: Infra, pool) -> None:  # noqa: ANN001
    rows = _games(infra, 4)
    writer = MoveWriter(pool, loops=2)
    moves = [_move(row, "a") for row in rows] + [_move(rows[0], "b"), _move(rows[1], "b")]
    start = threading.Barrier(len(moves))
    answers: dict[int, int | None] = {}

    def run(i: int) -> None:
        start.wait()
        answers[i] = writer.append(moves[i])

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(moves))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert len(answers) == len(moves)
    with pool.connection() as conn:
        for i, row in enumerate(rows):
            stored = game_store.load(conn, row.id)
            assert stored is not None
            won = [j for j, m in enumerate(moves) if m.game_id == row.id and answers[j] is not None]
            assert len(won) == 1 and stored.moves == [moves[won[0]].move] and stored.xmin == answers[won[0]], i


def test_a_failed_statement_fails_every_move_of_its_batch(infra: Infra, pool) -> None:  # noqa: ANN001
    first, good, bad = _games(infra, 3)
    writer = MoveWriter(pool)
    out_of_range = dataclasses.replace(_move(bad, "x"), spent_ms=2**40)  # move_times is integer[]
    answers = _held_back(pool, writer, _move(first, "first"), [_move(good, "g"), out_of_range])
    assert isinstance(answers[0], int)
    assert isinstance(answers[1], psycopg.DataError) and answers[2] is answers[1]
    with pool.connection() as conn:
        assert game_store.load(conn, good.id).moves == []  # type: ignore[union-attr]
    assert isinstance(writer.append(_move(good, "again")), int)  # the writer goes on


def test_moves_already_shown_wait_for_each_other_and_share_a_statement(infra: Infra, pool) -> None:  # noqa: ANN001
    rows = _games(infra, 3)
    writer = MoveWriter(pool, gather_s=1.0)  # long enough for all three threads to arrive on a busy machine
    start = threading.Barrier(len(rows))
    answers: dict[int, int | None] = {}

    def run(i: int) -> None:
        start.wait()
        answers[i] = writer.append(_move(rows[i], "a"), shown=True)

    began = time.monotonic()
    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(rows))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert time.monotonic() - began >= 1.0  # the first waited its window out: nothing else asked for a write
    assert len(answers) == 3 and None not in answers.values()
    assert len(set(answers.values())) == 1  # one transaction wrote all three
    with pool.connection() as conn:
        assert all(game_store.load(conn, row.id).moves == ["a"] for row in rows)  # type: ignore[union-attr]


def test_a_move_nobody_has_seen_yet_ends_the_gathering_at_once(infra: Infra, pool) -> None:  # noqa: ANN001
    shown_row, waiting_row = _games(infra, 2)
    writer = MoveWriter(pool, gather_s=30)
    answers: list[Any] = []
    shown = threading.Thread(target=lambda: answers.append(writer.append(_move(shown_row, "s"), shown=True)),
                             daemon=True)
    shown.start()
    _until(lambda: len(writer._pending) == 1)
    began = time.monotonic()
    urgent = writer.append(_move(waiting_row, "w"))
    shown.join(timeout=10)
    assert time.monotonic() - began < 5  # not the shown move's 30 s
    assert answers == [urgent] and isinstance(urgent, int)  # both in one statement
