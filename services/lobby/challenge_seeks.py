"""„Gegner suchen" over the Wartesaal socket: open seeks that a player of one's strength takes.

Seed 002: "„Gegner suchen" findet jemanden in deiner Spielstärke (Elo) – du kannst
solange weiter stöbern."  A seek is a challenge without a named opponent
(``shared.challenge.open_seek``), kept in the same Redis store as every challenge.
Every Wartesaal page sees the open seeks (``seek:list``, sent to all on every change
and to a page when it joins) with the Elo range that may take each.  Taking one
(``seek:take``) names the taker, both agree, and the game starts on the challenges'
own path (``try_start``): one atomic transition, so of two takers exactly one wins.
Opening a seek when a fitting one is already open takes that one instead — two
seekers of one strength find each other without waiting.  A player has at most one
seek; it ends when taken, withdrawn (``seek:cancel``), after
``SEEK_EXPIRY_SECONDS``, or when the player's last Wartesaal page closes (nobody
would be there to hear that the game began).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask_socketio import emit

from services.lobby.challenge_store import ChallengeStore
from services.lobby.wartesaal import Connection, WartesaalSockets
from shared import challenge as negotiation
from shared import creation_quota, presence
from shared.challenge import Challenge, ChallengeRefusal, Party

if TYPE_CHECKING:
    from services.lobby.app import Lobby

START_ELO = 1500  # a player without a rated game of this game (shared.elo's start value)


@dataclass(frozen=True)
class SeekHooks:
    """What the challenges need of the seeks."""

    announce: Callable[[], None]  # send the open seeks to every Wartesaal page
    players_started: Callable[[Iterable[int]], None]  # these users began a game: their seeks end


def public_seek(seek: Challenge, now: float) -> dict[str, Any]:
    """The protocol's ``Seek`` record."""
    low, high = negotiation.seek_range(seek)
    return {"id": seek.id, "game": seek.game, "seeker": dataclasses.asdict(seek.challenger), "elo": seek.seek_elo,
            "elo_min": low, "elo_max": high, "expires_in_ms": max(0, int((seek.expires_at - now) * 1000))}


class SeekDesk:
    """The seeks' socket handlers, one method per event, and what they share."""

    def __init__(self, lobby: Lobby, store: ChallengeStore, tell: Callable[[Challenge], None],
                 try_start: Callable[[Challenge], None]) -> None:
        self.lobby, self.store, self.tell, self.try_start = lobby, store, tell, try_start
        self.socketio = lobby.socketio

    def seek_list(self) -> dict[str, Any]:
        now = time.time()
        return {"seeks": [public_seek(seek, now) for seek in self.store.open_seeks()]}

    def announce(self) -> None:
        self.socketio.emit("seek:list", self.seek_list())

    def elo_of(self, user_id: int, game: str) -> int:
        raw = self.lobby.redis.hget(presence.ELO_CACHE, user_id)
        known = json.loads(raw) if raw else {}
        elo = known.get(game)
        return int(elo) if isinstance(elo, int) else START_ELO

    def withdraw_seeks(self, user_id: int) -> bool:
        withdrawn = False
        for seek in self.store.seeks_of(user_id):
            changed = self.store.transition(seek.id, lambda c: negotiation.decline(c, user_id, time.time())
                                            if c.is_seek and c.status == "open" else None)
            withdrawn = withdrawn or changed is not None
        return withdrawn

    def playing(self, user_id: int) -> bool:
        raw = self.lobby.redis.hget("presence:status", user_id)
        return (raw.decode() if isinstance(raw, bytes) else raw) == "spielt"

    def take(self, seek_id: str, taker: Party, elo: int) -> None:
        """Take the seek (refusals raise); the game starts."""
        if self.playing(taker.user_id):
            raise ChallengeRefusal("seek_playing")
        seek = self.store.get(seek_id)
        if seek is not None and seek.is_seek and self.playing(seek.challenger.user_id):
            # The seeker began another game meanwhile (e.g. a Schnelle Partie): the seek ends.
            if self.withdraw_seeks(seek.challenger.user_id):
                self.announce()
            raise ChallengeRefusal("challenge_closed", status="withdrawn")
        changed = self.store.transition(seek_id, lambda c: negotiation.take_seek(c, taker, elo, time.time()))
        if changed is None:
            raise ChallengeRefusal("challenge_unknown")
        self.withdraw_seeks(taker.user_id)  # whoever plays now seeks no more
        self.announce()
        self.tell(changed[1])
        self.try_start(changed[1])

    def create(self, conn: Connection, payload: dict) -> None:
        game = payload["game"]
        me = Party(conn.user_id, conn.name)
        if self.playing(conn.user_id):
            raise ChallengeRefusal("seek_playing")
        elo = self.elo_of(conn.user_id, game)
        seek = negotiation.open_seek(me, game, elo, time.time())  # refuses a game without seeks first
        # Someone of this strength already seeks: that is the opponent (nearest Elo, then the oldest).
        fitting = [s for s in self.store.open_seeks() if s.game == game and s.challenger.user_id != conn.user_id
                   and negotiation.seek_range(s)[0] <= elo <= negotiation.seek_range(s)[1]]
        for other in sorted(fitting, key=lambda s: abs((s.seek_elo or elo) - elo)):
            try:
                self.take(other.id, me, elo)
                return
            except ChallengeRefusal:
                continue  # taken by someone else a moment ago: try the next
        # Every new seek reaches every Wartesaal page: counted like a challenge.
        creation_quota.admit(self.lobby.redis, "challenge", str(conn.user_id), creation_quota.CHALLENGES_PER_HOUR)
        self.withdraw_seeks(conn.user_id)  # one seek per player: the new one replaces the old
        self.store.add(seek)
        self.announce()

    def cancel(self, conn: Connection, payload: dict) -> None:
        if self.withdraw_seeks(conn.user_id):
            self.announce()

    def take_one(self, conn: Connection, payload: dict) -> None:
        seek = self.store.get(payload["seek_id"])
        if seek is None:
            raise ChallengeRefusal("challenge_unknown")
        self.take(seek.id, Party(conn.user_id, conn.name), self.elo_of(conn.user_id, seek.game))

    def send_seeks(self, conn: Connection) -> None:
        emit("seek:list", self.seek_list())  # to the page that just joined

    def leave(self, conn: Connection) -> None:
        if self.withdraw_seeks(conn.user_id):
            self.announce()

    def players_started(self, user_ids: Iterable[int]) -> None:
        if any([self.withdraw_seeks(user_id) for user_id in user_ids]):
            self.announce()


def register_seeks(lobby: Lobby, sockets: WartesaalSockets, store: ChallengeStore,
                   tell: Callable[[Challenge], None], try_start: Callable[[Challenge], None]) -> SeekHooks:
    """Register the seek events."""
    desk = SeekDesk(lobby, store, tell, try_start)
    sockets.handles("seek:create")(desk.create)
    sockets.handles("seek:cancel")(desk.cancel)
    sockets.handles("seek:take")(desk.take_one)
    sockets.on_join.append(desk.send_seeks)
    sockets.on_leave.append(desk.leave)
    return SeekHooks(desk.announce, desk.players_started)
