"""The session cookie: a signed token (``shared.auth_token``) naming the user, HttpOnly.

Logging out ends the session everywhere (``shared.session_tokens``), not only here.
"""

from __future__ import annotations

from flask import Request, Response

from shared import accounts, auth_token, session_tokens
from shared.accounts import Account
from shared.settings import Settings

# The game service reads the same cookie on its Socket.IO connect.
SESSION_COOKIE = "sc_session"


def session_from(request: Request, settings: Settings, pool) -> dict | None:  # noqa: ANN001  (ConnectionPool)
    """The claims ``{"uid", "name", "sid"}`` of the request's cookie, if its session is genuine and not logged out."""
    return session_tokens.claims(pool, request.cookies.get(SESSION_COOKIE), settings)


def account_from(request: Request, settings: Settings, pool) -> Account | None:  # noqa: ANN001  (ConnectionPool)
    """The account the request's cookie names, if the session is valid and the user exists."""
    claims = session_from(request, settings, pool)
    return accounts.get(pool, claims["uid"]) if claims else None


def set_session(response: Response, account: Account, settings: Settings, sid: str | None = None) -> None:
    """Sign ``account`` in on this response: in session ``sid``, or a new session when None."""
    response.set_cookie(
        SESSION_COOKIE,
        auth_token.issue(account.id, account.name, settings.secret_key, sid),
        max_age=settings.session_max_age,
        httponly=True,
        secure=settings.cookie_secure,
        samesite="Lax",
        path="/",
    )


def clear_session(response: Response, settings: Settings) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, secure=settings.cookie_secure, samesite="Lax")
