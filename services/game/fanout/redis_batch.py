"""The Redis commands of many table changes in one round trip.

Every committed change publishes its states and moves its flag deadline in Redis.
One pipeline per change cost a round trip each, and redis-py's per-call work
(a connection taken from the pool and given back, the send, the wait) was a fifth
of the game service's CPU at 500 concurrent games (py-spy under bench/tables.py).
Changes now hand their commands to one writer, which sends whatever has gathered
since its last round trip as a single pipeline: one command batch per change under
light load, many under heavy load, never a deliberate delay.

Nobody waits for Redis here: the players on this process already have their states
(the queue emits locally first), and what a change needs from the answers (a failure
to report, a spectator to serve) runs as its ``then`` afterwards, in the writer.
One writer keeps the order: a table's messages are published in the order of its
changes.

Since nobody waits, the writer also spaces its round trips at least
:data:`SPACING_S` apart: a change after a quiet spell goes out at once, and under load
each round trip carries everything of the last few milliseconds.  On this machine a
send to Redis costs about 0.2 ms of kernel time whatever it carries (it wakes Redis,
and Redis's answer wakes this process's listener with its own messages back), which
made the per-change round trips a fifth of the process's CPU at 250 games.  Only a
player served by another process waits the few milliseconds more.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from redis.client import Pipeline

log = logging.getLogger("game.redis_batch")

SPACING_S = 0.005

Then = Callable[[list[Any] | None], None]


class RedisBatch:
    """Gathers ``(add, then)`` pairs; one pipeline sends everything gathered."""

    def __init__(self, client: Callable[[], Any], reconnect: Callable[[], None] = lambda: None,
                 spacing_s: float = SPACING_S) -> None:
        """``client()`` gives the Redis client to pipeline on; ``reconnect()`` replaces it
        after a failed round trip (the queue's own reconnect)."""
        self._client = client
        self._spacing_s = spacing_s
        self._reconnect = reconnect
        self._pending: list[tuple[Callable[[Pipeline], None], Then | None]] = []
        self._wake = threading.Event()
        self._writer: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, add: Callable[[Pipeline], None], then: Then | None = None) -> None:
        """``add(pipe)`` puts a change's commands into the next pipeline; ``then`` gets their
        answers (None: Redis could not be reached, after one reconnect)."""
        with self._lock:
            self._pending.append((add, then))
            if self._writer is None:
                self._writer = threading.Thread(target=self._run, name="redis-batch", daemon=True)
                self._writer.start()
        self._wake.set()

    def _run(self) -> None:
        sent_at = 0.0
        while True:
            self._wake.wait()
            rest = sent_at + self._spacing_s - time.monotonic()
            if rest > 0:
                time.sleep(rest)  # what arrives meanwhile goes along
            sent_at = time.monotonic()
            with self._lock:
                self._wake.clear()
                batch, self._pending = self._pending, []
            if batch:
                try:
                    self._send(batch)
                except Exception:  # the writer must outlive any one batch
                    log.exception("redis batch failed")

    def _send(self, batch: list[tuple[Callable[[Pipeline], None], Then | None]]) -> None:
        answers: list[Any] | None = None
        spans: list[tuple[int, int]] = []
        for attempt in (1, 2):
            try:
                pipe = self._client().pipeline(transaction=False)
                spans = []
                for add, _then in batch:
                    start = len(pipe.command_stack)
                    add(pipe)
                    spans.append((start, len(pipe.command_stack)))
                answers = pipe.execute(raise_on_error=False)
                break
            except Exception as exc:
                log.warning("cannot send to redis", extra={"fields": {"error": repr(exc), "attempt": attempt,
                                                                     "changes": len(batch)}})
                answers = None
                try:
                    self._reconnect()
                except Exception as again:
                    log.warning("cannot reconnect to redis", extra={"fields": {"error": repr(again)}})
        for i, (_add, then) in enumerate(batch):
            if then is None:
                continue
            try:
                # Without answers no spans are needed (a failed attempt may have left them half built).
                then(None if answers is None else answers[spans[i][0]:spans[i][1]])
            except Exception:
                log.exception("after a redis batch")
