"""HTTP routes for accounts: guest, register, login, logout, me.

Bodies are JSON objects checked against ``shared.schemas``; errors answer
``{"error": {"code", "message"}}`` with the message in the language the client asks
for (``shared.i18n.request_language``: the ``X-Lang`` header first; German by default).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import gevent
from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from services.lobby.session import account_from, clear_session, session_from, set_session
from shared import accounts, creation_quota, ledger, login_throttle, session_tokens
from shared.accounts import Account
from shared.i18n import request_language, text
from shared.logs import event
from shared.schemas.mechanism import ProtocolError, validate_record

if TYPE_CHECKING:
    from services.lobby.app import Lobby

_STATUS = {
    "not_logged_in": 401,
    "login_failed": 401,
    "already_registered": 409,
    "name_taken": 409,
    "login_throttled": 429,
    "login_wait": 429,
    "guest_throttled": 429,
    "registration_throttled": 429,
}


def _lang() -> str:
    return request_language(request)


def _error(code: str, status: int | None = None, **params: object) -> tuple[Response, int]:
    body = {"error": {"code": code, "message": text(code, _lang(), **params)}}
    return jsonify(body), status or _STATUS.get(code, 400)


def _client_address() -> str:
    """The player's address for the login and sign-up throttles: the connection's own, or behind
    ``TRUSTED_PROXY_HOPS`` proxies the one they saw (``services.lobby.client_address``)."""
    return (request.remote_addr or "unknown")[:64]


def _off_hub(fn, *args):  # noqa: ANN001, ANN202
    """Run CPU-heavy argon2 in gevent's thread pool (argon2 releases the GIL), so the hub keeps serving sockets."""
    return gevent.get_hub().threadpool.apply(fn, args)


def account_blueprint(lobby: Lobby) -> Blueprint:
    bp = Blueprint("accounts", __name__, url_prefix="/api")
    settings, pool = lobby.settings, lobby.pool

    def user_json(account: Account) -> dict:
        return {
            "id": account.id,
            "name": account.name,
            "guest": account.guest,
            "balance": ledger.balance(pool, account.id),
        }

    def signed_in(account: Account, status: int = 200, sid: str | None = None) -> tuple[Response, int]:
        response = jsonify({"user": user_json(account)})
        set_session(response, account, settings, sid)
        return response, status

    def credentials() -> dict:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise ProtocolError("bad_json")
        return validate_record("Credentials", body)

    @bp.errorhandler(ProtocolError)
    def protocol_error(err: ProtocolError):  # noqa: ANN202
        return _error(err.code, **err.params)

    @bp.app_errorhandler(HTTPException)
    def http_error(err: HTTPException):  # noqa: ANN202
        # Under /api every failure answers in the same JSON shape (413 oversized body,
        # 404 unknown route, 405 wrong method); elsewhere Flask's own page is fine.
        if not request.path.startswith("/api/"):
            return err
        code = {413: "payload_too_large", 404: "unknown_route", 405: "unknown_route"}.get(err.code or 400, "bad_json")
        return _error(code, err.code or 400, limit=request.max_content_length or 0, path=request.path[:60])

    @bp.get("/me")
    def me():  # noqa: ANN202
        account = account_from(request, settings, pool)
        if account is None:
            return _error("not_logged_in")
        return jsonify({"user": user_json(account)})

    @bp.post("/guest")
    def guest():  # noqa: ANN202
        account = account_from(request, settings, pool)
        if account is None:
            creation_quota.admit(lobby.redis, "guest", _client_address(), settings.guests_per_hour)
            account = accounts.create_guest(pool)
        event(lobby.log, "guest", user_id=account.id)
        return signed_in(account)

    @bp.post("/register")
    def register():  # noqa: ANN202
        body = credentials()
        session = session_from(request, settings, pool)
        current = accounts.get(pool, session["uid"]) if session else None
        if current is not None and not current.guest:
            raise ProtocolError("already_registered")
        # The rules first: a typo costs no registration of the hour.
        name = accounts.normalize_name(body["name"])
        accounts.check_name(name)
        accounts.check_password(body["password"])
        address = _client_address()
        creation_quota.admit(lobby.redis, "registration", address, settings.registrations_per_hour)
        account = accounts.register(pool, name, body["password"], current.id if current else None, run_cpu=_off_hub)
        login_throttle.record_success(lobby.redis, account.name, address, attempted=False)
        event(lobby.log, "registered", user_id=account.id, from_guest=current is not None)
        # A guest who registers stays in its session: the guest's cookie copies, game tickets and
        # open sockets now act for the account, so the account's logout must end them too.
        return signed_in(account, 201 if current is None else 200, session["sid"] if current else None)

    @bp.post("/login")
    def login():  # noqa: ANN202
        body = credentials()
        name, address = accounts.normalize_name(body["name"]), _client_address()
        login_throttle.take_attempt(lobby.redis, name, address)
        account = accounts.authenticate(pool, name, body["password"], run_cpu=_off_hub)
        if account is None:
            login_throttle.record_failure(lobby.redis, name, address)
            event(lobby.log, "login failed", address=address)
            return _error("login_failed")
        login_throttle.record_success(lobby.redis, name, address)
        event(lobby.log, "login", user_id=account.id)
        return signed_in(account)

    @bp.post("/logout")
    def logout():  # noqa: ANN202
        session = session_from(request, settings, pool)
        if session is not None:
            # Copies of the cookie and the session's game tickets stop working too, and the
            # session's open sockets are ended in every process (this one's at once).
            session_tokens.log_out(pool, lobby.redis, session, settings)
            lobby.sessions.end([session["sid"]])
            event(lobby.log, "logout", user_id=session["uid"])
        response = jsonify({"ok": True})
        clear_session(response, settings)
        return response

    return bp
