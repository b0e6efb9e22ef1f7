"""Who is in the Wartesaal now, shared by every lobby process through Redis.

Each lobby process counts its open sockets per user in its own hash and refreshes a
heartbeat; the total per user is kept alongside, so a user with two tabs (on one or
two processes) is one person and stays listed until the last tab closes.  A process
that dies stops its heartbeat; any surviving process then sweeps its hash away and
subtracts its counts.  Every change bumps a version, and a snapshot is read together
with the version it shows (one Lua script), so clients can drop snapshots that
arrive out of order from different processes.

Keys: ``presence:procs`` (zset process → last heartbeat), ``presence:proc:<id>``
(hash user → sockets on that process), ``presence:users`` (hash user → sockets in
total), ``presence:names`` (hash user → name), ``presence:status`` (hash user →
"spielt"; absent means "frei"), ``presence:version``; the snapshot also reads the
rating service's ``ratings:elo`` (hash user → JSON Elo per game) for the names' Elo.
"""

from __future__ import annotations

import json
import time

import redis

from shared.schemas.lobby_events import PLAYER_STATUSES

# The lobby's Socket.IO message-queue channel.  Its own, not Flask-SocketIO's default
# "flask-socketio": the game service shares the Redis and the default namespace, and
# a Wartesaal broadcast must not reach game pages (nor theirs the Wartesaal).
LOBBY_CHANNEL = "sc-lobby"

_JOIN = """
local proc, uid, name, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
redis.call('ZADD', 'presence:procs', now, proc)
redis.call('HINCRBY', 'presence:proc:' .. proc, uid, 1)
local total = redis.call('HINCRBY', 'presence:users', uid, 1)
redis.call('HSET', 'presence:names', uid, name)
return {total, redis.call('INCR', 'presence:version')}
"""

# A process that was swept while alive (it stalled past the TTL) has lost its hash;
# its late leaves must not drive the totals below zero, hence the HEXISTS guard.
_LEAVE = """
local proc, uid = ARGV[1], ARGV[2]
local key = 'presence:proc:' .. proc
if redis.call('HEXISTS', key, uid) == 0 then return {-1, -1} end
if redis.call('HINCRBY', key, uid, -1) <= 0 then redis.call('HDEL', key, uid) end
local total = redis.call('HINCRBY', 'presence:users', uid, -1)
if total <= 0 then
  redis.call('HDEL', 'presence:users', uid)
  redis.call('HDEL', 'presence:names', uid)
end
return {total, redis.call('INCR', 'presence:version')}
"""

_SWEEP = """
local dead = redis.call('ZRANGEBYSCORE', 'presence:procs', '-inf', ARGV[1])
for _, proc in ipairs(dead) do
  local key = 'presence:proc:' .. proc
  local counts = redis.call('HGETALL', key)
  for i = 1, #counts, 2 do
    local uid = counts[i]
    if redis.call('HINCRBY', 'presence:users', uid, -tonumber(counts[i + 1])) <= 0 then
      redis.call('HDEL', 'presence:users', uid)
      redis.call('HDEL', 'presence:names', uid)
    end
  end
  redis.call('DEL', key)
  redis.call('ZREM', 'presence:procs', proc)
end
if #dead > 0 then redis.call('INCR', 'presence:version') end
return #dead
"""

# The Elo cache holds every rated player ever: read only the entries of those present.
_SNAPSHOT = """
local names = redis.call('HGETALL', 'presence:names')
local elos = {}
for i = 1, #names, 2 do
  local elo = redis.call('HGET', KEYS[1], names[i])
  if elo then elos[#elos + 1] = names[i]; elos[#elos + 1] = elo end
end
return {redis.call('GET', 'presence:version') or '0', names, redis.call('HGETALL', 'presence:status'), elos}
"""
# user id → compact JSON {game: elo}; the rating service keeps it current (services/rating/elo_cache.py).
ELO_CACHE = "ratings:elo"
RATED_GAMES = ("hexagon", "bullet", "general", "hanse")


