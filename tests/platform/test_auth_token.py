"""The signed session token shared by the lobby (issuer) and every socket (verifier)."""

from __future__ import annotations

import time

from shared import auth_token


def test_a_fresh_token_names_its_user_and_session() -> None:
    token = auth_token.issue(42, "Jörg", "s3cret")
    claims = auth_token.verify(token, "s3cret", max_age=60)
    assert claims is not None and {k: claims[k] for k in ("uid", "name")} == {"uid": 42, "name": "Jörg"}
    assert len(claims["sid"]) >= 16 and claims["sid"] != auth_token.verify(auth_token.issue(42, "Jörg", "s3cret"),
                                                                            "s3cret", max_age=60)["sid"]
    # A game ticket issued within the session carries the session's id (logging out ends both).
    assert auth_token.verify(auth_token.issue(42, "Jörg", "s3cret", claims["sid"]), "s3cret", 60)["sid"] == claims["sid"]


def test_forged_tampered_and_foreign_tokens_are_rejected() -> None:
    token = auth_token.issue(42, "jörg", "s3cret")
    assert auth_token.verify(token, "other", max_age=60) is None
    assert auth_token.verify(token[:-2] + ("AA" if not token.endswith("AA") else "BB"), "s3cret", max_age=60) is None
    assert auth_token.verify("", "s3cret", max_age=60) is None
    assert auth_token.verify("a.b.c", "s3cret", max_age=60) is None
    assert auth_token.verify(None, "s3cret", max_age=60) is None  # type: ignore[arg-type]
    assert auth_token.verify("x" * 10_000, "s3cret", max_age=60) is None
    # Same secret, other purpose (salt): not a session token.
    from itsdangerous import URLSafeTimedSerializer

    other = URLSafeTimedSerializer("s3cret", salt="password-reset").dumps({"uid": 1, "name": "x", "sid": "s"})
    assert auth_token.verify(other, "s3cret", max_age=60) is None
    # Genuinely signed but without a session id: it could never be logged out, so it is refused.
    sessionless = URLSafeTimedSerializer("s3cret", salt=auth_token.SALT).dumps({"uid": 1, "name": "x"})
    assert auth_token.verify(sessionless, "s3cret", max_age=60) is None


def test_an_expired_token_is_rejected() -> None:
    token = auth_token.issue(1, "anna", "s3cret")
    time.sleep(1.1)  # the scenario: time passes (itsdangerous stamps whole seconds, so max_age=0 needs a tick)
    assert auth_token.verify(token, "s3cret", max_age=0) is None
    assert auth_token.verify(token, "s3cret", max_age=60) is not None
