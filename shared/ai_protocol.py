"""Asking the computer for a move and receiving the answer (game service ↔ AI worker).

The path of a computer move::

    game service                      Celery queue "interactive"        AI worker
    MoveRequester.request(req) ──────► ai.move(req.to_dict()) ─────────► PLAYER.choose_move(view, …)
    AnswerInbox.poll(...)      ◄────── Redis Stream "ai:answers" ◄────── XADD MoveAnswer

* The request carries the **wall-clock** deadline (epoch seconds): worker and game
  service are different processes, possibly different machines, so a monotonic
  value means nothing across them.  The worker turns it into a monotonic deadline
  minus :data:`WORKER_SAFETY_MARGIN` and :data:`WORKER_SAFETY_SHARE` of the time left; ``expires`` on the Celery message drops a
  request nobody picked up before its deadline.
* Every answer names ``(table_id, ply, request_id)``.  The receiver applies it only
  when the table still stands at that ply (``is_current``); an answer for a table that
  moved on (a duplicate, a late answer after a re-request, a takeback) is dropped.
* Answers travel on a Redis Stream with a consumer group, not on pub/sub: a lost
  computer move would stall the game.  An entry is acknowledged only after the game
  service applied (or dropped) it; a game-service process that dies leaves its
  entries pending, and another one claims them after ``claim_idle_ms``.
* A worker that dies while it searches: a killed prefork *child* is noticed at once
  and the task is requeued (``task_reject_on_worker_lost``).  A killed *whole* worker
  leaves the message unacknowledged in Redis until the broker's visibility timeout
  (an hour, see ``services/ai_worker/app.py``), far too late for a player.  So the
  requester owns the guarantee: :class:`MoveRequester` keeps every outstanding request
  in Redis and :meth:`MoveRequester.resend_overdue` sends a fresh request (new
  ``request_id``, new deadline) for each one not answered by deadline +
  :data:`REREQUEST_GRACE`.  Duplicate answers are harmless: the first applied moves
  the table on and the rest are stale.
* Hints (``ai.hint``, a human seat asking for the strong level's move) are delivered
  only to the asking account's Socket.IO room ``user:<uid>`` as event ``ai_hint``
  ({request_id, table_id, ply, move, value}); a lost hint costs a click, so it does
  not use the stream.  The worker also keeps the answer under :data:`HINT_KEY`, so a
  Tipp asked for again at the same table version is that answer, not a new search.

Requests and answers are checked against their records in ``shared.schemas.ai_messages``
(the one mechanism of every message); a malformed one raises its ``ProtocolError``.

This module is free of gevent and of Celery imports: the game service passes a
``send`` function (``services.ai_worker.app.app.send_task`` bound in
:func:`celery_sender`).
"""

from __future__ import annotations

import datetime as dt
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import redis

from shared.schemas.mechanism import ProtocolError, validate_record

ANSWER_STREAM = "ai:answers"
ANSWER_STREAM_MAXLEN = 100_000  # approximate trim; answers are consumed within seconds
OUTSTANDING_KEY = "ai:outstanding"  # hash table_id -> request JSON of the awaited move
# One Tipp per table version: its answer ({request_id, table_id, ply, seat, move, value},
# JSON) under this key, or HINT_PENDING while the strong computer searches (services.game.solo.hint).
HINT_KEY = "ai:hint:{table_id}:{ply}"
HINT_PENDING = "pending"
HINT_ANSWER_TTL_S = 3600  # a table version outlives this only while its player is away
TASK_NAMES = {"move": "ai.move", "hint": "ai.hint"}