class ProcessPresence:
    """The presence of one lobby process's sockets, mirrored in Redis."""

    def __init__(self, client: redis.Redis, process_id: str, ttl_seconds: float) -> None:
        self.client = client
        self.process_id = process_id
        self.ttl_seconds = ttl_seconds
        # user id → (sockets here, name): to re-announce them if this process is swept.
        self._local: dict[int, tuple[int, str]] = {}

    def join(self, user_id: int, name: str) -> int:
        """Count one more socket of ``user_id``; return the user's total across processes."""
        count, _ = self._local.get(user_id, (0, name))
        self._local[user_id] = (count + 1, name)
        total, _version = self.client.eval(_JOIN, 0, self.process_id, user_id, name, time.time())
        return int(total)

    def leave(self, user_id: int) -> int:
        """Count one socket of ``user_id`` less; return the total left (0: gone from the list)."""
        count, name = self._local.get(user_id, (1, ""))
        if count <= 1:
            self._local.pop(user_id, None)
        else:
            self._local[user_id] = (count - 1, name)
        total, _version = self.client.eval(_LEAVE, 0, self.process_id, user_id)
        return int(total)

    def heartbeat(self) -> bool:
        """Refresh this process's heartbeat and sweep dead processes; True if the list changed."""
        self.client.zadd("presence:procs", {self.process_id: time.time()})
        changed = sweep(self.client, time.time() - self.ttl_seconds) > 0
        if self._local and not self.client.exists(f"presence:proc:{self.process_id}"):
            # Another process swept us (we stalled past the TTL): announce our sockets again.
            for user_id, (count, name) in list(self._local.items()):
                for _ in range(count):
                    self.client.eval(_JOIN, 0, self.process_id, user_id, name, time.time())
            changed = True
        return changed

    def shutdown(self) -> None:
        """Remove this process's sockets at once (a clean stop need not wait for the TTL)."""
        self.client.zadd("presence:procs", {self.process_id: 0})
        sweep(self.client, 0)
        self._local.clear()


def sweep(client: redis.Redis, older_than: float) -> int:
    """Forget processes whose last heartbeat is before ``older_than``; return how many."""
    return int(client.eval(_SWEEP, 0, older_than))


def set_status(client: redis.Redis, user_id: int, status: str) -> None:
    """Mark ``user_id`` as "frei" or "spielt" (the game service calls this); broadcast a snapshot after."""
    if status not in PLAYER_STATUSES:
        raise ValueError(f"status must be one of {PLAYER_STATUSES}")
    with client.pipeline() as pipe:
        if status == "frei":
            pipe.hdel("presence:status", user_id)
        else:
            pipe.hset("presence:status", user_id, status)
        pipe.incr("presence:version")
        pipe.execute()


def announce(client: redis.Redis, emitter: object) -> None:
    """Send the current snapshot to every Wartesaal page on every lobby process.

    ``emitter`` is anything with ``emit(event, data)``: the lobby's SocketIO, or in
    another service a write-only ``socketio.RedisManager(REDIS_URL,
    channel=LOBBY_CHANNEL, write_only=True)``.
    """
    emitter.emit("players", snapshot(client))


def snapshot(client: redis.Redis) -> dict:
    """The protocol's ``players`` payload: everyone here, sorted by name, with its version."""
    version, names, statuses, elos = client.eval(_SNAPSHOT, 1, ELO_CACHE)

    def pairs(flat: list) -> dict[str, str]:
        return {_text(flat[i]): _text(flat[i + 1]) for i in range(0, len(flat), 2)}

    status_of = pairs(statuses)
    elo_of = pairs(elos)
    players = [
        {"user_id": int(uid), "name": name, "status": status_of.get(uid, "frei"), "elo": _elo(elo_of.get(uid))}
        for uid, name in pairs(names).items()
    ]
    players.sort(key=lambda p: (p["name"].casefold(), p["user_id"]))
    return {"version": int(version), "players": players}


def _elo(cached: str | None) -> dict[str, int | None]:
    known = json.loads(cached) if cached else {}
    return {game: known.get(game) for game in RATED_GAMES}


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
