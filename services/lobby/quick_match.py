"""Schnelle Partie: a pool per game in Redis, paired in waves, started like an agreed challenge.

Events (schemas in ``shared.schemas``): ``quick:join`` {game, clocks} and
``quick:cancel`` in; ``quick:status`` out, to every Wartesaal socket of the player
(room ``user:<id>``, any lobby process).  A player waits in one pool at a time;
joining another game's pool moves them.  Closing the last Wartesaal tab leaves the
pool (so does a lobby process that dies: its players leave the presence list and the
next wave drops whoever is no longer there or already playing).

Waves, as lichess's pools do it (``shared.pairing`` decides who plays whom): a
pool's wave fires :data:`WAVE_SECONDS` after the previous one (or after the first
player came), or at once when :data:`WAVE_PLAYERS` wait.  Every lobby process runs
the loop, but a round runs only where the Redis lock :data:`LOCK` was taken, so two
processes never pair the same players.  A pair leaves the pool in one Lua step that
checks both entries are unchanged (a cancel in between wins), and then starts
exactly like an agreed challenge (``services.lobby.challenge_start``: one
PostgreSQL transaction, guarded by ``challenge_starts``); both browsers get
``challenge:started`` and open the table.  Quick games are rated, without a stake;
the colours are drawn.

The same Lua step records the pair under ``quick:starting`` with the time it was taken
and the agreed challenge; the start removes the record when both players were told.  A
lobby process that dies in between would leave both waiting forever, so every round
looks for records older than :data:`STRANDED_SECONDS`: if both players are still in the
Wartesaal and free, it completes the start with the same challenge id (the primary key
of ``challenge_starts`` lets only one start commit, whoever else still tries); otherwise
whoever is still there returns to the pool with their entry.  (A process alive but stuck
that long between taking a pair and its commit could still start a game for a player
who went back to the pool; the pairing lock lapses after 10 s for the same reason.)

Keys: ``quick:members`` (hash user id → JSON entry), ``quick:wave_at`` (hash game →
epoch seconds of the next wave), ``quick:starting`` (hash challenge id → JSON pair),
``quick:lock``.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg
import redis

from services.lobby.challenge_start import existing_game, start_game
from services.lobby.wartesaal import Connection, WartesaalSockets, user_room
from shared import challenge as negotiation
from shared import creation_quota, i18n, presence
from shared.challenge import Party
from shared.logs import event
from shared.pairing import START_ELO, Seeker, pair_wave
from shared.schemas.mechanism import ProtocolError

if TYPE_CHECKING:
    from services.lobby.app import Lobby

WAVE_SECONDS = 3.0  # small: few players wait at once here, a quick match should be quick
WAVE_PLAYERS = 8  # this many waiting in one pool fire a wave at once
TICK_SECONDS = 0.5
LOCK = "quick:lock"
LOCK_MS = 10_000  # longer than a round takes; a dead pairer's lock lapses by itself
MEMBERS = "quick:members"
WAVE_AT = "quick:wave_at"
STARTING = "quick:starting"
STRANDED_SECONDS = 30.0  # a start takes well under a second; this long means its process died

TEXTS: dict[str, dict[str, str]] = {
    "quick_bad_clock": {
        "de": "Diese Bedenkzeit gibt es für dieses Spiel nicht (erlaubt: {allowed}).",
        "en": "This time control is not available for this game (allowed: {allowed}).",
    },
    "quick_playing": {
        "de": "Du spielst gerade eine Partie – Schnelle Partie geht danach.",
        "en": "You are playing a game – Quick game is possible afterwards.",
    },
    "quick_start_failed": {
        "de": "Die Partie konnte nicht starten. Bitte versuche es noch einmal.",
        "en": "The game could not start. Please try again.",
    },
}
i18n.TEXTS.update(TEXTS)

# Remove both entries only if both are exactly as the wave read them, and record the
# pair as starting in the same step.
_TAKE_PAIR = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
if redis.call('HGET', KEYS[1], ARGV[3]) ~= ARGV[4] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[5], ARGV[6])
return 1
"""
# Replace an entry only if it is still the one read (a cancel or a new join wins).
_REPLACE = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class Entry:
    """A player waiting for a quick game."""

    user_id: int
    name: str
    game: str
    clocks: tuple[str, ...]
    since: float
    waves: int = 0
    lang: str = "de"  # for a message from whichever process runs the wave

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), separators=(",", ":"))

    @staticmethod
    def from_json(raw: bytes | str) -> Entry:
        data = json.loads(raw)
        return Entry(user_id=data["user_id"], name=data["name"], game=data["game"], clocks=tuple(data["clocks"]),
                     since=data["since"], waves=data["waves"], lang=data.get("lang", "de"))


