"""The signed session token that lets a browser's socket prove who it is.

The lobby issues it at login; the lobby's and the game service's Socket.IO connect
handlers verify it and refuse the socket otherwise.  It is an itsdangerous
URL-safe timed signature over ``{"uid": ..., "name": ..., "sid": ...}`` keyed by
SECRET_KEY, so any service holding the secret can verify it without a database round
trip.  ``sid`` names the login session: the game tickets issued within a session carry
its ``sid``, so logging out ends them all (``shared.session_tokens``).
"""

from __future__ import annotations

import secrets

from itsdangerous import BadSignature, URLSafeTimedSerializer

SALT = "spielcenter-session"


def _serializer(secret: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=SALT)


def new_session_id() -> str:
    return secrets.token_urlsafe(12)


def issue(user_id: int, name: str, secret: str, sid: str | None = None) -> str:
    """A token naming ``user_id``/``name`` in session ``sid`` (a new session if None), signed now with ``secret``."""
    return _serializer(secret).dumps({"uid": int(user_id), "name": str(name), "sid": sid or new_session_id()})


def verify(token: str, secret: str, max_age: int) -> dict | None:
    """The payload ``{"uid": int, "name": str, "sid": str}`` if ``token`` is genuine and at most ``max_age`` s old,
    else None.  Whether its session has logged out is :mod:`shared.session_tokens`' question."""
    if not isinstance(token, str) or not token or len(token) > 4096:
        return None
    try:
        payload = _serializer(secret).loads(token, max_age=max_age)
    except BadSignature:  # SignatureExpired is a subclass
        return None
    # A token without a session id could never be logged out: not accepted.
    if (not isinstance(payload, dict) or not isinstance(payload.get("uid"), int)
            or not isinstance(payload.get("name"), str) or not isinstance(payload.get("sid"), str)):
        return None
    return {"uid": payload["uid"], "name": payload["name"], "sid": payload["sid"]}
