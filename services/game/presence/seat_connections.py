"""Who is still at a table, across processes: leaving means losing after 30 seconds.

Each process counts its own sockets per (game, player) and every
:data:`HEARTBEAT_S` writes "seen now" for each into the Redis sorted set :data:`KEY`
(member ``"<game>:<user>"``, score: last seen, epoch ms).  When a player's last
socket on a process closes, the process writes the moment it closed.  A player
whose entry is older than :data:`LEAVE_AFTER_MS` has had no connection anywhere for
that long: a process claims the entry atomically (Lua, only if it is still that
old, so a reconnect that just refreshed it wins) and lets the table decide
(``Tables.abandon``) under the row lock.  A process that dies stops its heartbeats,
so its players count as gone from the last one, unless they reconnect elsewhere.

The same entries say how long a player has been away (:meth:`SeatConnections.away_ms`):
the table shows it to the opponent, and the opponent may claim the game once the
leave time has passed (``Tables.claim``).  That claim covers what the automatic rule
cannot see: a player who never opened the table has no entry at all (then the time
counts from the game's start), and an entry claimed by a process that died before
ending the game is gone.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections import defaultdict
from collections.abc import Callable

import redis

from services.game.tables.table import Tables

KEY = "tables:seen"
HEARTBEAT_S = 2.0
CHECK_S = 1.0
LEAVE_AFTER_MS = 30_000
# A connected player's entry is refreshed every heartbeat; one older than this is a
# player without a connection (or one whose last socket closed moments ago).
PRESENT_WITHIN_MS = int(2.5 * HEARTBEAT_S * 1000)

_CLAIM = """
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 50)
for _, member in ipairs(gone) do redis.call('ZREM', KEYS[1], member) end
return gone
"""

log = logging.getLogger("game.seats")


def _member(game_id: int, user_id: int) -> str:
    return f"{game_id}:{user_id}"


class SeatConnections:
    def __init__(self, client: redis.Redis, leave_after_ms: int = LEAVE_AFTER_MS,
                 period: Callable[[float], float] = lambda seconds: seconds) -> None:
        """``period(s)``: how long to wait for the check for players gone, due every ``s``
        (services.game.fleet: the processes share it; the heartbeat of this process's own
        players keeps its period)."""
        self.redis = client
        self.period = period
        self.leave_after_ms = leave_after_ms
        self._claim = client.register_script(_CLAIM)
        self._sids: dict[tuple[int, int], set[str]] = defaultdict(set)  # this process's sockets
        self._seats_of_sid: dict[str, set[tuple[int, int]]] = defaultdict(set)

    @staticmethod
    def _now_ms() -> int:
        return int(time.time() * 1000)

    def joined(self, sid: str, game_id: int, user_id: int) -> None:
        key = (game_id, user_id)
        self._sids[key].add(sid)
        self._seats_of_sid[sid].add(key)
        self.redis.zadd(KEY, {_member(game_id, user_id): self._now_ms()})

    def left(self, sid: str, game_id: int | None = None) -> list[tuple[int, int]]:
        """``sid`` closed (or left one table): if it was a player's last socket here, note the moment.
        Returns the (game, user) pairs that have no socket here any more."""
        keys = list(self._seats_of_sid.get(sid, ()))
        gone = []
        for key in keys:
            if game_id is not None and key[0] != game_id:
                continue
            self._seats_of_sid[sid].discard(key)
            sids = self._sids.get(key)
            if sids is None:
                continue
            sids.discard(sid)
            if not sids:
                del self._sids[key]
                self.redis.zadd(KEY, {_member(*key): self._now_ms()})
                gone.append(key)
        if not self._seats_of_sid.get(sid):
            self._seats_of_sid.pop(sid, None)
        return gone

    def away_ms(self, game_id: int, user_id: int, started_at: dt.datetime) -> int | None:
        """How long ``user_id`` has had no connection to the table (None: connected).

        Without an entry the player never came to this running table (or Redis lost
        it: then a connected player's process writes it again within a heartbeat), so
        the time counts from ``started_at``, the game's start."""
        if (game_id, user_id) in self._sids:
            return None
        now = self._now_ms()
        seen = self.redis.zscore(KEY, _member(game_id, user_id))
        if seen is None:
            return max(0, now - int(started_at.timestamp() * 1000))
        away = now - int(seen)
        return None if away < PRESENT_WITHIN_MS else away

    def forget(self, game_id: int, user_ids: list[int]) -> None:
        """The game is over: nobody can leave it any more."""
        self.redis.zrem(KEY, *[_member(game_id, uid) for uid in user_ids])
        for uid in user_ids:
            for sid in self._sids.pop((game_id, uid), set()):
                self._seats_of_sid.get(sid, set()).discard((game_id, uid))

    def heartbeat(self) -> None:
        if self._sids:
            now = self._now_ms()
            self.redis.zadd(KEY, {_member(*key): now for key in self._sids})

    def grace_after_start(self) -> None:
        """A (re)started process first gives every tracked player the full time to return:
        while all game processes were down nobody could reconnect."""
        members = self.redis.zrange(KEY, 0, -1)
        if members:
            now = self._now_ms()
            self.redis.zadd(KEY, {m: now for m in members}, xx=True)

    def claim_gone(self) -> list[tuple[int, int]]:
        gone = self._claim(keys=[KEY], args=[self._now_ms() - self.leave_after_ms])
        pairs = []
        for member in gone:
            game, user = (member.decode() if isinstance(member, bytes) else member).split(":")
            pairs.append((int(game), int(user)))
        return pairs

    def run(self, tables: Tables, sleep: Callable[[float], None], failed: Callable[[Exception], None]) -> None:
        """Heartbeat this process's players and end the games of players gone too long."""
        next_beat = 0.0
        self.grace_after_start()
        while True:
            try:
                if time.monotonic() >= next_beat:
                    self.heartbeat()
                    next_beat = time.monotonic() + HEARTBEAT_S
                for game_id, user_id in self.claim_gone():
                    if (game_id, user_id) in self._sids:  # connected here after all (heartbeat raced)
                        self.redis.zadd(KEY, {_member(game_id, user_id): self._now_ms()})
                        continue
                    tables.abandon(game_id, user_id)
            except Exception as exc:
                failed(exc)
            sleep(self.period(CHECK_S))
