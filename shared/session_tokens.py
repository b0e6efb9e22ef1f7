"""Which session tokens authenticate: genuine (``shared.auth_token``) and not logged out.

A token proves itself by its signature, so a copy taken before logout would stay good
until it expires.  Logging out therefore records the session's id in ``ended_sessions``
(PostgreSQL, seen by every service) until the token's lifetime is over; the lobby's
cookie, its sockets, the game tickets issued within that session, the game service's
sockets and its HTTP routes all ask :func:`claims`.  Sockets already open are
authenticated only at their connect: logging out also announces the end, and every
process disconnects the session's sockets (``shared.session_sockets``).
"""

from __future__ import annotations

import logging

import redis
from psycopg_pool import ConnectionPool

from shared import auth_token, session_sockets
from shared.settings import Settings


def claims(pool: ConnectionPool, token: str | None, settings: Settings) -> dict | None:
    """``{"uid", "name", "sid"}`` of a genuine, unexpired token whose session has not logged out, else None."""
    found = auth_token.verify(token, settings.secret_key, settings.session_max_age) if token else None
    if found is None:
        return None
    with pool.connection() as conn:
        ended = conn.execute("SELECT 1 FROM ended_sessions WHERE sid = %s", (found["sid"],)).fetchone()
    return None if ended else found


def log_out(pool: ConnectionPool, client: redis.Redis, session: dict, settings: Settings) -> None:
    """End ``session`` (claims from :func:`claims`) everywhere, for as long as any of its tokens could live,
    and have every process disconnect its open sockets."""
    with pool.connection() as conn:
        conn.execute(
            "INSERT INTO ended_sessions (sid, expires_at) VALUES (%s, now() + make_interval(secs => %s))"
            " ON CONFLICT (sid) DO NOTHING", (session["sid"], settings.session_max_age))
        # Past their lifetime the tokens fail their own check: the rows are no longer needed.
        conn.execute("DELETE FROM ended_sessions WHERE expires_at < now()")
    try:
        session_sockets.announce(client, session["sid"])
    except redis.RedisError:
        # Recorded in PostgreSQL all the same: every process's sweep finds it within a second.
        logging.getLogger("session_tokens").warning("session end not announced", exc_info=True)
