"""``/api/spiel/<game>``: the numbers on a game's page — how often it was played, its stars.

GET answers anyone (the page is public); POST ``/api/spiel/<game>/sterne`` stores the
signed-in player's 1–5 stars, only when they have played the game (``game_stars``).
Errors use the lobby's JSON shape with a message in the client's language.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

from flask import Blueprint, Response, jsonify, request

from services.lobby import game_stars
from services.lobby.session import account_from
from shared.i18n import request_language, text
from shared.schemas.mechanism import ProtocolError, validate_record

if TYPE_CHECKING:
    from services.lobby.app import Lobby

_STATUS = {"unknown_game": 404, "not_logged_in": 401, "stars_not_played": 403}


def _error(code: str, **params: object) -> tuple[Response, int]:
    lang = request_language(request)
    return jsonify({"error": {"code": code, "message": text(code, lang, **params)}}), _STATUS.get(code, 400)


def game_page_blueprint(lobby: Lobby) -> Blueprint:
    bp = Blueprint("game_page", __name__, url_prefix="/api/spiel")

    def answer(game: str, user_id: int | None) -> Response:
        response = jsonify({"figures": asdict(game_stars.figures(lobby.pool, game, user_id))})
        response.headers["Cache-Control"] = "no-store"
        return response

    @bp.get("/<game>")
    def figures(game: str):  # noqa: ANN202
        if game not in game_stars.GAMES:
            return _error("unknown_game", game=game[:40])
        account = account_from(request, lobby.settings, lobby.pool)
        return answer(game, account.id if account else None)

    @bp.post("/<game>/sterne")
    def rate(game: str):  # noqa: ANN202
        if game not in game_stars.GAMES:
            return _error("unknown_game", game=game[:40])
        account = account_from(request, lobby.settings, lobby.pool)
        if account is None:
            return _error("not_logged_in")
        body = request.get_json(silent=True)
        try:
            if not isinstance(body, dict):
                raise ProtocolError("bad_json")
            stars = validate_record("StarsBody", body)["stars"]
            game_stars.rate(lobby.pool, account.id, game, stars)
        except (ProtocolError, game_stars.StarsRefused) as refused:
            return _error(refused.code, **refused.params)
        return answer(game, account.id)

    return bp