# The worker stops searching this long before the deadline, for delivery, plus
# WORKER_SAFETY_SHARE of the time left when it starts: on a loaded machine the worker
# process is not scheduled for a while now and then (measured through Celery, Battlebullet
# Stark at 1.8 s, load 6–11: single stalls of 0.1–0.5 s in search, pickup and the way back),
# and a share keeps the answer within budget + 10 % at any budget.
WORKER_SAFETY_MARGIN = 0.05
WORKER_SAFETY_SHARE = 0.06
# Every answer reaches the stream by deadline + this (tested through real workers on
# a loaded 2-core machine; the worker's own share is WORKER_SAFETY_MARGIN or less).
DELIVERY_MARGIN = 0.35
# Seconds a computer seat may think per move.  Stark's are the seeds' words: Battlehexagon
# "in gut einer Sekunde", Battlebullet "in knapp zwei Sekunden"; Battlegeneral and
# Battlehanse sample positions for 1.5 s.  Leicht and Mittel stop at their fixed depth
# long before; their budget only bounds them on a loaded machine.
THINK_SECONDS = {
    "hexagon": {"leicht": 0.3, "mittel": 1.0, "stark": 1.0},
    "bullet": {"leicht": 0.3, "mittel": 1.0, "stark": 1.8},
    "general": {"leicht": 0.3, "mittel": 1.0, "stark": 1.5},
    "hanse": {"leicht": 0.3, "mittel": 1.0, "stark": 1.5},
}
# A request still unanswered this long after its deadline is sent again.
REREQUEST_GRACE = 1.0
# A re-request gets at least this much time, however late it is sent.
MIN_BUDGET = 0.1


@dataclass(frozen=True)
class MoveRequest:
    """What the worker needs to move (or hint) for one seat of one table."""

    request_id: str
    kind: str  # "move" (a computer seat) or "hint" (the strong level's move for a human seat)
    game: str
    table_id: str
    ply: int  # the table's version the view belongs to; answers for another ply are stale
    seat: int
    strength: str
    view: dict[str, Any]  # exactly GAME.view(state, seat)
    deadline: float  # epoch seconds
    user_id: int | None = None  # hints: the asking account (Socket.IO room user:<id>)
    attempt: int = 1  # 2, 3 … for re-requests after a silent worker

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> MoveRequest:
        """The request in a task's argument; :class:`ProtocolError` when it is not one."""
        checked = validate_record("MoveRequest", data)
        if checked["seat"] not in (0, 1):
            raise ProtocolError("not_allowed_value", field="seat", allowed="0, 1")
        if checked["kind"] == "hint" and checked["user_id"] is None:
            raise ProtocolError("missing_field", field="user_id")  # a hint goes to the asking account
        return cls(**{**checked, "table_id": str(checked["table_id"]), "deadline": float(checked["deadline"]),
                      "attempt": 1 if checked["attempt"] is None else checked["attempt"]})


def new_request(kind: str, game: str, table_id: str | int, ply: int, seat: int, view: dict[str, Any],
                strength: str, budget: float, user_id: int | None = None, attempt: int = 1) -> MoveRequest:
    """A request with a fresh id whose deadline is ``budget`` seconds from now."""
    return MoveRequest(uuid.uuid4().hex, kind, game, str(table_id), ply, seat, strength, view,
                       time.time() + budget, user_id, attempt)


