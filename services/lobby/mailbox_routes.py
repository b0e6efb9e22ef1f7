"""The Postfach over HTTP (session cookie), and its pushes over the Wartesaal socket.

``GET  /api/postfach``                             your invitations (both ways) and notes; ``count`` = badge
``POST /api/postfach/invitations``                 invite a player (``InvitationRequest``)
``POST /api/postfach/invitations/<id>/accept``     start the game if the other side is here and free,
                                                   else it turns to them ("angenommen")
``POST /api/postfach/invitations/<id>/decline``    decline (the side it waits for) or withdraw (the other)
``POST /api/postfach/read``                        mark your notes read

Every action is decided from the session's user: an entry of two other players is
refused (403), whatever id is sent.  A started game is announced like a challenge's
(``challenge:started`` to both players' Wartesaal sockets, which open the table);
``postfach:changed`` tells a player their badge changed.  The rules are in
``services.lobby.mailbox``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, jsonify, request

from services.lobby import mailbox
from services.lobby.challenge_start import existing_game, refuse_guest_stake, require_stake, start_game
from services.lobby.session import account_from
from services.lobby.wartesaal import user_room
from shared import challenge as negotiation
from shared import creation_quota, game_store, i18n, presence
from shared.accounts import Account
from shared.challenge import Party, Settings
from shared.logs import event
from shared.schemas.mechanism import ProtocolError, validate_record

if TYPE_CHECKING:
    from services.lobby.app import Lobby


def mailbox_blueprint(lobby: Lobby) -> Blueprint:
    bp = Blueprint("postfach", __name__, url_prefix="/api/postfach")
    pool, socketio = lobby.pool, lobby.socketio

    @bp.errorhandler(ProtocolError)
    def refused(err: ProtocolError) -> tuple[Response, int]:
        lang = i18n.request_language(request)
        status = 401 if err.code == "not_logged_in" else mailbox.STATUS.get(err.code, 400)
        return jsonify({"error": {"code": err.code, "message": i18n.text(err.code, lang, **err.params)}}), status

    def caller() -> Account:
        account = account_from(request, lobby.settings, pool)
        if account is None:
            raise ProtocolError("not_logged_in")
        return account

    def body(record: str) -> dict[str, Any]:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise ProtocolError("bad_json")
        return validate_record(record, data)

    def tell(*user_ids: int) -> None:
        """Each one's new badge count, to their Wartesaal sockets on any lobby process."""
        with pool.connection() as conn:
            counts = {uid: mailbox.unread(conn, uid) for uid in user_ids}
        for uid, count in counts.items():
            socketio.emit("postfach:changed", {"count": count}, to=user_room(uid))

    def free_here(user_id: int) -> bool:
        """In the Wartesaal and not at a table: only then may a game start for them."""
        return (lobby.redis.hget("presence:names", user_id) is not None
                and lobby.redis.hget("presence:status", user_id) is None)

    @bp.get("")
    def contents() -> Any:
        me = caller()
        with pool.connection() as conn:
            return jsonify(mailbox.contents(conn, me.id))

    @bp.post("/read")
    def read() -> Any:
        me = caller()
        with pool.connection() as conn:
            mailbox.mark_read(conn, me.id)
            count = mailbox.unread(conn, me.id)
        return jsonify({"count": count})

    @bp.post("/invitations")
    def send() -> Any:
        me = caller()
        wanted = body("InvitationRequest")
        game = wanted["game"]
        settings = negotiation.checked_settings(game, Settings(
            clock=wanted["clock"], options=negotiation.default_settings(game).options, rated=wanted["rated"],
            stake=wanted["stake"], swap=False))
        with pool.connection() as conn, conn.transaction():
            # Only checked: the stake leaves the balances when the game starts, not now.
            require_stake(conn, [Party(me.id, me.name)], settings.stake)
            invitee = wanted["to_user_id"]
            refuse_guest_stake(conn, [Party(invitee, game_store.user_names(conn, [invitee]).get(invitee, "?"))],
                               settings.stake)
            invitation = mailbox.send(conn, Party(me.id, me.name), wanted["to_user_id"], game, settings)
            # Counted once it is a valid invitation; over the limit this transaction rolls it back.
            creation_quota.admit(lobby.redis, "invitation", str(me.id), creation_quota.INVITATIONS_PER_HOUR)
        tell(invitation.invitee.user_id)
        event(lobby.log, "invitation sent", invitation_id=invitation.id, game=game)
        return jsonify({"invitation": invitation.to_json()}), 201

    @bp.post("/invitations/<int:invitation_id>/accept")
    def accept(invitation_id: int) -> Any:
        me = caller()
        started: int | None = None
        with pool.connection() as conn, conn.transaction():
            invitation = mailbox.for_action(conn, invitation_id, me.id)
            mailbox.require_turn(invitation, me.id)
            other = invitation.other(me.id)
            if free_here(other.user_id):
                started = (existing_game(pool, mailbox.challenge_id(invitation.id))
                           or start_game(pool, invitation.as_challenge(time.time())))
                mailbox.mark_started(conn, invitation.id, started)
            else:
                require_stake(conn, [Party(me.id, me.name)], invitation.settings.stake)
                invitation = mailbox.turn_to_other(conn, invitation, me.id)
        tell(*(p.user_id for p in invitation.parties()))
        if started is None:
            return jsonify({"outcome": "waiting", "invitation": invitation.to_json()})
        announce_start(invitation, started)
        return jsonify({"outcome": "started", "game_id": started})

    def announce_start(invitation: mailbox.Invitation, game_id: int) -> None:
        # As a challenge's start (services.lobby.challenges): both Wartesaal pages open the table.
        for party in invitation.parties():
            presence.set_status(lobby.redis, party.user_id, "spielt")
        lobby.broadcast_players()
        payload = {"challenge_id": mailbox.challenge_id(invitation.id), "game_id": game_id, "game": invitation.game}
        for party in invitation.parties():
            socketio.emit("challenge:started", payload, to=user_room(party.user_id))
        event(lobby.log, "invitation started", invitation_id=invitation.id, game_id=game_id)

    @bp.post("/invitations/<int:invitation_id>/decline")
    def decline(invitation_id: int) -> Any:
        me = caller()
        with pool.connection() as conn, conn.transaction():
            invitation = mailbox.for_action(conn, invitation_id, me.id)
            outcome = mailbox.close(conn, invitation, me.id)
        tell(*(p.user_id for p in invitation.parties()))
        return jsonify({"outcome": outcome})

    return bp