@dataclass(frozen=True)
class Starting:
    """A pair taken from the pool whose game is being started (``quick:starting``)."""

    challenge: negotiation.Challenge
    entries: tuple[Entry, Entry]
    taken_at: float

    def to_json(self) -> str:
        return json.dumps({"challenge": self.challenge.to_json(), "entries": [e.to_json() for e in self.entries],
                           "taken_at": self.taken_at}, separators=(",", ":"))

    @staticmethod
    def from_json(raw: bytes | str) -> Starting:
        data = json.loads(raw)
        first, second = (Entry.from_json(e) for e in data["entries"])
        return Starting(negotiation.Challenge.from_json(data["challenge"]), (first, second), data["taken_at"])


def agreed_challenge(a: Entry, b: Entry, clock: str, now: float) -> negotiation.Challenge:
    """The challenge a quick pair plays, agreed by both: default settings, ``clock``, colours drawn."""
    challenger, challenged = (a, b) if secrets.randbits(1) else (b, a)
    settings = dataclasses.replace(negotiation.default_settings(a.game), clock=clock)
    opened = negotiation.open_challenge(Party(challenger.user_id, challenger.name),
                                        Party(challenged.user_id, challenged.name), a.game, now,
                                        settings=settings, challenge_id=f"quick-{uuid.uuid4().hex}")
    return negotiation.accept(opened, challenged.user_id, opened.version, now)


def accepted_clocks(game: str, wanted: list[str]) -> tuple[str, ...]:
    """The Bedenkzeiten a player accepts: those chosen (none chosen: every one the game allows)."""
    allowed = negotiation.allowed_clocks(game)
    if not wanted:
        return allowed
    refused = [c for c in wanted if c not in allowed]
    if refused:
        raise ProtocolError("quick_bad_clock", allowed=", ".join(allowed))
    return tuple(c for c in allowed if c in wanted)


def preference(game: str) -> tuple[str, ...]:
    """The order a pair's common Bedenkzeit is picked in: the game's usual one first."""
    allowed = negotiation.allowed_clocks(game)
    usual = negotiation.DEFAULT_CLOCKS.get(game, negotiation.DEFAULT_CLOCK)
    return (usual, *[c for c in allowed if c != usual]) if usual in allowed else allowed