@dataclass(frozen=True)
class MoveAnswer:
    """The worker's answer on :data:`ANSWER_STREAM`.  ``move`` is None only with ``error``."""

    request_id: str
    game: str
    table_id: str
    ply: int
    seat: int
    move: str | None
    deadline: float  # the request's deadline (epoch seconds)
    answered_at: float  # epoch seconds when the worker wrote the answer
    worker: str = ""  # host:pid, for logs
    attempt: int = 1
    error: dict[str, str] | None = None  # {"code", "de", "en"} when no move could be made
    stats: dict[str, float] | None = None  # search_ms, and nodes / depth when the player reports them
    entry_id: str = field(default="", compare=False)  # the stream entry (set when read)

    def to_fields(self) -> dict[str, str]:
        data = asdict(self)
        data.pop("entry_id")
        return {"answer": json.dumps(data, separators=(",", ":"))}

    @classmethod
    def from_fields(cls, entry_id: str, fields: dict[str, str]) -> MoveAnswer:
        """The answer in a stream entry; :class:`ProtocolError` when it is not one."""
        try:
            data = json.loads(fields["answer"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolError("bad_json") from exc
        checked = validate_record("MoveAnswer", data)  # fields a newer worker adds are dropped
        return cls(**{**checked, "worker": checked["worker"] or "",
                      "attempt": 1 if checked["attempt"] is None else checked["attempt"]}, entry_id=entry_id)


def celery_sender(app: Any) -> Callable[[MoveRequest], None]:
    """``send(request)`` through Celery app ``app`` (queue by the app's routes).

    ``expires`` is half the re-request grace after the deadline: a message picked up a
    little late still answers at once (a player past its deadline returns its cheapest
    legal move), while one still queued then is dropped before the requester's re-request
    takes over, so the two never both search.
    """

    def send(request: MoveRequest) -> None:
        # A datetime: Celery reads a number as seconds from now, not as an epoch.
        expires = dt.datetime.fromtimestamp(request.deadline + REREQUEST_GRACE / 2, tz=dt.UTC)
        app.send_task(TASK_NAMES[request.kind], args=[request.to_dict()], expires=expires,
                      task_id=request.request_id)

    return send


class MoveRequester:
    """Sends computer-move requests and re-sends the ones a dead worker never answered.

    The outstanding request per table lives in Redis (hash :data:`OUTSTANDING_KEY`), so
    any game-service process can re-send after another one restarted.  Call
    :meth:`resend_overdue` periodically (e.g. every 0.5 s) and :meth:`answered` when an
    answer was applied.
    """

    def __init__(self, client: redis.Redis, send: Callable[[MoveRequest], None],
                 grace: float = REREQUEST_GRACE, key: str = OUTSTANDING_KEY) -> None:
        self.redis = client
        self.send = send
        self.grace = grace
        # Requesters that share a hash also share the duty to drop tables they do not
        # know; one that drives tables of its own (tests, benchmarks) needs its own hash.
        self.key = key

    def request(self, request: MoveRequest) -> MoveRequest:
        if request.kind != "move":
            # Only computer moves are tracked; hints are sent directly.
            raise ProtocolError("not_allowed_value", field="kind", allowed="move")
        self.redis.hset(self.key, request.table_id, json.dumps(request.to_dict()))
        self.send(request)
        return request

    def answered(self, table_id: str, ply: int) -> None:
        """Forget the outstanding request of ``table_id`` if it was for ``ply``."""
        raw = self.redis.hget(self.key, table_id)
        if raw is not None and json.loads(raw)["ply"] == ply:
            self.redis.hdel(self.key, table_id)

    def _drop_if_same(self, request: MoveRequest) -> None:
        raw = self.redis.hget(self.key, request.table_id)
        if raw is not None and json.loads(raw)["request_id"] == request.request_id:
            self.redis.hdel(self.key, request.table_id)

    def outstanding(self) -> list[MoveRequest]:
        return [MoveRequest.from_dict(json.loads(raw)) for raw in self.redis.hvals(self.key)]

    def forget(self, table_id: str) -> None:
        """Stop waiting for ``table_id`` (game over, human took the seat back …)."""
        self.redis.hdel(self.key, table_id)

    def resend_overdue(self, budget: float, now: float | None = None,
                       still_wanted: Callable[[MoveRequest], bool] | None = None) -> list[MoveRequest]:
        """Send a fresh request (``budget`` seconds, at least :data:`MIN_BUDGET`) for every
        outstanding one unanswered by its deadline + grace; return the new requests.

        ``still_wanted(request)`` (the table still stands at ``request.ply`` with the
        computer to move) lets the caller drop requests whose table moved on without a
        computer move, so they are not re-sent forever.
        """
        now = time.time() if now is None else now
        sent = []
        for old in self.outstanding():
            if old.deadline + self.grace > now:
                continue
            if still_wanted is not None and not still_wanted(old):
                self._drop_if_same(old)
                continue
            fresh = new_request("move", old.game, old.table_id, old.ply, old.seat, old.view, old.strength,
                                max(budget, MIN_BUDGET), attempt=old.attempt + 1)
            # Replace only if nobody else re-sent or answered meanwhile (several processes poll).
            with self.redis.pipeline() as pipe:
                try:
                    pipe.watch(self.key)
                    current = pipe.hget(self.key, old.table_id)
                    if current is None or json.loads(current)["request_id"] != old.request_id:
                        pipe.unwatch()
                        continue
                    pipe.multi()
                    pipe.hset(self.key, old.table_id, json.dumps(fresh.to_dict()))
                    pipe.execute()
                except redis.WatchError:
                    continue
            self.send(fresh)
            sent.append(fresh)
        return sent


@dataclass
class PollResult:
    applied: list[MoveAnswer] = field(default_factory=list)
    stale: list[MoveAnswer] = field(default_factory=list)
    failed: list[MoveAnswer] = field(default_factory=list)  # apply raised; entry stays pending


class AnswerInbox:
    """One member of consumer group ``group`` on :data:`ANSWER_STREAM`.

    ``poll(is_current, apply)``: for each answer, ``is_current(answer)`` says whether its
    table still stands at ``answer.ply`` with ``answer.seat`` to move; if so
    ``apply(answer)`` plays it (it must re-check the ply inside its own transaction:
    another process may have applied a duplicate meanwhile).  Stale answers are
    acknowledged and dropped; an answer whose ``apply`` raised stays pending and is
    retried by :meth:`claim_abandoned`.
    """

    def __init__(self, client: redis.Redis, group: str, consumer: str, stream: str = ANSWER_STREAM,
                 claim_idle_ms: int = 10_000) -> None:
        if client.get_connection_kwargs().get("decode_responses") is not True:
            raise ValueError("AnswerInbox needs a redis client with decode_responses=True")
        self.redis = client
        self.group = group
        self.consumer = consumer
        self.stream = stream
        self.claim_idle_ms = claim_idle_ms
        self._pending_checked = False

    def ensure_group(self) -> None:
        try:
            # "$": answers written before the group existed belong to nobody's table.
            self.redis.xgroup_create(self.stream, self.group, id="$", mkstream=True)
        except redis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    def _handle(self, entries: list, is_current: Callable[[MoveAnswer], bool],
                apply: Callable[[MoveAnswer], None], result: PollResult) -> None:
        for entry_id, fields in entries:
            if not fields:  # trimmed while pending
                self.redis.xack(self.stream, self.group, entry_id)
                continue
            try:
                answer = MoveAnswer.from_fields(entry_id, fields)
            except ProtocolError:
                self.redis.xack(self.stream, self.group, entry_id)
                continue
            if answer.move is None or not is_current(answer):
                result.stale.append(answer)
                self.redis.xack(self.stream, self.group, entry_id)
                continue
            try:
                apply(answer)
            except Exception:
                result.failed.append(answer)
                continue
            result.applied.append(answer)
            self.redis.xack(self.stream, self.group, entry_id)

    def claim_abandoned(self, is_current: Callable[[MoveAnswer], bool], apply: Callable[[MoveAnswer], None],
                        result: PollResult | None = None) -> PollResult:
        """Handle entries left pending (by a dead consumer or a failed apply) for ``claim_idle_ms``."""
        result = result or PollResult()
        cursor = "0-0"
        while True:
            cursor, entries, *_ = self.redis.xautoclaim(self.stream, self.group, self.consumer,
                                                        min_idle_time=self.claim_idle_ms, start_id=cursor, count=50)
            self._handle(entries, is_current, apply, result)
            if cursor == "0-0":
                return result

    def poll(self, is_current: Callable[[MoveAnswer], bool], apply: Callable[[MoveAnswer], None],
             block_ms: int = 500) -> PollResult:
        """Handle this consumer's own pending entries (once, after a restart), then new ones."""
        result = PollResult()
        if not self._pending_checked:
            reply = self.redis.xreadgroup(self.group, self.consumer, {self.stream: "0"}, count=100)
            self._handle(reply[0][1] if reply else [], is_current, apply, result)
            self._pending_checked = True
        reply = self.redis.xreadgroup(self.group, self.consumer, {self.stream: ">"}, count=50, block=block_ms)
        for _stream, entries in reply or []:
            self._handle(entries, is_current, apply, result)
        return result


def publish_answer(client: redis.Redis, answer: MoveAnswer) -> str:
    """XADD ``answer`` to the stream (worker side); returns the entry id."""
    return client.xadd(ANSWER_STREAM, answer.to_fields(), maxlen=ANSWER_STREAM_MAXLEN, approximate=True)


def hint_key(table_id: int | str, ply: int) -> str:
    """The Redis key of the Tipp for table ``table_id`` at version ``ply``."""
    return HINT_KEY.format(table_id=table_id, ply=ply)
