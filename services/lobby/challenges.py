"""Challenges over the Wartesaal socket: negotiate, start the game, Revanche, expiry.

Events (schemas in ``shared.schemas``): ``challenge:create``, ``challenge:propose``,
``challenge:accept``, ``challenge:decline``, ``challenge:rematch`` in (and the seeks of
„Gegner suchen", ``services.lobby.challenge_seeks``);
``challenge:update`` and ``challenge:started`` out, to both sides' Wartesaal sockets
(room ``user:<id>`` on the Redis message queue, so any lobby process reaches them).

The negotiation is ``shared.challenge`` (pure); its state lives in Redis
(``services.lobby.challenge_store``), and the start is one PostgreSQL transaction
(``services.lobby.challenge_start``).  Only the process whose atomic transition made
the challenge ``agreed`` starts the game; ``challenge_starts`` guards it once more.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask import Response, jsonify, request
from flask_socketio import emit

from services.lobby.challenge_seeks import SeekHooks, register_seeks
from services.lobby.challenge_start import check_stake, existing_game, start_game
from services.lobby.challenge_store import ChallengeStore
from services.lobby.wartesaal import Connection, WartesaalSockets, user_room
from shared import challenge as negotiation
from shared import creation_quota, game_store, presence
from shared.challenge import Challenge, ChallengeRefusal, Party, Settings
from shared.games import BadOptions, get_game
from shared.i18n import request_language, text
from shared.logs import event

if TYPE_CHECKING:
    from services.lobby.app import Lobby

EXPIRY_POLL_SECONDS = 1.0
# An agreed challenge whose starting process died is settled after this long.
STUCK_START_SECONDS = 15.0
# How a stored clock (base, increment in ms) maps back to the panel's Bedenkzeit.
CLOCK_NAMES = {(c["base_ms"], c["inc_ms"]): name for name, c in negotiation.CLOCKS.items() if c}


def public(challenge: Challenge, now: float) -> dict[str, Any]:
    """The ``Challenge`` record of the protocol."""
    data = challenge.to_json()
    data.pop("updated_at")
    data.pop("seek_elo")  # kept for the store; a taken seek is a challenge like any other
    live = challenge.status in ("open", "agreed")
    data["expires_in_ms"] = max(0, int((challenge.expires_at - now) * 1000)) if live else 0
    # Who will take seat 0 (the side that begins) when the game starts: the panel shows
    # exactly what the start will do, ⇄ included, instead of guessing the seat rule.
    data["first_user_id"] = challenge.seats()[0] if challenge.challenged is not None else None
    return data


class ChallengeDesk:
    """The challenges' socket handlers, one method per event, the start of an agreed game, and the
    expiry of challenges nobody answered in time."""

    seeks: SeekHooks  # attached by register_challenges once the seeks are registered

    def __init__(self, lobby: Lobby, store: ChallengeStore) -> None:
        self.lobby, self.store = lobby, store
        self.socketio = lobby.socketio

    def tell(self, challenge: Challenge) -> None:
        payload = {"challenge": public(challenge, time.time())}
        for party in challenge.parties():
            self.socketio.emit("challenge:update", payload, to=user_room(party.user_id))

    def try_start(self, challenge: Challenge) -> None:
        """Start the game of an ``agreed`` challenge (we made it agreed: nobody else does this)."""
        try:
            game_id = start_game(self.lobby.pool, challenge)
        except Exception as exc:
            # Open again with nobody agreeing, so the panel shows why and both can decide anew.
            code = exc.code if isinstance(exc, ChallengeRefusal) else "internal_error"
            changed = self.store.transition(challenge.id, lambda c: negotiation.start_failed(c, code, time.time())
                                            if c.status == "agreed" else None)
            if changed:
                self.tell(changed[1])
            raise
        changed = self.store.transition(challenge.id, lambda c: negotiation.started(c, game_id, time.time())
                                        if c.status == "agreed" else None)
        after = changed[1] if changed else negotiation.started(challenge, game_id, time.time())
        self.announce_start(after, game_id)

    def announce_start(self, challenge: Challenge, game_id: int) -> None:
        lobby = self.lobby
        for party in challenge.parties():
            presence.set_status(lobby.redis, party.user_id, "spielt")
        self.seeks.players_started(party.user_id for party in challenge.parties())  # who plays seeks no more
        lobby.broadcast_players()
        self.tell(challenge)
        payload = {"challenge_id": challenge.id, "game_id": game_id, "game": challenge.game}
        for party in challenge.parties():
            self.socketio.emit("challenge:started", payload, to=user_room(party.user_id))
        event(lobby.log, "challenge started", challenge_id=challenge.id, game_id=game_id, game=challenge.game)

    def opponent_here(self, user_id: int) -> Party:
        name = self.lobby.redis.hget("presence:names", user_id)
        if name is None:
            raise ChallengeRefusal("challenge_player_away")
        return Party(user_id, name.decode() if isinstance(name, bytes) else name)

    def add_another(self, conn: Connection, opponent: Party, make: Callable[[], Challenge]) -> None:
        """Open the challenge ``make()`` gives, unless the challenger has one open to ``opponent`` or
        too many (``shared.challenge.refuse_another``).  Under the challenger's lock: a burst of
        creates (the lobby handles a socket's events side by side) must not all pass the count."""
        redis = self.lobby.redis
        with redis.lock(f"challenges:creating:{conn.user_id}", timeout=10, blocking_timeout=10):
            negotiation.refuse_another(self.store.open_for(conn.user_id), Party(conn.user_id, conn.name), opponent)
            creation_quota.admit(redis, "challenge", str(conn.user_id), creation_quota.CHALLENGES_PER_HOUR)
            challenge = make()
            self.store.add(challenge)
        self.tell(challenge)

    def create(self, conn: Connection, payload: dict) -> None:
        if payload["to_user_id"] == conn.user_id:
            raise ChallengeRefusal("challenge_self")
        opponent = self.opponent_here(payload["to_user_id"])
        self.add_another(conn, opponent, lambda: negotiation.open_challenge(Party(conn.user_id, conn.name), opponent,
                                                                            payload["game"], time.time()))

    def propose(self, conn: Connection, payload: dict) -> None:
        settings = Settings(**payload["settings"])
        if settings.rated and settings.stake:
            # Nobody can propose a stake they do not hold themselves, nor one with a guest.
            current = self.store.get(payload["challenge_id"])
            check_stake(self.lobby.pool, [Party(conn.user_id, conn.name)], settings.stake,
                        guests_among=list(current.parties()) if current else [])
        changed = self.store.transition(payload["challenge_id"],
                                        lambda c: negotiation.propose(c, conn.user_id, settings, time.time()))
        if changed:
            self.tell(changed[1])
            if changed[0].status == "open" and changed[1].status == "agreed":
                self.try_start(changed[1])

    def accept(self, conn: Connection, payload: dict) -> None:
        current = self.store.get(payload["challenge_id"])
        if current is None:
            raise ChallengeRefusal("challenge_unknown")
        # Both must hold the stake: refuse here, before anything changes.
        current.party_of(conn.user_id)
        if current.status == "open" and current.settings.stake:
            check_stake(self.lobby.pool, list(current.parties()), current.settings.stake)
        changed = self.store.transition(payload["challenge_id"],
                                        lambda c: negotiation.accept(c, conn.user_id, payload["version"], time.time()))
        if changed:
            self.tell(changed[1])
            if changed[0].status == "open" and changed[1].status == "agreed":
                self.try_start(changed[1])

    def decline(self, conn: Connection, payload: dict) -> None:
        changed = self.store.transition(payload["challenge_id"],
                                        lambda c: negotiation.decline(c, conn.user_id, time.time()))
        if changed:
            self.tell(changed[1])

    def rematch(self, conn: Connection, payload: dict) -> None:
        pool = self.lobby.pool
        with pool.connection() as db:
            row = game_store.load(db, payload["game_id"])
        if row is None or row.mode != "wartesaal" or row.status != "finished" or conn.user_id not in row.seats:
            raise ChallengeRefusal("challenge_no_game")
        other = row.seats[1] if row.seats[0] == conn.user_id else row.seats[0]
        with pool.connection() as db:
            names = game_store.user_names(db, [other])
        previous = {"clock": _clock_name(row.clock), "options": row.options, "rated": row.rated, "stake": row.stake}
        settings = negotiation.rematch_settings(row.game, previous, row.seats, conn.user_id)
        opponent = Party(other, names.get(other, "?"))
        self.add_another(conn, opponent, lambda: negotiation.open_challenge(
            Party(conn.user_id, conn.name), opponent, row.game, time.time(), settings=settings, rematch_of=row.id))

    def send_open(self, conn: Connection) -> None:
        now = time.time()
        for challenge in self.store.open_for(conn.user_id):
            emit("challenge:update", {"challenge": public(challenge, now)})

    def expire_due(self) -> None:
        now = time.time()
        for challenge_id in self.store.due(now):
            current = self.store.get(challenge_id)
            if current is None:
                self.lobby.redis.zrem("challenges:deadlines", challenge_id)
                continue
            if current.status == "agreed":
                self.settle_stuck(current, now)
                continue
            changed = self.store.transition(challenge_id, lambda c: negotiation.expire(c, time.time()))
            if changed:
                # A seek nobody took leaves the list; a challenge tells both sides.
                if changed[1].is_seek:
                    self.seeks.announce()
                else:
                    self.tell(changed[1])

    def settle_stuck(self, challenge: Challenge, now: float) -> None:
        # The process that made it agreed died before it finished the start.
        if now < challenge.expires_at + STUCK_START_SECONDS:
            return
        game_id = existing_game(self.lobby.pool, challenge.id)
        if game_id is not None:
            changed = self.store.transition(challenge.id, lambda c: negotiation.started(c, game_id, time.time())
                                            if c.status == "agreed" else None)
            if changed:
                self.announce_start(changed[1], game_id)
            return
        changed = self.store.transition(
            challenge.id, lambda c: negotiation.start_failed(c, "internal_error", time.time())
            if c.status == "agreed" else None)
        if changed:
            self.tell(changed[1])

    def expiry_loop(self) -> None:
        while True:
            try:
                self.expire_due()
            except Exception:
                self.lobby.log.exception("challenge expiry failed")
            self.socketio.sleep(EXPIRY_POLL_SECONDS)


def register_challenges(lobby: Lobby, sockets: WartesaalSockets) -> None:
    """Attach the challenge events, the seeks, the expiry loop and the preview route to the lobby."""
    desk = ChallengeDesk(lobby, ChallengeStore(lobby.redis))
    sockets.handles("challenge:create")(desk.create)
    sockets.handles("challenge:propose")(desk.propose)
    sockets.handles("challenge:accept")(desk.accept)
    sockets.handles("challenge:decline")(desk.decline)
    sockets.handles("challenge:rematch")(desk.rematch)
    desk.seeks = register_seeks(lobby, sockets, desk.store, desk.tell, desk.try_start)
    sockets.on_join.append(desk.send_open)
    lobby.background_tasks.append(desk.expiry_loop)
    _register_preview(lobby)


def _clock_name(clock: Any) -> str:
    if clock is None:
        return "ohne"
    return CLOCK_NAMES.get((clock.base_ms, clock.inc_ms), negotiation.DEFAULT_CLOCK)


def preview(game: str, options: dict[str, Any]) -> dict[str, Any] | None:
    """The start position's public view for the panel's preview, or None ("?") when it depends on the seed.

    Generic over the games: two seeds giving two different views means the
    position is drawn at the start (a Zufall map, a shuffled deck), so it stays
    unknown until then.
    """
    engine = get_game(game)
    options = engine.normalize_options(dict(options))
    first, second = (engine.view(engine.new_game(options, seed), None) for seed in (1, 2))
    return first if first == second else None


def _register_preview(lobby: Lobby) -> None:
    @lobby.app.get("/api/games/<game>/preview")
    def game_preview(game: str) -> Response:
        """``?options=<JSON object>`` → ``{"game", "view"}``; view null: shown as "?"."""
        try:
            options = json.loads(request.args.get("options", "{}"))
            if not isinstance(options, dict):
                raise ValueError("options must be an object")
            view = preview(game, options)
        except (ValueError, BadOptions) as exc:
            # In the asked language, like every other /api error.
            lang = request_language(request)
            if isinstance(exc, BadOptions):
                message = exc.en if lang == "en" else exc.de
            else:
                message = text("bad_json", lang)
            response = jsonify({"error": {"code": "bad_options", "message": message}})
            response.status_code = 400
            return response
        return jsonify({"game": game, "view": view})
