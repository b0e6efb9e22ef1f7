"""Open challenges in Redis, shared by every lobby process.

Keys: ``challenge:<id>`` (the challenge as JSON, kept an hour after it closes so a
late click gets a clear "no longer open"), ``challenges:deadlines`` (zset id →
expiry time of open challenges, polled by every lobby process), ``challenges:of:<uid>``
(set of ids a user takes part in, for a reconnecting Wartesaal page), ``seeks:open``
(set of ids of open seeks, „Gegner suchen", that nobody has taken yet).

Every change is one optimistic transaction (WATCH the key, compute the pure
transition of ``shared.challenge``, MULTI/EXEC the result): two processes acting on
one challenge at once both read, one writes, the other retries on the new state.  So
the step to ``agreed`` happens exactly once, and only the process that made it
starts the game.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import redis

from shared.challenge import Challenge, ChallengeRefusal

CLOSED_TTL_SECONDS = 3600
DEADLINES = "challenges:deadlines"
SEEKS = "seeks:open"


def _key(challenge_id: str) -> str:
    return f"challenge:{challenge_id}"


def _of(user_id: int) -> str:
    return f"challenges:of:{user_id}"


class ChallengeStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def get(self, challenge_id: str) -> Challenge | None:
        raw = self.redis.get(_key(challenge_id))
        return Challenge.from_json(json.loads(raw)) if raw else None

    def add(self, challenge: Challenge) -> None:
        with self.redis.pipeline() as pipe:
            self._write(pipe, challenge)
            pipe.execute()

    def _write(self, pipe: redis.client.Pipeline, challenge: Challenge) -> None:
        key = _key(challenge.id)
        pipe.set(key, json.dumps(challenge.to_json(), separators=(",", ":")))
        live = challenge.status in ("open", "agreed")
        if live:
            pipe.persist(key)
            pipe.zadd(DEADLINES, {challenge.id: challenge.expires_at})
            for party in challenge.parties():
                pipe.sadd(_of(party.user_id), challenge.id)
        else:
            pipe.expire(key, CLOSED_TTL_SECONDS)
            pipe.zrem(DEADLINES, challenge.id)
            for party in challenge.parties():
                pipe.srem(_of(party.user_id), challenge.id)
        if challenge.seek_elo is not None:
            if live and challenge.is_seek:
                pipe.sadd(SEEKS, challenge.id)
            else:
                pipe.srem(SEEKS, challenge.id)

    def transition(self, challenge_id: str,
                   step: Callable[[Challenge], Challenge | None]) -> tuple[Challenge, Challenge] | None:
        """Apply ``step`` atomically; return (before, after), or None when ``step`` changed nothing.

        ``step`` may raise :class:`ChallengeRefusal`; then nothing is written.
        """
        key = _key(challenge_id)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    raw = pipe.get(key)
                    if raw is None:
                        raise ChallengeRefusal("challenge_unknown")
                    before = Challenge.from_json(json.loads(raw))
                    after = step(before)
                    if after is None:
                        pipe.unwatch()
                        return None
                    pipe.multi()
                    self._write(pipe, after)
                    pipe.execute()
                    return before, after
                except redis.WatchError:
                    continue  # someone else changed it first: decide again on their result

    def due(self, now: float, limit: int = 100) -> list[str]:
        """Ids of challenges whose expiry time has passed."""
        return [raw.decode() if isinstance(raw, bytes) else raw
                for raw in self.redis.zrangebyscore(DEADLINES, "-inf", now, start=0, num=limit)]

    def open_for(self, user_id: int) -> list[Challenge]:
        ids = [raw.decode() if isinstance(raw, bytes) else raw for raw in self.redis.smembers(_of(user_id))]
        found = [self.get(cid) for cid in ids]
        return [c for c in found if c is not None and c.status in ("open", "agreed") and not c.is_seek]

    def open_seeks(self) -> list[Challenge]:
        """Every seek nobody has taken yet, oldest first."""
        ids = [raw.decode() if isinstance(raw, bytes) else raw for raw in self.redis.smembers(SEEKS)]
        found = [self.get(cid) for cid in ids]
        seeks = [c for c in found if c is not None and c.status == "open" and c.is_seek]
        return sorted(seeks, key=lambda c: (c.updated_at, c.id))

    def seeks_of(self, user_id: int) -> list[Challenge]:
        """The open seeks of ``user_id`` (at most one, unless two tabs raced)."""
        return [c for c in self.open_seeks() if c.challenger.user_id == user_id]
