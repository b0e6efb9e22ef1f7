"""Accounts: guests, registration, password check.

A guest is a ``users`` row without a password.  Registering from a guest session
turns that very row into the account (same id), so everything the guest played stays
its own.  Passwords are stored as argon2id hashes only.

A guest holds no Taler and plays no staked game (``services.lobby.challenge_start``): a
guest costs one request, and throw-away guests losing staked games on purpose would fill
any account.  A registered account gets its start capital in the Taler ledger
(``shared.ledger``) when it registers, once.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from psycopg_pool import ConnectionPool

from shared import ledger
from shared.schemas.lobby_events import NAME_MAX_LENGTH, NAME_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH
from shared.schemas.mechanism import ProtocolError

GUEST_PREFIX = "Gast-"
_NAME_EXTRA_CHARS = frozenset("0123456789-_")
_hasher = PasswordHasher()


# How CPU-heavy hashing is run: directly by default; the lobby passes gevent's thread
# pool so one login does not stall every socket of the process.  Only the hashing goes
# there, never the database pool, whose locks belong to the gevent hub.
CpuRunner = Callable[..., Any]


def _direct(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    guest: bool


def normalize_name(name: str) -> str:
    """``name`` as stored: outer blanks dropped, composed (NFC), so "ü" typed as u + ¨ is one letter."""
    return unicodedata.normalize("NFC", name.strip())


def _is_name_letter(c: str) -> bool:
    # Latin letters only (with umlauts, ß, accents): Cyrillic or Greek look-alikes
    # would let "Αnna" pose as "Anna".
    return c.isalpha() and unicodedata.name(c, "").startswith("LATIN ")


def name_key(name: str) -> str:
    """What makes two names "the same": case-insensitive, umlauts included."""
    return name.casefold()


def check_name(name: str) -> None:
    """Raise ``ProtocolError`` with the first rule ``name`` breaks (for a registered name)."""
    if len(name) < NAME_MIN_LENGTH:
        raise ProtocolError("name_too_short", limit=NAME_MIN_LENGTH)
    if len(name) > NAME_MAX_LENGTH:
        raise ProtocolError("name_too_long", limit=NAME_MAX_LENGTH)
    if not all(_is_name_letter(c) or c in _NAME_EXTRA_CHARS for c in name):
        raise ProtocolError("name_bad_characters")
    if name_key(name).startswith(name_key(GUEST_PREFIX)):
        raise ProtocolError("name_reserved")


def check_password(password: str) -> None:
    if len(password) < PASSWORD_MIN_LENGTH:
        raise ProtocolError("password_too_short", limit=PASSWORD_MIN_LENGTH)
    if len(password) > PASSWORD_MAX_LENGTH:
        raise ProtocolError("password_too_long", limit=PASSWORD_MAX_LENGTH)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def _insert_user(conn: psycopg.Connection, name: str, password_hash: str | None) -> Account:
    row = conn.execute(
        "INSERT INTO users (name, name_key, password_hash, is_guest, registered_at)"
        " VALUES (%s, %s, %s, %s, CASE WHEN %s THEN now() END) RETURNING id",
        (name, name_key(name), password_hash, password_hash is None, password_hash is not None),
    ).fetchone()
    if password_hash is not None:
        ledger.open_account(conn, row["id"])
    return Account(row["id"], name, password_hash is None)


def create_guest(pool: ConnectionPool) -> Account:
    """A new guest with a free name like ``Gast-4711`` (more digits once those run short)."""
    for attempt in range(40):
        digits = 4 + attempt // 10
        name = f"{GUEST_PREFIX}{random.randint(10 ** (digits - 1), 10**digits - 1)}"
        try:
            with pool.connection() as conn, conn.transaction():
                return _insert_user(conn, name, None)
        except psycopg.errors.UniqueViolation:
            continue
    raise RuntimeError("no free guest name found")


def register(
    pool: ConnectionPool, name: str, password: str, guest_id: int | None, run_cpu: CpuRunner = _direct
) -> Account:
    """A registered account named ``name``; the guest ``guest_id`` becomes it when given."""
    name = normalize_name(name)
    check_name(name)
    check_password(password)
    password_hash = run_cpu(hash_password, password)
    try:
        with pool.connection() as conn, conn.transaction():
            if guest_id is not None:
                row = conn.execute(
                    "UPDATE users SET name = %s, name_key = %s, password_hash = %s, is_guest = false,"
                    " registered_at = now() WHERE id = %s AND is_guest RETURNING id",
                    (name, name_key(name), password_hash, guest_id),
                ).fetchone()
                if row is None:
                    raise ProtocolError("already_registered")
                ledger.open_account(conn, guest_id)
                return Account(guest_id, name, False)
            return _insert_user(conn, name, password_hash)
    except psycopg.errors.UniqueViolation:
        raise ProtocolError("name_taken", name=name) from None


def authenticate(pool: ConnectionPool, name: str, password: str, run_cpu: CpuRunner = _direct) -> Account | None:
    """The registered account ``name`` if ``password`` is its password."""
    name = normalize_name(name)
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT id, name, password_hash FROM users WHERE name_key = %s AND NOT is_guest", (name_key(name),)
        ).fetchone()
    if row is None:
        # Hash anyway so a wrong name costs as long as a wrong password.
        run_cpu(password_matches, _DUMMY_HASH, password)
        return None
    if not run_cpu(password_matches, row["password_hash"], password):
        return None
    return Account(row["id"], row["name"], False)


def get(pool: ConnectionPool, user_id: int) -> Account | None:
    with pool.connection() as conn:
        row = conn.execute("SELECT id, name, is_guest FROM users WHERE id = %s", (user_id,)).fetchone()
    return Account(row["id"], row["name"], row["is_guest"]) if row else None


_DUMMY_HASH = _hasher.hash("not-a-password")
