"""The computer's seat at a table: asking a Celery worker for its move, applying the answer.

Requests go through ``shared.ai_protocol.MoveRequester`` (the outstanding request per
table lives in Redis, so any process re-sends one a dead worker never answered).
Answers arrive on the durable stream ``ai:answers``; every game-service process
reads it as a member of one consumer group, so each answer is handled once, and
applies an answer only while the table still stands at the answer's version (the
table's version grows with every change, an undo included, so an answer to a
position that was taken back is stale).  The row lock in ``Tables.move`` re-checks
that, since a duplicate may be applied by another process meanwhile.

An answer is applied by the process that serves its table (whose sockets sit there; the
router sends every socket of a table to one process): the process that reads it from the
stream, if it does not serve the table itself, hands it on over the table's Redis channel
(:meth:`ComputerSeat.forwarded`), and applies it only when no process heard it (nobody at
the table).  Applied anywhere else, the move would be written by a process without the
table's row in its cache and reach the players through Redis, and the owner's next write
would find the row changed and decide again under the row lock.  A forwarded answer that
is lost with its receiver (killed in that instant) is asked for again at its deadline: the
outstanding request stays in Redis until an answer is applied.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import redis

from services.game import table_metrics
from services.game.tables.refusals import TableRefusal
from services.game.tables.table import Settled, Tables
from shared import ai_protocol
from shared.ai_protocol import AnswerInbox, MoveAnswer, MoveRequester
from shared.games import get_game
from shared.schemas.mechanism import ProtocolError

GROUP = "game-service"
RESEND_EVERY_S = 1.0
ANSWER_WAIT_S = 0.5  # the longest wait for the answer stream before the loop comes round
ANSWER_WAIT_MAX_S = 4.0  # however many processes share the rounds: below the answer client's socket timeout
# A request sent again is late already: a second of thinking, not Stark's full budget.
RESEND_BUDGET_S = 1.0

log = logging.getLogger("game.computer")


def computer_to_move(settled: Settled) -> int | None:
    """The computer's seat if it is the computer's turn at a running table."""
    row = settled.row
    if not row.running or row.mode != "computer":
        return None
    to_move = get_game(row.game).to_move(settled.state)
    return next((seat for seat in to_move if row.seats[seat] is None), None)


def _as_answer(request: ai_protocol.MoveRequest) -> MoveAnswer:
    """A request seen as the answer it waits for (same table, version and seat)."""
    return MoveAnswer(request.request_id, request.game, request.table_id, request.ply, request.seat, None,
                      request.deadline, 0.0)


class ComputerSeat:
    def __init__(self, requester: MoveRequester, answers: redis.Redis, consumer: str,
                 serves: Callable[[int], bool] = lambda table_id: True,
                 forward: Callable[[int, str, dict[str, str]], int] | None = None,
                 period: Callable[[float], float] = lambda seconds: seconds) -> None:
        """``serves(table)``: whether this process's sockets sit at the table; ``forward(table,
        entry_id, fields)`` hands an answer to the processes that do and says how many heard it;
        ``period(s)``: how long to wait for the re-sends due every ``s`` (services.game.fleet)."""
        self.requester = requester
        self.period = period
        self.inbox = AnswerInbox(answers, GROUP, consumer)
        self.serves, self.forward = serves, forward
        self._tables: Tables | None = None
        # Tables whose request could not even be recorded (Redis or the broker away at that
        # moment): nothing in Redis knows of them, so this process asks again until it works.
        self.unrequested: set[int] = set()

    def request_after_commit(self, settled: Settled) -> None:
        """``request_if_due`` for a change that is already committed and told: a failure must not
        reach the mover as an error; the table is asked for again from the answer loop."""
        try:
            self.request_if_due(settled)
            self.unrequested.discard(settled.row.id)
        except Exception as exc:  # redis or kombu errors: the store or the broker is away
            self.unrequested.add(settled.row.id)
            log.warning("computer move not requested; will retry", extra={"fields": {
                "table": settled.row.id, "error": repr(exc)}})

    def retry_unrequested(self, tables: Tables) -> None:
        for table_id in sorted(self.unrequested):
            try:
                settled = tables.current(table_id)
            except TableRefusal:
                self.unrequested.discard(table_id)
                continue
            self.request_after_commit(settled)

    def request_if_due(self, settled: Settled) -> None:
        """Ask for the computer's move if it is its turn; otherwise stop waiting for one."""
        row = settled.row
        if row.mode != "computer":
            return
        seat = computer_to_move(settled)
        if seat is None:  # game over, or an undo gave the turn back to the human
            self.requester.forget(str(row.id))
            return
        strength = row.strength or "mittel"
        view = get_game(row.game).view(settled.state, seat)
        self.requester.request(ai_protocol.new_request("move", row.game, row.id, row.version, seat, view,
                                                       strength, ai_protocol.THINK_SECONDS[row.game][strength]))

    def _is_current(self, tables: Tables) -> Callable[[MoveAnswer], bool]:
        def is_current(answer: MoveAnswer) -> bool:
            try:
                settled = tables.current(int(answer.table_id))
            except (TableRefusal, ValueError):
                return False
            return settled.row.version == answer.ply and computer_to_move(settled) == answer.seat

        return is_current

    def _apply(self, tables: Tables) -> Callable[[MoveAnswer], None]:
        def apply(answer: MoveAnswer) -> None:
            table_metrics.COMPUTER_ANSWERS_APPLIED.inc()
            try:
                tables.computer_move(int(answer.table_id), answer.ply, answer.seat, answer.move or "")
            except TableRefusal as exc:
                # Stale after all (another process applied a duplicate) or an illegal answer: drop it.
                log.warning("computer answer dropped", extra={"fields": {"table": answer.table_id,
                                                                        "code": exc.code}})
            self.requester.answered(answer.table_id, answer.ply)

        return apply

    def _elsewhere(self, answer: MoveAnswer) -> bool:
        """Whether the answer's table may be served by another process, not this one."""
        if self.forward is None or not str(answer.table_id).isdigit():
            return False
        return not self.serves(int(answer.table_id))

    def _handed_on(self, answer: MoveAnswer) -> bool:
        """Whether the answer went to the processes serving its table (then it is done here)."""
        if self.forward is None or not self._elsewhere(answer):
            return False
        if self.forward(int(answer.table_id), answer.entry_id, answer.to_fields()) == 0:
            return False
        table_metrics.COMPUTER_ANSWERS_HANDED_ON.inc()
        return True

    def _owner_first(self, tables: Tables) -> tuple[Callable[[MoveAnswer], bool], Callable[[MoveAnswer], None]]:
        """``is_current`` and ``apply`` for answers read from the stream: an answer for a table
        another process serves is handed on unread (that process checks it)."""
        is_current, apply = self._is_current(tables), self._apply(tables)

        def current_or_elsewhere(answer: MoveAnswer) -> bool:
            if self._elsewhere(answer):
                return True  # decided by apply: handed on, or checked here if nobody serves the table
            return is_current(answer)

        def apply_where_served(answer: MoveAnswer) -> None:
            if self._handed_on(answer):
                return
            if not is_current(answer):
                return
            apply(answer)

        return current_or_elsewhere, apply_where_served

    def forwarded(self, entry_id: str, fields: dict[str, str]) -> None:
        """An answer another process read from the stream, for a table this process serves."""
        tables = self._tables
        if tables is None:
            return
        try:
            answer = MoveAnswer.from_fields(entry_id, fields)
        except ProtocolError:
            return
        if answer.move is None:
            return
        try:
            if self._is_current(tables)(answer):
                self._apply(tables)(answer)
        except Exception as exc:  # asked for again at its deadline (the request stays in Redis)
            log.warning("forwarded computer answer failed", extra={"fields": {"table": answer.table_id,
                                                                              "error": repr(exc)}})

    def run(self, tables: Tables, sleep: Callable[[float], None], failed: Callable[[Exception], None]) -> None:
        """Consume answers forever; re-send requests a silent worker never answered."""
        self._tables = tables
        is_current = self._is_current(tables)
        is_current_here, apply = self._owner_first(tables)
        next_resend = 0.0
        while True:
            try:
                self.inbox.ensure_group()
                while True:
                    # An answer ends the wait at once; the wait only bounds the rounds of re-sends.
                    self.inbox.poll(is_current_here, apply, block_ms=int(min(self.period(ANSWER_WAIT_S), ANSWER_WAIT_MAX_S) * 1000))
                    if time.monotonic() >= next_resend:
                        self.retry_unrequested(tables)
                        self.inbox.claim_abandoned(is_current_here, apply)
                        self.requester.resend_overdue(
                            RESEND_BUDGET_S,
                            still_wanted=lambda req: is_current(_as_answer(req)))
                        next_resend = time.monotonic() + self.period(RESEND_EVERY_S)
            except Exception as exc:
                failed(exc)
                sleep(1.0)
