"""The rating service's HTTP JSON: ``/api/rating/lists`` and ``/api/rating/players/<id>``.

``GET /api/rating/lists?game=hexagon&kind=elo|month|all`` → ``{"game", "kind", "entries": [...]}``;
``GET /api/rating/players/<id>`` → ratings per game and recent results.  The lobby
forwards both under the same paths (``services.lobby.rating_proxy``).
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request
from psycopg_pool import ConnectionPool
from werkzeug.exceptions import HTTPException

from services.rating.standings import KINDS, list_of, player
from shared.games import GAME_NAMES
from shared.i18n import request_language, text

BAD_LIST = {
    "de": "Unbekannte Liste: game muss {games} sein, kind {kinds}.",
    "en": "Unknown list: game must be {games}, kind {kinds}.",
}
NO_PLAYER = {"de": "Diesen Spieler gibt es nicht.", "en": "No such player."}


def _error(code: str, texts: dict[str, str], status: int) -> Response:
    lang = request_language(request)
    response = jsonify({"error": {"code": code, "message": texts[lang].format(
        games=", ".join(GAME_NAMES), kinds=", ".join(KINDS))}})
    response.status_code = status
    return response


def rating_blueprint(pool: ConnectionPool) -> Blueprint:
    blueprint = Blueprint("rating_lists", __name__)

    @blueprint.get("/api/rating/lists")
    def lists() -> Response:
        game, kind = request.args.get("game", ""), request.args.get("kind", "elo")
        if game not in GAME_NAMES or kind not in KINDS:
            return _error("bad_list", BAD_LIST, 400)
        with pool.connection() as conn:
            entries = list_of(conn, game, kind)
        return jsonify({"game": game, "kind": kind, "entries": entries})

    @blueprint.get("/api/rating/players/<int:user_id>")
    def one_player(user_id: int) -> Response:
        with pool.connection() as conn:
            found = player(conn, user_id)
        return jsonify(found) if found is not None else _error("unknown_player", NO_PLAYER, 404)

    @blueprint.app_errorhandler(HTTPException)
    def http_error(err: HTTPException) -> Response:
        # The lobby forwards /api/rating/<anything> here: an unknown path or a wrong method
        # answers in the same JSON shape as every other /api error, not Flask's HTML page.
        if not request.path.startswith("/api/"):
            return err.get_response()
        lang = request_language(request)
        response = jsonify({"error": {"code": "unknown_route",
                                      "message": text("unknown_route", lang, path=request.path[:60])}})
        response.status_code = err.code or 400
        return response

    return blueprint
