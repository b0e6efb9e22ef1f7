"""One Redis channel per table: a table's messages reach only the processes serving it.

With a single channel for the Socket.IO message queue, every game-service process
would receive and decode every other process's table states, only to find no socket of
its own in their rooms: two processes spent more CPU per move between them than one
alone (bench/tables.py, 3.1–3.9 ms against 1.8).  So an emit to a table's room
(``game:<id>``, ``game:<id>:seat:<n>``, ``game:<id>:watch``) is published on the
table's channel, ``<base>:game:<id>``, and a process listens to that channel exactly
while one of its sockets sits in one of the table's rooms.  Everything else (a
socket's own room, ``user:<id>``, reviews, the library's own messages) stays on the
base channel, which every process hears.

No message is lost to a socket that just sat down: :meth:`TableChannels.entered`
returns only once Redis confirmed the subscription (or after a short wait when Redis
is away), and the table is read after that, so a change published before the
subscription was committed before the read.

Nor to a socket that sat through a Redis outage: while the listener is away (Redis
down, then the listener's retry wait) this process hears nothing, and what other
processes published meanwhile (an opponent's move, a resignation) is gone.  Once the
listener is back and Redis has confirmed every subscription, ``on_resubscribed``
gets the tables this process serves, whose current states the game service then
sends to its sockets again (the proof's Redis restart lost a resignation that way
about one run in twelve, and the seat waited for it for good).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger("game.channels")

# How long a socket sitting down waits for Redis to confirm its table's subscription.
CONFIRM_WAIT_S = 2.0

_GAME_ROOM = re.compile(r"game:(\d+)(?::|$)")


def table_channel(base: str, game_id: int | str) -> str:
    """The Redis channel of table ``game_id`` under the Socket.IO queue's channel ``base``:
    only the processes serving the table listen to it (a Celery worker's Tipp is published
    there, services.ai_worker.move_task)."""
    return f"{base}:game:{game_id}"


def game_of_room(room: object) -> int | None:
    """The table a room belongs to (None: not a table's room)."""
    if not isinstance(room, str):
        return None
    match = _GAME_ROOM.match(room)
    return int(match.group(1)) if match else None


class TableChannels:
    """Which tables this process listens to, and the listener's subscriptions to them."""

    def __init__(self, base: str) -> None:
        self.base = base
        self._members: dict[int, int] = {}  # table → this process's memberships in its rooms
        self._confirmed: dict[str, threading.Event] = {}
        self._pubsub: Any = None  # the listener's PubSub while it is connected
        self._attached_before = False
        self._awaiting: set[str] = set()  # subscriptions of a reconnect not yet confirmed
        self.on_resubscribed: Callable[[list[int]], None] = lambda game_ids: None

    def channel(self, game_id: int | str) -> str:
        return table_channel(self.base, game_id)

    def channel_of_room(self, room: object) -> str:
        """Where an emit to ``room`` is published."""
        game_id = game_of_room(room)
        return self.base if game_id is None else self.channel(game_id)

    def listened(self) -> list[str]:
        """Every channel the listener should be subscribed to now."""
        return [self.base, *(self.channel(game_id) for game_id in self._members)]

    def serves(self, game_id: int) -> bool:
        """Whether one of this process's sockets sits at the table."""
        return game_id in self._members

    # ---- room membership (called by the queue for this process's sockets) -------------
    def entered(self, room: object) -> None:
        game_id = game_of_room(room)
        if game_id is None:
            return
        count = self._members.get(game_id, 0) + 1
        self._members[game_id] = count
        if count == 1:
            self._subscribe(self.channel(game_id))

    def left(self, room: object) -> None:
        game_id = game_of_room(room)
        if game_id is None or game_id not in self._members:
            return
        count = self._members[game_id] - 1
        if count > 0:
            self._members[game_id] = count
            return
        del self._members[game_id]
        channel = self.channel(game_id)
        self._confirmed.pop(channel, None)
        pubsub = self._pubsub
        if pubsub is not None:
            try:
                pubsub.unsubscribe(channel)
            except Exception as exc:  # the listener reconnects and subscribes to what is wanted then
                log.warning("unsubscribe failed", extra={"fields": {"channel": channel, "error": repr(exc)}})

    def _subscribe(self, channel: str) -> None:
        confirmed = self._confirmed[channel] = threading.Event()
        pubsub = self._pubsub
        if pubsub is not None:
            try:
                pubsub.subscribe(channel)
            except Exception as exc:
                log.warning("subscribe failed", extra={"fields": {"channel": channel, "error": repr(exc)}})
                return
        # Without a PubSub the listener is connecting: it subscribes to every wanted channel
        # once connected, and its confirmation ends this wait as well.
        if not confirmed.wait(CONFIRM_WAIT_S):
            log.warning("subscription not confirmed in time", extra={"fields": {"channel": channel}})

    # ---- the listener ------------------------------------------------------------------
    def attach(self, pubsub: Any) -> None:
        """The listener connects: subscribe to the base channel and every wanted table.

        The sockets' greenlets get the PubSub only once its connection stands.  redis-py opens
        it at the first command, and a greenlet subscribing while the listener's connection
        was still being opened opened a second one that nobody reads: every message of that
        table, and of every table subscribed after it, was lost to this process.
        """
        channels = self.listened()
        # Only a reconnect may have missed messages; the first connect has nothing to catch up.
        self._awaiting = set(channels) if self._attached_before else set()
        self._attached_before = True
        pubsub.subscribe(*channels)
        self._pubsub = pubsub
        # Tables entered or left while the connection was being opened.
        wanted = self.listened()
        entered = [c for c in wanted if c not in channels]
        left = [c for c in channels if c not in wanted]
        if entered:
            pubsub.subscribe(*entered)
        if left:
            pubsub.unsubscribe(*left)

    def detach(self) -> None:
        self._pubsub = None

    def confirmed(self, channel: bytes | str) -> None:
        """Redis confirmed a subscription (the listener saw its ``subscribe`` message)."""
        name = channel.decode() if isinstance(channel, bytes) else channel
        event = self._confirmed.get(name)
        if event is not None:
            event.set()
        if name in self._awaiting:
            self._awaiting.discard(name)
            if not self._awaiting:
                self.on_resubscribed(sorted(self._members))
