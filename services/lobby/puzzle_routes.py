"""``/api/aufgaben``: the rated puzzles of Battlehexagon, Battlebullet and Battlegeneral.

``GET  /api/aufgaben/<game>/uebersicht``   ``AufgabenOverview``: the player's puzzle rating,
                                          streaks, the themes to filter by, today's daily state.
``GET  /api/aufgaben/<game>[?thema=&modus=serie]``  ``AufgabeAttempt``: the open attempt, or a
                                          new puzzle near the player's rating (``modus=serie``:
                                          the running streak's).
``GET  /api/aufgaben/<game>/daily``        ``AufgabeAttempt``: the day's puzzle, the same for
                                          everyone (its first attempt counts).
``POST /api/aufgaben/<game>/versuch/<id>`` body ``AufgabeMoveBody`` → ``AufgabeAttempt``.

Every route needs a session (guests too: their progress stays with the row that becomes
their account).  Refusals carry a code and a message in the client's language.  See
:mod:`services.lobby.puzzle_play` for the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Response, jsonify, request

from services.lobby import puzzle_play
from services.lobby.daily_market import now_utc
from services.lobby.session import account_from
from shared.accounts import Account
from shared.i18n import request_language, text
from shared.schemas.mechanism import ProtocolError, validate_record

if TYPE_CHECKING:
    from services.lobby.app import Lobby


def _error(code: str, message: str, status: int) -> tuple[Response, int]:
    return jsonify({"error": {"code": code, "message": message}}), status


def _answer(payload: dict) -> Response:
    response = jsonify(payload)
    response.headers["Cache-Control"] = "no-store"  # an attempt changes with every move
    return response


def puzzle_blueprint(lobby: Lobby) -> Blueprint:
    bp = Blueprint("aufgaben", __name__, url_prefix="/api/aufgaben")

    def lang() -> str:
        return request_language(request)

    def refused(exc: puzzle_play.PlayError) -> tuple[Response, int]:
        return _error(exc.code, exc.en if lang() == "en" else exc.de, exc.status)

    def signed_in() -> Account | None:
        return account_from(request, lobby.settings, lobby.pool)

    def not_logged_in() -> tuple[Response, int]:
        return _error("not_logged_in", text("not_logged_in", lang()), 401)

    @bp.get("/<game>/uebersicht")
    def overview(game: str):  # noqa: ANN202
        account = signed_in()
        if account is None:
            return not_logged_in()
        try:
            with lobby.pool.connection() as conn:
                return _answer(puzzle_play.overview(conn, account, game, now_utc()))
        except puzzle_play.PlayError as exc:
            return refused(exc)

    def give(game: str, mode: str, theme: str | None):  # noqa: ANN202
        account = signed_in()
        if account is None:
            return not_logged_in()
        try:
            with lobby.pool.connection() as conn, conn.transaction():
                return _answer(puzzle_play.give(conn, account, game, mode, theme, now_utc(),
                                                lobby.settings.secret_key))
        except puzzle_play.PlayError as exc:
            return refused(exc)

    @bp.get("/<game>")
    def next_puzzle(game: str):  # noqa: ANN202
        mode = "streak" if request.args.get("modus") == "serie" else "rated"
        return give(game, mode, request.args.get("thema") or None)

    @bp.get("/<game>/daily")
    def daily(game: str):  # noqa: ANN202
        return give(game, "daily", None)

    @bp.post("/<game>/versuch/<int:attempt_id>")
    def move(game: str, attempt_id: int):  # noqa: ANN202
        account = signed_in()
        if account is None:
            return not_logged_in()
        try:
            body = validate_record("PuzzleMoveBody", request.get_json(silent=True))
        except ProtocolError as exc:
            return _error(exc.code, text(exc.code, lang(), **exc.params), 400)
        try:
            with lobby.pool.connection() as conn, conn.transaction():
                return _answer(puzzle_play.move(conn, account, game, attempt_id, body["ply"], body["move"],
                                                 now_utc()))
        except puzzle_play.PlayError as exc:
            return refused(exc)

    return bp
