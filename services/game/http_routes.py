"""The game service's HTTP routes: live games, finished games for replay, records, my games.

``GET /api/games/live``               running Wartesaal games (TableSummary list)
``GET /api/games/<id>``               a finished game with every ply for the replay;
                                      a running one: its public data and the spectator view
                                      (a same-device table: only for its owner, as on the socket)
``GET /api/games/<id>/record.txt``    the text record of a finished game (download; same rule)

A finished game whose deal others still play (``services.game.rules.sealed``) has neither
until its seal ends: ``deal_sealed`` (403).
``GET /api/my-games``                 the caller's finished games (session cookie, or
                                      ``Authorization: Bearer <token>``)
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request
from psycopg_pool import ConnectionPool

from services.game.rules.private_tables import check_onlooker
from services.game.rules.sealed import is_sealed
from services.game.tables.refusals import TEXTS, TableRefusal
from shared import game_store, i18n, session_tokens
from shared.games import get_game
from shared.settings import Settings
from shared.table_replay import StateCache, as_ended, states_along

SESSION_COOKIE = "sc_session"  # the lobby's cookie (services.lobby.session), same signed token


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def table_kind(data: dict[str, Any]) -> str:
    """What sort of game a list row is: rated, friendly, computer, daily (a Tagesmarkt attempt) or same_device."""
    mode = data.get("mode", "wartesaal")
    if mode == "wartesaal":
        return "rated" if data["rated"] else "friendly"
    if mode == "computer" and data.get("daily"):
        return "daily"
    return mode


def summary(data: dict[str, Any], status: str) -> dict[str, Any]:
    """A ``TableSummary`` from a list query's row."""
    seats = []
    for seat in (0, 1):
        uid = data[f"seat{seat}_user_id"]
        seats.append({"user_id": uid, "name": data[f"seat{seat}_name"], "elo": None,
                      "computer": data.get("strength") if uid is None else None})
    clock = {"base_ms": data["base_ms"], "inc_ms": data["inc_ms"]} if data.get("base_ms") is not None else None
    return {"game_id": data["id"], "game": data["game"], "mode": data.get("mode", "wartesaal"),
            "kind": table_kind(data), "rated": data["rated"], "stake": data["stake"], "seats": seats, "plies": data["plies"], "clock": clock,
            "status": status, "result": data.get("result"), "created_at": _iso(data["created_at"]),
            "finished_at": _iso(data.get("finished_at"))}


def setup_end(engine: Any, states: list[Any]) -> int:
    """The ply where a setup phase (Battlegeneral: both place their pieces) gave way to play:
    the replay shows the setup as this one position; 0 for games without one.  A game that
    ended during its setup keeps its last position."""
    for ply, state in enumerate(states):
        if engine.view(state, None).get("phase") != "setup":
            return ply
    return len(states) - 1


def _refusal(code: str, status: int) -> tuple[Response, int]:
    lang = i18n.request_language(request)
    de, en = TEXTS[code]
    return jsonify({"error": {"code": code, "message": en if lang == "en" else de}}), status


def signed_in_user(pool: ConnectionPool, config: Settings) -> dict | None:
    """The request's user ``{"uid", "name", "sid"}`` from ``Authorization: Bearer <token>`` or the session cookie."""
    header = request.headers.get("Authorization", "")
    token = header[7:] if header.startswith("Bearer ") else request.cookies.get(SESSION_COOKIE)
    return session_tokens.claims(pool, token, config)


def games_blueprint(pool: ConnectionPool, cache: StateCache, config: Settings) -> Blueprint:
    bp = Blueprint("games", __name__)

    def refused_onlooker(row: game_store.GameRow) -> tuple[Response, int] | None:
        user = signed_in_user(pool, config)
        try:
            check_onlooker(row, user["uid"] if user else None)
        except TableRefusal as exc:
            return _refusal(exc.code, 403)
        return None

    @bp.get("/api/games/live")
    def live() -> Response:
        with pool.connection() as conn:
            rows = game_store.live_games(conn)
        return jsonify({"games": [summary(r, "running") for r in rows]})

    @bp.get("/api/games/<int:game_id>")
    def game(game_id: int) -> Any:
        with pool.connection() as conn:
            row = game_store.load(conn, game_id)
            names = game_store.user_names(conn, [u for u in row.seats if u is not None]) if row else {}
        if row is None or row.status == "aborted":
            return _refusal("not_found", 404)
        if refusal := refused_onlooker(row):
            return refusal
        if not row.running and is_sealed(row):
            return _refusal("deal_sealed", 403)
        engine = get_game(row.game)
        seats = [{"user_id": uid, "name": names.get(uid) if uid is not None else None, "elo": None,
                  "computer": row.strength if uid is None else None} for uid in row.seats]
        clock = {"base_ms": row.clock.base_ms, "inc_ms": row.clock.inc_ms} if row.clock else None
        data: dict[str, Any] = {
            "game_id": row.id, "game": row.game, "title": engine.title, "options": row.options, "mode": row.mode,
            "rated": row.rated, "stake": row.stake, "seats": seats, "clock": clock, "status": row.status,
            "result": row.result, "created_at": _iso(row.created_at), "finished_at": _iso(row.finished_at),
        }
        if row.running:
            # Public data only: what a spectator sees now.
            state = cache.state(row)
            view = engine.view(state, None)
            data.update(plies=len(row.moves), view=view)
            return jsonify(data)
        # After the end a spectator may see everything: every position along the way.
        states = states_along(row.game, row.options, row.seed, row.moves, row.move_seats, row.reshuffles)
        states[-1] = as_ended(row, states[-1])  # resigned, time, agreed, left: the end shows everything too
        final_history = engine.history(states[-1])
        data["moves"] = final_history
        # Every position with everything of its moment open (both hands, every rank); the last
        # one concluded (the result). A setup both sides made at once is one step, "Aufstellung".
        first = setup_end(engine, states)
        data["plies"] = [
            {"ply": i, "move": row.moves[i - 1] if i > first else None,
             "seat": row.move_seats[i - 1] if i > first else None,
             "time_ms": row.move_times[i - 1] if i > first else None, "position": engine.to_position(state),
             "view": engine.view(state, None) if i == len(states) - 1 else engine.open_view(state),
             "setup": i == first and first > 0}
            for i, state in enumerate(states) if i >= first
        ]
        return jsonify(data)

    @bp.get("/api/games/<int:game_id>/record.txt")
    def record(game_id: int) -> Any:
        with pool.connection() as conn:
            found = conn.execute("SELECT game, status, record FROM games WHERE id = %s", (game_id,)).fetchone()
            row = game_store.load(conn, game_id) if found is not None else None
        if found is None or row is None or found["status"] != "finished" or not found["record"]:
            return _refusal("not_found", 404)
        if refusal := refused_onlooker(row):
            return refusal
        if is_sealed(row):
            return _refusal("deal_sealed", 403)
        return Response(found["record"], mimetype="text/plain; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="spielcenter-{found["game"]}-{game_id}.txt"'})

    @bp.get("/api/my-games")
    def my_games() -> Any:
        claims = signed_in_user(pool, config)
        if claims is None:
            lang = i18n.request_language(request)
            return jsonify({"error": {"code": "not_logged_in", "message": i18n.text("not_logged_in", lang)}}), 401
        with pool.connection() as conn:
            rows = game_store.finished_games_of(conn, claims["uid"])
        return jsonify({"games": [summary(r, "finished") for r in rows]})

    return bp
