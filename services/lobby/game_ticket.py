"""``GET /api/game-ticket``: what the browser needs to open the game service's socket.

The game service authenticates its Socket.IO connect with ``auth: {token, lang}``
(``services.game.sockets``), but the lobby's session cookie is HttpOnly, so page
code cannot read it.  This route hands the signed-in browser a token of the same
kind (``shared.auth_token``, same secret, lifetime and session id, so logging out ends
it too) together with the game service's public URL, which differs from the lobby's
origin in development.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from services.lobby.session import session_from
from shared import accounts, auth_token, i18n


def game_ticket_blueprint(lobby) -> Blueprint:  # noqa: ANN001  (services.lobby.app.Lobby)
    bp = Blueprint("game_ticket", __name__)

    @bp.get("/api/game-ticket")
    def game_ticket() -> tuple[Response, int]:
        claims = session_from(request, lobby.settings, lobby.pool)
        account = accounts.get(lobby.pool, claims["uid"]) if claims else None
        if account is None:
            lang = i18n.request_language(request)
            return jsonify({"error": {"code": "not_logged_in", "message": i18n.text("not_logged_in", lang)}}), 401
        token = auth_token.issue(account.id, account.name, lobby.settings.secret_key, claims["sid"])
        response = jsonify({"token": token, "game_url": lobby.settings.game_url})
        response.headers["Cache-Control"] = "no-store"
        return response, 200

    return bp
