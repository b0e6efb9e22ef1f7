"""Consuming the durable event stream: at-least-once delivery, exactly-once effect.

A service reads ``shared.outbox.EVENT_STREAM`` through its own consumer group (the
rating service's group is ``rating``), so every group sees every event.  For each
entry:

    BEGIN; INSERT INTO processed_events (consumer, event_id) ON CONFLICT DO NOTHING;
    if the row is new: run the handler for the event type on the same connection;
    COMMIT; then XACK.

A crash before COMMIT rolls everything back and leaves the entry pending; a crash
after COMMIT but before XACK redelivers an entry whose effect is already recorded,
which the INSERT turns into a no-op.  Pending entries are re-read when a consumer
of the same name restarts (XREADGROUP from id 0) and taken over with XAUTOCLAIM
once they have been idle longer than ``claim_idle_ms`` on a consumer that died.
An entry delivered more than ``MAX_DELIVERIES`` times (its handler keeps failing)
is moved to ``<stream>:dead`` so it cannot block the group forever.

``processed_events`` would grow forever, so each consumer deletes its group's rows older
than the retention (``EVENT_RETENTION_DAYS``, 30) once an hour.  A pruned id must never
be applied again, and redelivery cannot bring one back in practice: an entry is re-read
only while it is pending (acknowledged right after its COMMIT; a dead consumer's entries
are claimed after ``claim_idle_ms``; a failing one is dead-lettered after
``MAX_DELIVERIES``), the outbox publishes a row twice only within a relay pass, and a
group re-created from the stream's start (Redis lost the group but kept the stream)
re-reads at most the ``STREAM_MAXLEN`` newest entries.  So that a re-read can never
apply an old event, whatever the cause, an event older than the retention is not
applied but dead-lettered; rows are pruned only a day after that (clocks of the hosts).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import psycopg
import redis
from psycopg_pool import ConnectionPool

from shared.logs import event as log_event
from shared.outbox import EVENT_STREAM

MAX_DELIVERIES = 10
# Consumers that have nothing pending and were idle this long are from processes
# long gone (names include the pid); drop them so the group's list stays readable.
STALE_CONSUMER_MS = 24 * 3600 * 1000
DEFAULT_RETENTION_S = 30 * 86400
PRUNE_EVERY_S = 3600
PRUNE_MARGIN_S = 86400


@dataclass(frozen=True)
class StreamEvent:
    event_id: str
    type: str
    payload: dict[str, Any]
    created_at: str
    entry_id: str


Handler = Callable[[psycopg.Connection, StreamEvent], None]


def parse_entry(entry_id: str, fields: Mapping[str, str]) -> StreamEvent | None:
    """The event in a stream entry, or None when the entry is not a well-formed event."""
    try:
        payload = json.loads(fields["payload"])
        if not isinstance(payload, dict):
            return None
        return StreamEvent(fields["event_id"], fields["type"], payload, fields.get("created_at", ""), entry_id)
    except (KeyError, TypeError, ValueError):
        return None


class EventConsumer:
    """One member of consumer group ``group`` applying ``handlers`` (event type → handler)."""

    def __init__(
        self,
        pool: ConnectionPool,
        client: redis.Redis,
        group: str,
        consumer: str,
        handlers: Mapping[str, Handler],
        claim_idle_ms: int = 60_000,
        block_ms: int = 1000,
        stream: str = EVENT_STREAM,
        inside_transaction: Callable[[StreamEvent], None] | None = None,
        retention_s: float = DEFAULT_RETENTION_S,
    ) -> None:
        if client.get_connection_kwargs().get("decode_responses") is not True:
            raise ValueError("EventConsumer needs a redis client with decode_responses=True")
        self.pool = pool
        self.redis = client
        self.group = group
        self.consumer = consumer
        self.handlers = handlers
        self.claim_idle_ms = claim_idle_ms
        self.block_ms = block_ms
        self.stream = stream
        self.retention_s = retention_s
        # Called after the handler, before COMMIT; lets a test hold an event mid-transaction.
        self.inside_transaction = inside_transaction
        self.log = logging.getLogger(f"events.{group}")

    # -- set-up -----------------------------------------------------------------

    def ensure_group(self) -> None:
        """Create the group (reading the stream from its beginning) unless it exists."""
        try:
            self.redis.xgroup_create(self.stream, self.group, id="0", mkstream=True)
        except redis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    def forget_stale_consumers(self) -> None:
        for info in self.redis.xinfo_consumers(self.stream, self.group):
            if info["pending"] == 0 and info["idle"] > STALE_CONSUMER_MS and info["name"] != self.consumer:
                self.redis.xgroup_delconsumer(self.stream, self.group, info["name"])

    # -- one entry --------------------------------------------------------------

    def handle(self, entry_id: str, fields: Mapping[str, str]) -> bool:
        """Apply one entry exactly once and acknowledge it; False if it stays pending."""
        event = parse_entry(entry_id, fields)
        if event is None:
            self._dead_letter(entry_id, fields, "malformed entry")
            return True
        if self._too_old(event):
            # Its processed_events row may be pruned already: applying it could apply it twice.
            self._dead_letter(entry_id, fields, "older than the retention of processed_events")
            return True
        handler = self.handlers.get(event.type)
        if handler is not None:
            try:
                with self.pool.connection() as conn, conn.transaction():
                    inserted = conn.execute(
                        "INSERT INTO processed_events (consumer, event_id, type) VALUES (%s, %s, %s)"
                        " ON CONFLICT DO NOTHING RETURNING event_id",
                        (self.group, event.event_id, event.type),
                    ).fetchone()
                    if inserted is not None:
                        handler(conn, event)
                        if self.inside_transaction is not None:
                            self.inside_transaction(event)
                    else:
                        log_event(self.log, "duplicate event ignored", event_id=event.event_id, type=event.type)
            except Exception:
                self.log.exception("event handler failed; entry stays pending", extra={
                    "fields": {"event_id": event.event_id, "type": event.type, "entry_id": entry_id}})
                return False
            if inserted is not None:
                log_event(self.log, "event applied", event_id=event.event_id, type=event.type, entry_id=entry_id)
        self.redis.xack(self.stream, self.group, entry_id)
        return True

    def _too_old(self, event: StreamEvent) -> bool:
        try:
            created = dt.datetime.fromisoformat(event.created_at)
        except ValueError:
            return False  # the outbox always writes it; entries without one are tests' own
        if created.tzinfo is None:
            created = created.replace(tzinfo=dt.UTC)
        return dt.datetime.now(dt.UTC) - created > dt.timedelta(seconds=self.retention_s)

    def prune_processed(self) -> int:
        """Delete this group's ``processed_events`` rows past the retention (and a day's margin); return how many."""
        with self.pool.connection() as conn:
            return conn.execute(
                "DELETE FROM processed_events WHERE consumer = %s AND processed_at < now() - make_interval(secs => %s)",
                (self.group, self.retention_s + PRUNE_MARGIN_S)).rowcount

    def _dead_letter(self, entry_id: str, fields: Mapping[str, str], reason: str) -> None:
        self.redis.xadd(f"{self.stream}:dead", {**fields, "entry_id": entry_id, "group": self.group, "reason": reason})
        self.redis.xack(self.stream, self.group, entry_id)
        self.log.error("event moved to dead-letter stream", extra={"fields": {"entry_id": entry_id, "reason": reason}})

    # -- reading ----------------------------------------------------------------

    def drain_own_pending(self) -> int:
        """Re-read entries delivered to this consumer name before a restart; return how many were handled."""
        handled = 0
        start = "0"
        while True:
            reply = self.redis.xreadgroup(self.group, self.consumer, {self.stream: start}, count=50)
            entries = reply[0][1] if reply else []
            if not entries:
                return handled
            for entry_id, fields in entries:
                if not fields:  # trimmed from the stream while pending: nothing left to apply
                    self.redis.xack(self.stream, self.group, entry_id)
                elif self.handle(entry_id, fields):
                    handled += 1
            last = entries[-1][0]
            if start == last:
                return handled
            start = last

    def claim_abandoned(self) -> int:
        """Take over entries idle longer than ``claim_idle_ms`` (their consumer died); handle them."""
        handled = 0
        cursor = "0-0"
        while True:
            reply = self.redis.xautoclaim(
                self.stream, self.group, self.consumer, min_idle_time=self.claim_idle_ms, start_id=cursor, count=50
            )
            cursor, entries = reply[0], reply[1]
            for entry_id, fields in entries:
                if not fields:
                    continue
                if self._delivery_count(entry_id) > MAX_DELIVERIES:
                    self._dead_letter(entry_id, fields, f"delivered more than {MAX_DELIVERIES} times")
                    continue
                if self.handle(entry_id, fields):
                    handled += 1
            if cursor == "0-0":
                return handled

    def _delivery_count(self, entry_id: str) -> int:
        info = self.redis.xpending_range(self.stream, self.group, min=entry_id, max=entry_id, count=1)
        return int(info[0]["times_delivered"]) if info else 0

    def read_new(self) -> int:
        """Wait up to ``block_ms`` for new entries and handle them; return how many."""
        reply = self.redis.xreadgroup(self.group, self.consumer, {self.stream: ">"}, count=20, block=self.block_ms)
        handled = 0
        for _stream, entries in reply or []:
            for entry_id, fields in entries:
                if self.handle(entry_id, fields):
                    handled += 1
        return handled

    def run(self, should_stop: Callable[[], bool] = lambda: False, sleep: Callable[[float], None] = time.sleep) -> None:
        """Consume until ``should_stop()``; survives Redis/PostgreSQL outages by retrying."""
        started = False
        next_claim = next_prune = 0.0
        while not should_stop():
            try:
                if not started:
                    self.ensure_group()
                    self.forget_stale_consumers()
                    self.drain_own_pending()
                    started = True
                if time.monotonic() >= next_claim:
                    self.claim_abandoned()
                    next_claim = time.monotonic() + max(self.claim_idle_ms / 2000, 0.5)
                if time.monotonic() >= next_prune:
                    pruned = self.prune_processed()
                    next_prune = time.monotonic() + PRUNE_EVERY_S
                    if pruned:
                        log_event(self.log, "processed events pruned", rows=pruned)
                self.read_new()
            except (redis.RedisError, psycopg.Error, OSError):
                self.log.exception("event consumer loop failed; retrying")
                started = False  # the group may be gone if Redis lost its data
                sleep(1.0)
