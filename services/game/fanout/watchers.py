"""Whether anyone watches a table, across processes: the spectator state is built only then.

A spectator's socket sits in the room ``game:<id>:watch`` of whichever game process it
reached, and the process that commits the table's next change may be another one.  So
every process marks the tables its own spectators watch with a Redis key that lives
:data:`TTL_S` seconds: set when a spectator sits down, refreshed every
:data:`HEARTBEAT_S` while the room still has members here (after the last one leaves it
runs out; after Redis lost its data the next heartbeat sets it again).

Publishing a change asks for the key in the same round trip (:meth:`Watchers.ask_in`).
A table believed unwatched gets no spectator state built; if the answer says it is
watched after all, the spectator state follows at once (:meth:`Watchers.learn` returns
True).  No change is missed: a spectator joins the room first, then sets the key, then
reads the table.  If the publisher asked before the key was set, its change was
committed before that read, so the spectator's own first state has it; if after, the
publisher sends the spectator state, and the room already holds the spectator.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

import redis
from redis.client import Pipeline

from services.game.fanout.table_channels import game_of_room

TTL_S = 10
HEARTBEAT_S = 2.0
REMEMBERED = 4096  # watched tables this process remembers as such (more only cost a round trip)

log = logging.getLogger("game.watchers")


def key(game_id: int) -> str:
    return f"tables:watched:{game_id}"


class Watchers:
    def __init__(self, client: redis.Redis, local_rooms: Callable[[], Iterable[tuple[str, int]]],
                 watched_here: Callable[[int], bool]) -> None:
        """``local_rooms`` lists this process's Socket.IO rooms with their number of members;
        ``watched_here`` says whether a table has spectators on this process."""
        self.redis = client
        self.local_rooms = local_rooms
        self.watched_here = watched_here
        self._watched: set[int] = set()

    def mark(self, game_id: int) -> None:
        """A spectator of ``game_id`` sits down here (its socket already in the watch room)."""
        self._watched.add(game_id)
        self.redis.set(key(game_id), 1, ex=TTL_S)

    def likely(self, game_id: int) -> bool:
        """Build the spectator state up front?  Yes if the last answer said so, and always
        for this process's own spectators (they get it even while Redis is away)."""
        return game_id in self._watched or self.watched_here(game_id)

    @staticmethod
    def ask_in(pipe: Pipeline, game_id: int) -> None:
        """Ask for the mark in a change's pipeline (its answer is the pipeline's last result)."""
        pipe.exists(key(game_id))

    def learn(self, game_id: int, watched: bool) -> bool:
        """Remember the answer; True when the table is watched but was believed not to be
        (its spectator state is still to be sent)."""
        missed = watched and game_id not in self._watched
        if watched:
            if len(self._watched) >= REMEMBERED:
                self._watched.clear()
            self._watched.add(game_id)
        else:
            self._watched.discard(game_id)
        return missed

    def heartbeat(self) -> None:
        # python-socketio's rooms include None (every socket of the namespace) and sid rooms.
        watched = [game_id for room, members in self.local_rooms()
                   if members and (game_id := game_of_room(room)) is not None and room.endswith(":watch")]
        if watched:
            pipe = self.redis.pipeline(transaction=False)
            for game_id in watched:
                pipe.set(key(game_id), 1, ex=TTL_S)
            pipe.execute()

    def run(self, sleep: Callable[[float], None], failed: Callable[[Exception], None]) -> None:
        while True:
            try:
                self.heartbeat()
            except Exception as exc:  # Redis away for a moment: keep beating
                failed(exc)
            sleep(HEARTBEAT_S)
