"""What a finished game did to the caller: Elo, points and Taler, for the result box.

``GET /api/my-games/<id>/result``  the caller's own game only (session cookie)::

    {"settled": false, ...every other field null}      the rating service has not settled it yet
    {"settled": true, "counted": bool, "rated": bool, "stake": int,
     "elo_before": int|null, "elo_after": int|null, "points": int|null,
     "taler": int, "balance": int}

``taler`` is the net of every Taler movement of the game for the caller (stake out,
pot or stake back in), so a too-short game with a stake reads 0 and ``counted`` false;
``balance`` is the caller's balance now, for the header.  Settled means the rating
service wrote its ``rated_games`` row, in the same transaction as the pot and the Elo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, jsonify, request

from services.lobby.challenge_start import stake_ref
from services.lobby.session import account_from
from shared import i18n

if TYPE_CHECKING:
    from services.lobby.app import Lobby

TEXTS: dict[str, dict[str, str]] = {
    "game_result_unknown": {"de": "Diese Partie hast du nicht gespielt.", "en": "You did not play this game."},
}
i18n.TEXTS.update(TEXTS)


FIELDS = ("counted", "rated", "stake", "elo_before", "elo_after", "points", "taler", "balance")


def _error(code: str, status: int) -> tuple[Response, int]:
    lang = i18n.request_language(request)
    return jsonify({"error": {"code": code, "message": i18n.text(code, lang)}}), status


def game_result_blueprint(lobby: Lobby) -> Blueprint:
    bp = Blueprint("game_results", __name__, url_prefix="/api")
    pool = lobby.pool

    @bp.get("/my-games/<int:game_id>/result")
    def game_result(game_id: int) -> Any:
        account = account_from(request, lobby.settings, pool)
        if account is None:
            return _error("not_logged_in", 401)
        with pool.connection() as conn:
            game = conn.execute(
                "SELECT g.rated, g.stake, g.status, g.seat0_user_id, g.seat1_user_id, r.counted"
                " FROM games g LEFT JOIN rated_games r ON r.game_id = g.id WHERE g.id = %s",
                (game_id,),
            ).fetchone()
            if game is None or account.id not in (game["seat0_user_id"], game["seat1_user_id"]):
                return _error("game_result_unknown", 404)
            if game["status"] != "finished" or game["counted"] is None:
                return jsonify(dict.fromkeys(FIELDS) | {"settled": False})
            rating = conn.execute(
                "SELECT elo_before, elo_after, points FROM rating_results WHERE game_id = %s AND user_id = %s",
                (game_id, account.id),
            ).fetchone()
            taler = conn.execute(
                "SELECT COALESCE(SUM(amount) FILTER (WHERE ref = %s), 0) AS game,"
                " COALESCE(SUM(amount), 0) AS balance FROM taler_ledger WHERE user_id = %s",
                (stake_ref(game_id), account.id),
            ).fetchone()
        return jsonify({
            "settled": True, "counted": bool(game["counted"]), "rated": bool(game["rated"]),
            "stake": int(game["stake"] or 0),
            "elo_before": rating["elo_before"] if rating else None,
            "elo_after": rating["elo_after"] if rating else None,
            "points": rating["points"] if rating else None,
            "taler": int(taler["game"]), "balance": int(taler["balance"]),
        })

    return bp
