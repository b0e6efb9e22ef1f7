"""The Rückblick's data route: ``GET /api/games/<id>/review[?seat=0|1]``.

Answers the ``Review`` record (``shared.schemas.table_events``) of the caller's own seat, or of the
given seat: status (none, queued, running, done, failed), progress and one entry per
judged move (played, best, their values, the loss and the class green / yellow / red).
The page polls it while the batch queue works.  Who may read what is decided in
:mod:`services.game.solo.review_access`: the player of the seat, or anyone once that player
made it public.  Session cookie or ``Authorization: Bearer <token>`` as ``/api/my-games``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from psycopg_pool import ConnectionPool

from services.game.http_routes import signed_in_user
from services.game.solo.review_access import readable_review
from services.game.tables.refusals import TableRefusal
from shared import i18n
from shared.settings import Settings

STATUS_OF = {"not_found": 404, "review_not_yours": 403, "review_after_end": 409, "deal_sealed": 403}


def review_blueprint(pool: ConnectionPool, config: Settings) -> Blueprint:
    bp = Blueprint("reviews", __name__)

    @bp.get("/api/games/<int:game_id>/review")
    def review(game_id: int) -> Any:
        lang = i18n.request_language(request)
        claims = signed_in_user(pool, config)
        if claims is None:
            return jsonify({"error": {"code": "not_logged_in", "message": i18n.text("not_logged_in", lang)}}), 401
        seat_arg = request.args.get("seat")
        seat = int(seat_arg) if seat_arg in ("0", "1") else None
        try:
            with pool.connection() as conn:
                data = readable_review(conn, claims["uid"], game_id, seat)
        except TableRefusal as exc:
            return jsonify({"error": {"code": exc.code, "message": exc.message(lang)}}), STATUS_OF.get(exc.code, 400)
        return jsonify(data)

    return bp