class QuickPool:
    """The pools in Redis (all games in one hash: a player waits in one pool at a time)."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._take_pair = client.register_script(_TAKE_PAIR)
        self._replace = client.register_script(_REPLACE)
        self._unlock = client.register_script(_UNLOCK)

    def join(self, entry: Entry, now: float) -> None:
        with self.redis.pipeline() as pipe:
            pipe.hset(MEMBERS, entry.user_id, entry.to_json())
            pipe.hsetnx(WAVE_AT, entry.game, now + WAVE_SECONDS)  # the first one waiting starts the timer
            pipe.execute()

    def leave(self, user_id: int) -> bool:
        return bool(self.redis.hdel(MEMBERS, user_id))

    def entry_of(self, user_id: int) -> Entry | None:
        raw = self.redis.hget(MEMBERS, user_id)
        return Entry.from_json(raw) if raw else None

    def members(self) -> dict[int, tuple[bytes, Entry]]:
        return {int(uid): (raw, Entry.from_json(raw)) for uid, raw in self.redis.hgetall(MEMBERS).items()}

    def waiting(self, game: str) -> int:
        return sum(1 for _raw, e in self.members().values() if e.game == game)

    def take_pair(self, a: tuple[bytes, Entry], b: tuple[bytes, Entry], starting: Starting) -> bool:
        return bool(self._take_pair(keys=[MEMBERS, STARTING], args=[a[1].user_id, a[0], b[1].user_id, b[0],
                                                                     starting.challenge.id, starting.to_json()]))

    def started(self, challenge_id: str) -> None:
        self.redis.hdel(STARTING, challenge_id)

    def stranded(self, now: float) -> list[tuple[bytes, Starting]]:
        """Pairs taken longer than :data:`STRANDED_SECONDS` ago whose start never finished."""
        found = [(raw, Starting.from_json(raw)) for raw in self.redis.hvals(STARTING)]
        return [(raw, s) for raw, s in found if now - s.taken_at > STRANDED_SECONDS]

    def claim_stranded(self, raw: bytes, starting: Starting, now: float) -> Starting | None:
        """Take over a stranded pair (its record renewed, so a recoverer that dies leaves it to the next)."""
        renewed = dataclasses.replace(starting, taken_at=now)
        return renewed if self._replace(keys=[STARTING], args=[starting.challenge.id, raw, renewed.to_json()]) else None

    def rejoin(self, entry: Entry) -> None:
        """Back into the pool as it was, unless the player has joined anew meanwhile."""
        self.redis.hsetnx(MEMBERS, entry.user_id, entry.to_json())

    def missed_wave(self, raw: bytes, entry: Entry) -> None:
        after = dataclasses.replace(entry, waves=entry.waves + 1)
        self._replace(keys=[MEMBERS], args=[entry.user_id, raw, after.to_json()])

    def lock(self) -> str | None:
        token = uuid.uuid4().hex
        return token if self.redis.set(LOCK, token, nx=True, px=LOCK_MS) else None

    def unlock(self, token: str) -> None:
        self._unlock(keys=[LOCK], args=[token])


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def register_quick_match(lobby: Lobby, sockets: WartesaalSockets) -> None:
    pool = QuickPool(lobby.redis)
    socketio = lobby.socketio

    def status_of(user_id: int, game_id: int | None = None) -> dict[str, Any]:
        entry = pool.entry_of(user_id)
        if entry is None:
            return {"state": "idle", "game": None, "clocks": [], "waiting": 0, "game_id": game_id}
        return {"state": "waiting", "game": entry.game, "clocks": list(entry.clocks),
                "waiting": pool.waiting(entry.game), "game_id": None}

    def tell(user_id: int, game_id: int | None = None) -> None:
        socketio.emit("quick:status", status_of(user_id, game_id), to=user_room(user_id))

    @sockets.handles("quick:join")
    def join(conn: Connection, payload: dict) -> None:
        game = payload["game"]
        clocks = accepted_clocks(game, payload["clocks"])
        if _text(lobby.redis.hget("presence:status", conn.user_id)) == "spielt":
            raise ProtocolError("quick_playing")
        creation_quota.admit(lobby.redis, "quick", str(conn.user_id), creation_quota.QUICK_JOINS_PER_HOUR)
        previous = pool.entry_of(conn.user_id)
        pool.join(Entry(conn.user_id, conn.name, game, clocks, time.time(), lang=conn.lang), time.time())
        tell(conn.user_id)
        tell_others(conn.user_id, {game, previous.game if previous else game})
        event(lobby.log, "quick match join", user_id=conn.user_id, game=game, clocks=list(clocks))

    def tell_others(user_id: int, games: set[str]) -> None:
        """Those waiting for ``games`` see the pool grow or shrink."""
        for uid, (_raw, other) in pool.members().items():
            if uid != user_id and other.game in games:
                tell(uid)

    @sockets.handles("quick:cancel")
    def cancel(conn: Connection, payload: dict) -> None:
        entry = pool.entry_of(conn.user_id)
        pool.leave(conn.user_id)
        tell(conn.user_id)
        if entry is not None:
            tell_others(conn.user_id, {entry.game})

    def on_join(conn: Connection) -> None:
        # A new tab shows whether this player already waits.
        socketio.emit("quick:status", status_of(conn.user_id), to=user_room(conn.user_id))

    def on_gone(conn: Connection) -> None:
        pool.leave(conn.user_id)

    sockets.on_join.append(on_join)
    sockets.on_leave.append(on_gone)

    def start(starting: Starting) -> None:
        agreed, (a, b) = starting.challenge, starting.entries
        clock = agreed.settings.clock
        try:
            try:
                game_id = start_game(lobby.pool, agreed)
            except psycopg.errors.UniqueViolation:
                # Another process completed this very challenge (a stranded pair's recovery).
                found = existing_game(lobby.pool, agreed.id)
                if found is None:
                    raise
                game_id = found
        except Exception:
            lobby.log.exception("quick match start failed")
            pool.started(agreed.id)
            for entry in (a, b):
                socketio.emit("error", {"code": "quick_start_failed", "event": "quick:join",
                                        "message": i18n.text("quick_start_failed", entry.lang)},
                              to=user_room(entry.user_id))
                tell(entry.user_id)
            return
        for uid in (a.user_id, b.user_id):
            presence.set_status(lobby.redis, uid, "spielt")
        lobby.broadcast_players()
        payload = {"challenge_id": agreed.id, "game_id": game_id, "game": a.game}
        for uid in (a.user_id, b.user_id):
            tell(uid, game_id)
            socketio.emit("challenge:started", payload, to=user_room(uid))
        pool.started(agreed.id)
        event(lobby.log, "quick match started", game_id=game_id, game=a.game, clock=clock,
              seats=list(agreed.seats()))

    def recover_stranded(now: float) -> None:
        """Finish the pairs a dead process took from the pool (see the module's docstring)."""
        for raw, stale in pool.stranded(now):
            starting = pool.claim_stranded(raw, stale, now)
            if starting is None:
                continue  # finished or taken over meanwhile
            ids = [e.user_id for e in starting.entries]
            event(lobby.log, "quick match stranded pair", challenge_id=starting.challenge.id, users=ids)
            if existing_game(lobby.pool, starting.challenge.id) is not None or present_and_free(ids) == set(ids):
                start(starting)  # tells both of the game, whether it commits now or did before
                continue
            pool.started(starting.challenge.id)
            for entry in starting.entries:
                if entry.user_id in present_and_free([entry.user_id]):
                    pool.rejoin(entry)
                tell(entry.user_id)

    def present_and_free(user_ids: list[int]) -> set[int]:
        with lobby.redis.pipeline() as pipe:
            for uid in user_ids:
                pipe.hexists("presence:names", uid)
                pipe.hget("presence:status", uid)
            answers = pipe.execute()
        return {uid for uid, here, status in zip(user_ids, answers[::2], answers[1::2], strict=True)
                if here and _text(status) != "spielt"}

    def elos(user_ids: list[int]) -> dict[int, dict[str, int]]:
        raw = lobby.redis.hmget(presence.ELO_CACHE, user_ids) if user_ids else []
        return {uid: json.loads(r) if r else {} for uid, r in zip(user_ids, raw, strict=True)}

    def run_round(now: float) -> None:
        recover_stranded(now)
        members = pool.members()
        fit = present_and_free(list(members))
        for uid in set(members) - fit:
            # Gone (no Wartesaal tab on any process) or already at a table.
            pool.leave(uid)
            tell(uid)
        by_game: dict[str, list[tuple[bytes, Entry]]] = {}
        for uid in fit:
            by_game.setdefault(members[uid][1].game, []).append(members[uid])
        wave_at = {_text(g): float(t) for g, t in lobby.redis.hgetall(WAVE_AT).items()}
        for game in set(wave_at) - set(by_game):
            lobby.redis.hdel(WAVE_AT, game)
        for game, waiting in by_game.items():
            due = wave_at.get(game)
            if due is None:
                lobby.redis.hset(WAVE_AT, game, now + WAVE_SECONDS)
                continue
            if now < due and len(waiting) < WAVE_PLAYERS:
                continue
            wave(game, waiting, now)

    def wave(game: str, waiting: list[tuple[bytes, Entry]], now: float) -> None:
        known = elos([e.user_id for _raw, e in waiting])
        by_id = {e.user_id: (raw, e) for raw, e in waiting}
        seekers = [Seeker(e.user_id, known[e.user_id].get(game, START_ELO), frozenset(e.clocks), e.waves)
                   for _raw, e in waiting]
        paired: set[int] = set()
        for pair in pair_wave(seekers, preference(game)):
            a, b = by_id[pair.first.user_id], by_id[pair.second.user_id]
            starting = Starting(agreed_challenge(a[1], b[1], pair.clock, now), (a[1], b[1]), now)
            if pool.take_pair(a, b, starting):
                paired |= {a[1].user_id, b[1].user_id}
                start(starting)
        left = [m for uid, m in by_id.items() if uid not in paired]
        for raw, entry in left:
            pool.missed_wave(raw, entry)
        if left:
            lobby.redis.hset(WAVE_AT, game, now + WAVE_SECONDS)
        else:
            lobby.redis.hdel(WAVE_AT, game)
        event(lobby.log, "quick match wave", game=game, waiting=len(waiting), paired=len(paired))

    def pairing_loop() -> None:
        while True:
            try:
                token = pool.lock()
                if token is not None:
                    try:
                        run_round(time.time())
                    finally:
                        pool.unlock(token)
            except Exception:
                lobby.log.exception("quick match round failed")
            socketio.sleep(TICK_SECONDS)

    lobby.background_tasks.append(pairing_loop)
