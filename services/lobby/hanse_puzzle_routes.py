"""``/api/handelsaufgaben``: the Battlehanse puzzles, one answer at a time, progress per player.

``GET  /api/handelsaufgaben``        ``PuzzleList``: every puzzle with the player's best stars.
``GET  /api/handelsaufgaben/<id>``   ``Puzzle``: the position as the solving seat sees it
                                     (the engine's ``view``; nothing hidden leaves the server).
``POST /api/handelsaufgaben/<id>``   body ``PuzzleAnswerBody`` → ``PuzzleAnswer``: stars, the
                                     value of the move and the best moves with their values.

An illegal move is refused with the engine's reason in the client's language; nothing
is stored then.  See :mod:`services.lobby.hanse_puzzles` for the stars.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Response, jsonify, request

from services.lobby import hanse_puzzles, puzzle_ratings
from services.lobby.session import account_from
from shared.accounts import Account
from shared.i18n import request_language, text
from shared.schemas.mechanism import ProtocolError, validate_record

if TYPE_CHECKING:
    from services.lobby.app import Lobby

_STATUS = {"not_logged_in": 401, "puzzle_unknown": 404}


def _lang() -> str:
    return request_language(request)


def _error(code: str, message: str) -> tuple[Response, int]:
    return jsonify({"error": {"code": code, "message": message}}), _STATUS.get(code, 400)


def _refused(exc: hanse_puzzles.PuzzleError) -> tuple[Response, int]:
    return _error(exc.code, exc.en if _lang() == "en" else exc.de)


def hanse_puzzle_blueprint(lobby: Lobby) -> Blueprint:
    bp = Blueprint("hanse_puzzles", __name__, url_prefix="/api/handelsaufgaben")

    def signed_in() -> Account | None:
        return account_from(request, lobby.settings, lobby.pool)

    @bp.get("")
    def overview():  # noqa: ANN202
        account = signed_in()
        if account is None:
            return _error("not_logged_in", text("not_logged_in", _lang()))
        with lobby.pool.connection() as conn:
            progress = hanse_puzzles.progress_of(conn, account.id)
            rating = puzzle_ratings.player_rating(conn, account.id, "hanse")
        puzzles = [{"id": p["id"], "kind": p["kind"], "stars": progress.get(p["id"], {}).get("stars", 0),
                    "attempts": progress.get(p["id"], {}).get("attempts", 0)} for p in hanse_puzzles.all_puzzles()]
        return jsonify({"puzzles": puzzles, "stars": sum(p["stars"] for p in puzzles), "max_stars": 3 * len(puzzles),
                        "rating": rating})

    @bp.get("/<puzzle_id>")
    def show(puzzle_id: str):  # noqa: ANN202
        account = signed_in()
        if account is None:
            return _error("not_logged_in", text("not_logged_in", _lang()))
        try:
            data = hanse_puzzles.puzzle(puzzle_id)
        except hanse_puzzles.PuzzleError as exc:
            return _refused(exc)
        with lobby.pool.connection() as conn:
            mine = hanse_puzzles.progress_of(conn, account.id).get(puzzle_id, {})
        return jsonify({"id": data["id"], "kind": data["kind"], "seat": data["seat"],
                        "view": hanse_puzzles.puzzle_view(data), "stars": mine.get("stars", 0),
                        "attempts": mine.get("attempts", 0)})

    @bp.post("/<puzzle_id>")
    def answer(puzzle_id: str):  # noqa: ANN202
        account = signed_in()
        if account is None:
            return _error("not_logged_in", text("not_logged_in", _lang()))
        body = request.get_json(silent=True)
        try:
            if not isinstance(body, dict):
                raise ProtocolError("bad_json")
            move = validate_record("PuzzleAnswerBody", body)["move"]
            result = hanse_puzzles.solve(hanse_puzzles.puzzle(puzzle_id), move)
        except ProtocolError as exc:
            return _error(exc.code, text(exc.code, _lang(), **exc.params))
        except hanse_puzzles.PuzzleError as exc:
            return _refused(exc)
        with lobby.pool.connection() as conn, conn.transaction():
            best_stars, change = hanse_puzzles.record_answer(conn, account.id, puzzle_id, result["stars"])
        return jsonify({**result, "best_stars": best_stars, "rating_change": change})

    return bp
