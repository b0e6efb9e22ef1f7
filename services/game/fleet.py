"""How many game-service processes share the background work: the fleet polls as one process did.

Every game process runs the same background loops (the flag schedule and its look-up for
new games, the check for players gone too long, the outbox relay, the computer's resends).
Each of them polls state that all processes share (Redis, PostgreSQL), so any one
process's poll serves the whole fleet.  With every process polling at the rate one
process needs, the fleet's polls grew with its size, and a process's background cost
stayed the same however few tables it owned.  Each loop now waits its period times the
number of game processes, spread at random (0.5–1.5×) so that the processes' polls
interleave: the fleet as a whole polls about as often as a single process did, and what a
poll finds (a flag due, a player gone) waits about as long as before.

The number of processes is read from Redis: every game process's Socket.IO listener hears
the queue's base channel (``services.game.fanout.table_channels``), so ``PUBSUB NUMSUB`` of that
channel counts them.  It is read again every :data:`RECOUNT_S`; until the first answer, and
while Redis is away, the last count stands (one at first: a lone process polls as before).
"""

from __future__ import annotations

import logging
import random
import time

import redis

RECOUNT_S = 10.0
SPREAD = (0.5, 1.5)

log = logging.getLogger("game.fleet")


class Fleet:
    def __init__(self, client: redis.Redis, channel: str, rng: random.Random | None = None) -> None:
        self.redis = client
        self.channel = channel
        self._rng = rng or random.Random()
        self._size = 1
        self._counted_at = -RECOUNT_S

    def size(self) -> int:
        """The game processes listening now (at least 1), counted at most every :data:`RECOUNT_S`."""
        now = time.monotonic()
        if now - self._counted_at >= RECOUNT_S:
            self._counted_at = now
            try:
                counts = self.redis.pubsub_numsub(self.channel)
                self._size = max(1, int(counts[0][1])) if counts else 1
            except (redis.RedisError, IndexError, TypeError, ValueError) as exc:
                log.debug("cannot count the game processes", extra={"fields": {"error": repr(exc)}})
        return self._size

    def period(self, seconds: float) -> float:
        """How long this process waits for a poll that one process alone would run every ``seconds``."""
        if seconds <= 0:
            return seconds
        return seconds * self.size() * self._rng.uniform(*SPREAD)
