"""The session cookie: a signed token (``shared.auth_token``) naming the user, HttpOnly."""

from __future__ import annotations

from flask import Request, Response

from shared import accounts, auth_token
from shared.accounts import Account
from shared.settings import Settings

# The game service reads the same cookie on its Socket.IO connect.
SESSION_COOKIE = "sc_session"


def account_from(request: Request, settings: Settings, pool) -> Account | None:  # noqa: ANN001  (ConnectionPool)
    """The account the request's cookie names, if the token is genuine and the user exists."""
    token = request.cookies.get(SESSION_COOKIE)
    claims = auth_token.verify(token, settings.secret_key, settings.session_max_age) if token else None
    return accounts.get(pool, claims["uid"]) if claims else None


def set_session(response: Response, account: Account, settings: Settings) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        auth_token.issue(account.id, account.name, settings.secret_key),
        max_age=settings.session_max_age,
        httponly=True,
        secure=settings.cookie_secure,
        samesite="Lax",
        path="/",
    )


def clear_session(response: Response, settings: Settings) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, secure=settings.cookie_secure, samesite="Lax")
