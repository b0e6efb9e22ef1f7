"""Profiles and the statistics of Meine Partien, as HTTP JSON on the lobby.

``GET /api/players/<id>``              the profile: name, Elo and record per game, recent games,
                                       whether the player is in the Wartesaal now
``GET /api/players/<id>/elo-history``  per game, the Elo after every counted rated game
``GET /api/my-games/statistics``       the caller's statistics (session cookie), filtered by
                                       ``game``, ``opponent``, ``result``, ``kind``

Profiles are public (any visitor may look a player up); the statistics with their
filters are the caller's own.  Errors answer ``{"error": {"code", "message"}}`` in the
language of ``X-Lang``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, jsonify, request

from services.lobby import player_statistics as stats
from services.lobby.session import account_from
from shared import i18n
from shared.games import GAME_NAMES

if TYPE_CHECKING:
    from services.lobby.app import Lobby

RECENT_GAMES = 10
START_ELO = 1500

TEXTS: dict[str, dict[str, str]] = {
    "profile_unknown": {"de": "Diesen Spieler gibt es nicht.", "en": "No such player."},
    "statistics_bad_filter": {
        "de": "Unbekannter Filter {name}: erlaubt sind {allowed}.",
        "en": "Unknown filter {name}: allowed are {allowed}.",
    },
}
i18n.TEXTS.update(TEXTS)


def _error(code: str, status: int, **params: object) -> tuple[Response, int]:
    lang = i18n.request_language(request)
    return jsonify({"error": {"code": code, "message": i18n.text(code, lang, **params)}}), status


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def profile_blueprint(lobby: Lobby) -> Blueprint:
    bp = Blueprint("profiles", __name__, url_prefix="/api")
    pool = lobby.pool

    @bp.get("/players/<int:user_id>")
    def profile(user_id: int) -> Any:
        with pool.connection() as conn:
            user = conn.execute("SELECT id, name, is_guest FROM users WHERE id = %s", (user_id,)).fetchone()
            if user is None:
                return _error("profile_unknown", 404)
            ratings = conn.execute("SELECT game, elo, games FROM ratings WHERE user_id = %s",
                                   (user_id,)).fetchall()
            games = stats.played_games(conn, user_id)
        here = lobby.redis.hget("presence:names", user_id) is not None
        status = (_text(lobby.redis.hget("presence:status", user_id)) or "frei") if here else None
        rated = {r["game"]: r for r in ratings}
        record = stats.per_game(games)
        return jsonify({
            "user_id": user["id"], "name": user["name"], "guest": user["is_guest"], "here": here, "status": status,
            "games": [{
                "game": game,
                "elo": rated[game]["elo"] if game in rated else START_ELO,
                "rated_games": rated[game]["games"] if game in rated else 0,
                **record.get(game, {"wins": 0, "losses": 0, "draws": 0}),
            } for game in GAME_NAMES],
            "recent": [{"game_id": g.game_id, "game": g.game, "kind": g.kind, "result": g.result,
                        "opponent": g.opponent_json(), "finished_at": g.finished_at}
                       for g in games[:RECENT_GAMES]],
        })

    @bp.get("/players/<int:user_id>/elo-history")
    def elo_history(user_id: int) -> Any:
        with pool.connection() as conn:
            if conn.execute("SELECT 1 FROM users WHERE id = %s", (user_id,)).fetchone() is None:
                return _error("profile_unknown", 404)
            history = stats.elo_history(conn, user_id)
        return jsonify({"user_id": user_id, "history": history})

    @bp.get("/my-games/statistics")
    def my_statistics() -> Any:
        account = account_from(request, lobby.settings, pool)
        if account is None:
            return _error("not_logged_in", 401)
        filters: dict[str, str | None] = {}
        for name, allowed in (("game", GAME_NAMES), ("result", stats.RESULTS), ("kind", stats.KINDS)):
            value = request.args.get(name) or None
            if value is not None and value not in allowed:
                return _error("statistics_bad_filter", 400, name=name, allowed=", ".join(allowed))
            filters[name] = value
        filters["opponent"] = (request.args.get("opponent") or None)
        with pool.connection() as conn:
            games = stats.played_games(conn, account.id)
        chosen = stats.matching(games, **filters)
        return jsonify({
            "filters": filters,
            "per_game": stats.per_game(chosen),
            "per_opponent": stats.per_opponent(chosen),
            "opponents": stats.opponents(games),
            "game_ids": [g.game_id for g in chosen],
        })

    return bp
