"""``/api/tagesmarkt``: start today's Battlehanse Tagesmarkt and read the Tagesliste.

``GET  /api/tagesmarkt``        ``DailyMarket``: the Berlin day, its ten best, and for a
                                registered player their own line (streak, today's score);
                                a guest gets ``needs_account`` instead.
``POST /api/tagesmarkt/start``  ``DailyStart``: a new computer table with the day's deal;
                                the client then opens ``#/partie/<game_id>``.
``GET  /api/tagesmarkt/versuch/<game_id>``  ``DailyAttemptAnswer``: the table says whether it
                                is the day's counted attempt (the game service knows
                                nothing of the Tagesmarkt).

Both need a session (guests included: they play practice).  See
:mod:`services.lobby.daily_market` for the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Response, jsonify, request

from services.lobby import daily_market
from services.lobby.session import account_from
from shared import creation_quota
from shared.i18n import request_language, text
from shared.schemas.mechanism import ProtocolError

if TYPE_CHECKING:
    from services.lobby.app import Lobby


def _not_logged_in() -> tuple[Response, int]:
    lang = request_language(request)
    return jsonify({"error": {"code": "not_logged_in", "message": text("not_logged_in", lang)}}), 401


def daily_market_blueprint(lobby: Lobby) -> Blueprint:
    bp = Blueprint("daily_market", __name__, url_prefix="/api/tagesmarkt")

    @bp.get("")
    def overview():  # noqa: ANN202
        account = account_from(request, lobby.settings, lobby.pool)
        if account is None:
            return _not_logged_in()
        today = daily_market.berlin_day(daily_market.now_utc())
        with lobby.pool.connection() as conn, conn.transaction():
            entries = daily_market.tagesliste(conn, today)
            mine = None if account.guest else daily_market.player_status(conn, account, today)
        response = jsonify({"day": today.isoformat(), "entries": entries, "mine": mine,
                            "needs_account": account.guest})
        response.headers["Cache-Control"] = "no-store"
        return response

    @bp.get("/versuch/<int:game_id>")
    def attempt(game_id: int):  # noqa: ANN202
        account = account_from(request, lobby.settings, lobby.pool)
        if account is None:
            return _not_logged_in()
        with lobby.pool.connection() as conn:
            found = daily_market.attempt_at(conn, account, game_id)
        response = jsonify({"attempt": found})
        response.headers["Cache-Control"] = "no-store"
        return response

    @bp.post("/start")
    def start():  # noqa: ANN202
        account = account_from(request, lobby.settings, lobby.pool)
        if account is None:
            return _not_logged_in()
        try:
            creation_quota.admit(lobby.redis, "table", str(account.id), creation_quota.TABLES_PER_HOUR)
        except ProtocolError as err:
            return jsonify({"error": {"code": err.code, "message": text(err.code, request_language(request),
                                                                        **err.params)}}), 429
        with lobby.pool.connection() as conn, conn.transaction():
            started = daily_market.start_attempt(conn, account, daily_market.now_utc(),
                                                   lobby.settings.secret_key)
        return jsonify(started)

    return bp
