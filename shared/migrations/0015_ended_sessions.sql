-- Logged-out sessions (shared/session_tokens.py).  A session token is checked by its
-- signature alone, so logging out leaves the session's id here until the token would
-- have expired anyway; every service refuses tokens of a listed session.  In PostgreSQL,
-- not Redis: a Redis restart without its append-only file must not bring them back.
CREATE TABLE ended_sessions (
    sid        text PRIMARY KEY,
    expires_at timestamptz NOT NULL
);
CREATE INDEX ended_sessions_expires ON ended_sessions (expires_at);
