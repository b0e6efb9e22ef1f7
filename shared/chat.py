"""The Wartesaal chat: messages in PostgreSQL, a per-user rate limit in Redis."""

from __future__ import annotations

import time
import unicodedata
import uuid

import redis
from psycopg_pool import ConnectionPool

from shared.schemas.lobby_events import CHAT_HISTORY_SIZE, CHAT_RATE_LIMIT, CHAT_RATE_WINDOW_SECONDS
from shared.schemas.mechanism import ProtocolError

# A sliding window per user, shared by all lobby processes and tabs: drop stamps
# older than the window, then admit only if fewer than the limit remain.  Atomic in
# Redis so two tabs on two processes cannot both slip through.
_RATE_SCRIPT = """
local key, now, window, limit, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= limit then return 0 end
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, math.ceil(window * 1000))
return 1
"""


def clean_text(text: str) -> str:
    """``text`` without control characters (newlines become spaces) and outer blanks."""
    text = "".join(" " if c in "\n\r\t" else c for c in text)
    text = "".join(c for c in text if unicodedata.category(c) != "Cc").strip()
    if not text:
        raise ProtocolError("chat_empty")
    return text


def admit(client: redis.Redis, user_id: int) -> None:
    """Count one message of ``user_id``; raise ``chat_rate_limited`` if over the limit."""
    allowed = client.eval(
        _RATE_SCRIPT,
        1,
        f"chat:rate:{user_id}",
        time.time(),
        CHAT_RATE_WINDOW_SECONDS,
        CHAT_RATE_LIMIT,
        uuid.uuid4().hex,
    )
    if not allowed:
        raise ProtocolError("chat_rate_limited", limit=CHAT_RATE_LIMIT, window=CHAT_RATE_WINDOW_SECONDS)


def _as_message(row: dict) -> dict:
    return {
        "id": row["id"],
        "user_id": row["user_id"],
        "name": row["name"],
        "text": row["body"],
        "ts": row["created_at"].isoformat(),
    }


def store(pool: ConnectionPool, user_id: int, name: str, text: str) -> dict:
    """Save one message; return it as the protocol's ChatMessage."""
    with pool.connection() as conn:
        row = conn.execute(
            "INSERT INTO chat_messages (user_id, name, body) VALUES (%s, %s, %s)"
            " RETURNING id, user_id, name, body, created_at",
            (user_id, name, text),
        ).fetchone()
    return _as_message(row)


def history(pool: ConnectionPool, limit: int = CHAT_HISTORY_SIZE) -> list[dict]:
    """The last ``limit`` messages, oldest first."""
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT id, user_id, name, body, created_at FROM chat_messages ORDER BY id DESC LIMIT %s", (limit,)
        ).fetchall()
    return [_as_message(r) for r in reversed(rows)]
