"""Group commit of the moves on cached rows: the moves that arrive together share one statement.

Under load a single game-service process appends hundreds of moves a second, and a
statement per move costs its own round trip (psycopg's send and wait, the kernel,
PostgreSQL's parse and commit) each time.  Here a caller that finds nothing being
written writes its own move; every other caller puts its move in a pending list and
waits, and one writer loop takes everything pending, writes it with one
``game_store.append_moves`` (one statement, one transaction) and hands each caller its
own answer.  Nothing is acknowledged before PostgreSQL has committed it, and a move
somebody waits for waits for no timer: while one batch is on its way the next one
gathers, so under low load a batch is a single move (the extra cost is a switch to the
loop and back) and under load batches grow by themselves.

A move its players have already seen (``Tables`` shows a move before its write when one
process alone serves the table) is in no hurry: nobody waits for its commit but its own
handler.  Such a move waits up to :data:`GATHER_S` for others to share its statement; a
move somebody does wait for ends the gathering at once.  At a few hundred moves a second
a batch otherwise holds one move, and each statement costs its own parameters, round trip
and commit in this process and in PostgreSQL: with the wait, CPU per move of the game
service with its PostgreSQL and Redis fell by 12 % at 300 tables (``bench.tables``, paired
runs).  The wait widens the window in which a process killed outright loses a move it has
shown from a round trip to :data:`GATHER_S` more; the players' screens then go back to the
stored table, as they do for any move lost that way.

A batch holds at most one move per game (``UPDATE … FROM`` would write only one of
two, unpredictably which); a second move for a game waits for the next batch, where
its expected ``xmin`` no longer matches once the first was written.

``threading`` primitives only: gevent's monkey patching makes them cooperative in the
service (the loop is a greenlet, a caller blocks only its own greenlet), and tests
without gevent get real threads.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from psycopg_pool import ConnectionPool

from shared import game_store
from shared.game_store import MoveAppend

# An upper bound on one statement's size; far above what one process gathers in the
# time of one round trip, so it only matters after a stall (a pool wait, a slow disk).
MAX_BATCH = 512

# How long a move already shown may wait for others to share its statement (see above).
GATHER_S = 0.005


class _Waiting:
    """One caller's move and, once its batch is done, its answer."""

    __slots__ = ("move", "due", "done", "xmin", "error")

    def __init__(self, move: MoveAppend, due: float) -> None:
        self.move = move
        self.due = due  # monotonic time by which its batch should be on its way
        self.done = threading.Event()
        self.xmin: int | None = None
        self.error: BaseException | None = None


class MoveWriter:
    """Appends moves on cached rows for many callers at once; see the module docstring.

    ``loops`` writer loops may each have one batch in flight (a game's moves never in
    two at once).  One is the default: a second loop starts the next batch before the
    first returns, so batches are smaller, i.e. more round trips for the same moves.
    Measured under gevent with 250 tables on one embedded PostgreSQL (this process's
    CPU per move, p50 wait): at ~950 moves/s one loop 254 µs / 2.1 ms against 343 µs /
    3.7 ms for a statement per move; flat out one loop 32 µs, two 61 µs, a statement
    per move 275 µs.  At ~470 moves/s in an otherwise idle process a batch is mostly one
    move and costs about what a statement per move did."""

    def __init__(self, pool: ConnectionPool, loops: int = 1, gather_s: float = GATHER_S) -> None:
        self.pool = pool
        self.loops = loops
        self.gather_s = gather_s
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._pending: list[_Waiting] = []
        self._in_flight: set[int] = set()  # game ids in a batch being written
        self._writing = 0  # batches in flight (at most ``loops``)
        self._running = 0  # loops started and not ended

    def append(self, move: MoveAppend, shown: bool = False) -> int | None:
        """Append ``move`` once its row is committed: the new xmin, or None if the row had changed.

        Raises what the batch's statement raised (``psycopg.OperationalError`` when its
        connection was dead), for every caller of that batch.

        ``shown``: the move's players have seen it already; it may wait :attr:`gather_s`
        for other moves to share its statement.

        When nothing is being written and nothing waits, the caller of a move not shown
        writes its own move (a batch of one) instead of handing it to a loop: under light
        load that saves the switch to the loop and back, and the wait for the loop's turn
        after PostgreSQL answered, on the path every move's round trip takes."""
        gather = shown and self.gather_s > 0
        waiting = _Waiting(move, time.monotonic() + (self.gather_s if gather else 0.0))
        starting = 0
        with self._wake:
            alone = (not gather and not self._pending and self._writing < self.loops
                     and move.game_id not in self._in_flight)
            if alone:
                self._writing += 1
                self._in_flight.add(move.game_id)
            else:
                self._pending.append(waiting)
                # Started lazily: nothing runs in a process (or a test) that never queues.
                starting = self.loops - self._running
                self._running += starting
                self._wake.notify()
        if alone:
            self._write_and_release([waiting])
        else:
            for _ in range(starting):
                threading.Thread(target=self._loop, name="move-writer", daemon=True).start()
            waiting.done.wait()
        if waiting.error is not None:
            raise waiting.error
        return waiting.xmin

    def _loop(self) -> None:
        try:
            while True:
                with self._wake:
                    batch = self._wait_for_batch()
                    self._writing += 1
                    self._in_flight.update(w.move.game_id for w in batch)
                self._write_and_release(batch)
        finally:
            with self._wake:
                self._running -= 1  # only on a kill (GreenletExit): the next append starts another

    def _write_and_release(self, batch: list[_Waiting]) -> None:
        try:
            self._write(batch)
        finally:
            with self._wake:
                self._writing -= 1
                self._in_flight.difference_update(w.move.game_id for w in batch)
                if self._pending:  # waiting for a free slot, or a game's next move for this batch
                    self._wake.notify_all()

    def _wait_for_batch(self) -> list[_Waiting]:
        """Under the lock: the next batch, once a pending move that could be written now
        (a loop free, its game not in flight) is due."""
        while True:
            due = None
            if self._writing < self.loops:
                due = min((w.due for w in self._pending if w.move.game_id not in self._in_flight), default=None)
            wait_s = None if due is None else due - time.monotonic()
            if wait_s is not None and wait_s <= 0:
                return self._take()  # holds at least that move
            self._wake.wait(wait_s)

    def _take(self) -> list[_Waiting]:
        """Everything pending, but one move per game and none of a game in flight (they wait, in order)."""
        batch: list[_Waiting] = []
        later: list[_Waiting] = []
        games: set[int] = set(self._in_flight)
        for waiting in self._pending:
            if waiting.move.game_id in games or len(batch) >= MAX_BATCH:
                later.append(waiting)
            else:
                games.add(waiting.move.game_id)
                batch.append(waiting)
        self._pending = later
        return batch

    def _write(self, batch: list[_Waiting]) -> None:
        try:
            with self.pool.connection() as conn:
                xmins = self._statement(conn, [w.move for w in batch])
        except BaseException as exc:
            for waiting in batch:
                waiting.error = exc
                waiting.done.set()
            if not isinstance(exc, Exception):
                raise  # the loop itself is being stopped
            return
        for waiting in batch:
            waiting.xmin = xmins.get(waiting.move.game_id)
            waiting.done.set()

    @staticmethod
    def _statement(conn: Any, moves: list[MoveAppend]) -> dict[int, int]:
        if conn.autocommit:  # the statement is its own transaction: one round trip
            return game_store.append_moves(conn, moves)
        with conn.transaction():  # a pool without autocommit (tests): commit before anyone hears
            return game_store.append_moves(conn, moves)
