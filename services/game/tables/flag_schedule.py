"""Flag deadlines shared by every game-service process, so a flag falls with nobody sending anything.

Each running table with a running clock has one entry in the Redis sorted set
:data:`KEY` (member: game id, score: the deadline in epoch ms).  Every process polls
it (all of them together about as often as one alone would: services.game.fleet); a Lua script removes and returns the due entries in one step, so exactly one
process claims each.  The claimant re-checks the clock under the table's row lock
(``Tables.flag``), which is the only judge: an entry that was early (the player
moved meanwhile, or clocks of two machines differ) is simply scheduled again from
the stored table.  Every second a process looks for games created since (the lobby
creates them without telling anyone); at start, and then every ten minutes as a
safety net, it re-derives every running table's deadline from PostgreSQL, which
covers a restart of every process.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable

import redis
from redis.client import Pipeline

from services.game.rules.deadlines import flag_deadline
from services.game.tables.table import Tables
from shared import game_store

KEY = "tables:flags"
POLL_S = 0.2
NEW_GAMES_S = 1.0  # games the lobby created since the last look get their deadline this soon
# The full resync replays tables this process may not hold in memory; it is a safety
# net (Redis lost its data) besides the one at start, so it runs rarely.
RESYNC_S = 600.0

_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, member in ipairs(due) do redis.call('ZREM', KEYS[1], member) end
return due
"""

log = logging.getLogger("game.flags")


class FlagSchedule:
    def __init__(self, client: redis.Redis, period: Callable[[float], float] = lambda seconds: seconds) -> None:
        """``period(s)``: how long to wait for a poll due every ``s`` (services.game.fleet: the
        processes share the polls)."""
        self.redis = client
        self.period = period
        self._claim = client.register_script(_CLAIM)
        self._resync_wanted = False

    def resync_soon(self) -> None:
        """A deadline could not be written (Redis away): derive them all again on the next poll."""
        self._resync_wanted = True

    def set(self, game_id: int, deadline: dt.datetime | None) -> None:
        """Schedule ``game_id``'s flag at ``deadline`` (None: no clock runs; drop it)."""
        self.set_in(self.redis, game_id, deadline)

    @staticmethod
    def set_in(client: redis.Redis | Pipeline, game_id: int, deadline: dt.datetime | None) -> None:
        """:meth:`set` through ``client``: a pipeline sends it with a move's other Redis commands."""
        if deadline is None:
            client.zrem(KEY, game_id)
        else:
            client.zadd(KEY, {str(game_id): int(deadline.timestamp() * 1000)})

    def claim_due(self, now_ms: int | None = None, limit: int = 50) -> list[int]:
        now_ms = int(time.time() * 1000) if now_ms is None else now_ms
        return [int(member) for member in self._claim(keys=[KEY], args=[now_ms, limit])]

    def resync(self, tables: Tables, after_id: int = 0, pause: Callable[[float], None] = lambda s: None) -> int:
        """Derive the deadline of every running table with an id above ``after_id`` from
        PostgreSQL; return the highest id seen.  ``pause(0)`` after each table lets the
        sockets of this process breathe during a long resync."""
        with tables.pool.connection() as conn:
            ids = game_store.running_ids(conn, after_id)
        highest = after_id
        for game_id in ids:
            pause(0)
            try:
                settled = tables.current(game_id)
            except Exception:
                log.exception("resync of table %s failed", game_id)
                continue
            self.set(game_id, flag_deadline(settled.row, settled.state))
            highest = max(highest, game_id)
        return highest

    def run(self, tables: Tables, sleep: Callable[[float], None], failed: Callable[[Exception], None]) -> None:
        """Poll forever: claim due flags, judge each under its row lock, re-schedule the early ones."""
        next_resync = next_new = 0.0
        seen = 0
        while True:
            try:
                if time.monotonic() >= next_resync or self._resync_wanted:
                    seen = max(seen, self.resync(tables, pause=sleep))
                    self._resync_wanted = False  # only once it went through: Redis may still be away
                    next_resync = time.monotonic() + RESYNC_S
                elif time.monotonic() >= next_new:
                    seen = max(seen, self.resync(tables, seen))
                    next_new = time.monotonic() + self.period(NEW_GAMES_S)
                for game_id in self.claim_due():
                    if not tables.flag(game_id):
                        current = tables.current(game_id)
                        self.set(game_id, flag_deadline(current.row, current.state))
            except Exception as exc:  # Redis or PostgreSQL away for a moment: keep polling
                failed(exc)
            sleep(self.period(POLL_S))
