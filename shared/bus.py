"""Live, loss-tolerant updates between processes: Redis pub/sub with JSON payloads.

Use this for news a listener may miss without harm because it re-reads the truth
on (re)connect: "the Wartesaal changed", "a move was played in game 17".  Redis
pub/sub delivers at most once; anything that must not be lost (a finished game
that has to be rated) goes through ``shared.outbox`` and the event stream instead.

Channel naming scheme (all channels share the ``sc:live:`` prefix so they never
collide with Socket.IO's own ``flask-socketio`` channel or with Celery's keys):

    sc:live:lobby              the Wartesaal (seeks, who is online)
    sc:live:game:<game_id>     one running game (moves, clocks, draw offers)
    sc:live:user:<user_id>     one account (invitations, notifications)

``channel("game", 17)`` builds ``sc:live:game:17``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import redis

PREFIX = "sc:live:"


def channel(*parts: object) -> str:
    """The channel for ``parts``, e.g. ``channel("game", 17)`` → ``"sc:live:game:17"``."""
    if not parts or any(":" in str(p) or not str(p) for p in parts):
        raise ValueError(f"channel parts must be non-empty and free of ':' ({parts!r})")
    return PREFIX + ":".join(str(p) for p in parts)


def publish(client: redis.Redis, channel_name: str, payload: dict[str, Any]) -> int:
    """Send ``payload`` as JSON to everyone subscribed right now; return how many got it."""
    if not channel_name.startswith(PREFIX):
        raise ValueError(f"live channels start with {PREFIX!r}: {channel_name!r}")
    return int(client.publish(channel_name, json.dumps(payload, separators=(",", ":"))))


class Subscription:
    """Messages from some channels (or ``sc:live:...*`` patterns), decoded from JSON.

    ``with Subscription(client, channel("lobby")) as sub: for name, payload in sub.messages(): ...``
    """

    def __init__(self, client: redis.Redis, *channels: str) -> None:
        self._pubsub = client.pubsub(ignore_subscribe_messages=True)
        plain = [c for c in channels if "*" not in c]
        patterns = [c for c in channels if "*" in c]
        if plain:
            self._pubsub.subscribe(*plain)
        if patterns:
            self._pubsub.psubscribe(*patterns)

    def get(self, timeout: float = 1.0) -> tuple[str, dict[str, Any]] | None:
        """The next message as ``(channel, payload)``, or None after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            # Subscribe confirmations and non-JSON noise also come back as None/skipped here.
            message = self._pubsub.get_message(timeout=remaining)
            if message is None or message["type"] not in ("message", "pmessage"):
                continue
            name = message["channel"]
            if isinstance(name, bytes):
                name = name.decode()
            try:
                return name, json.loads(message["data"])
            except (TypeError, ValueError):
                continue  # someone published non-JSON on a live channel: not ours
        return None

    def messages(self, timeout: float = 1.0) -> Iterator[tuple[str, dict[str, Any]]]:
        """Every message as it arrives (runs until the subscription is closed)."""
        while self._pubsub.subscribed:
            item = self.get(timeout)
            if item is not None:
                yield item

    def close(self) -> None:
        self._pubsub.close()

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
