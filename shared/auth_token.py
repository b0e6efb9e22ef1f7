"""The signed session token that lets a browser's socket prove who it is.

The lobby issues it at login; the lobby's and the game service's Socket.IO connect
handlers verify it and refuse the socket otherwise.  It is an itsdangerous
URL-safe timed signature over ``{"uid": ..., "name": ...}`` keyed by SECRET_KEY, so
any service holding the secret can verify it without a database round trip.
"""

from __future__ import annotations

from itsdangerous import BadSignature, URLSafeTimedSerializer

SALT = "spielcenter-session"


def _serializer(secret: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=SALT)


def issue(user_id: int, name: str, secret: str) -> str:
    """A token naming ``user_id``/``name``, signed now with ``secret``."""
    return _serializer(secret).dumps({"uid": int(user_id), "name": str(name)})


def verify(token: str, secret: str, max_age: int) -> dict | None:
    """The payload ``{"uid": int, "name": str}`` if ``token`` is genuine and at most ``max_age`` s old, else None."""
    if not isinstance(token, str) or not token or len(token) > 4096:
        return None
    try:
        payload = _serializer(secret).loads(token, max_age=max_age)
    except BadSignature:  # SignatureExpired is a subclass
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("uid"), int) or not isinstance(payload.get("name"), str):
        return None
    return {"uid": payload["uid"], "name": payload["name"]}
