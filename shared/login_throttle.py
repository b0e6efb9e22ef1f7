"""Slow down password guessing: failed logins counted per name and per address in Redis.

After ``MAX_FAILURES_PER_NAME`` failures for one name (or ``MAX_FAILURES_PER_ADDRESS``
from one address) within ``WINDOW_SECONDS``, further logins for it are refused
without checking the password until the window has passed.  A successful login
clears the name's counter.
"""

from __future__ import annotations

import math

import redis

from shared.accounts import name_key
from shared.schemas import ProtocolError

MAX_FAILURES_PER_NAME = 5
MAX_FAILURES_PER_ADDRESS = 30
WINDOW_SECONDS = 15 * 60


def _keys(name: str, address: str) -> tuple[str, str]:
    return f"login:fail:name:{name_key(name)}", f"login:fail:addr:{address}"


def check(client: redis.Redis, name: str, address: str) -> None:
    """Raise ``login_throttled`` if this name or address has failed too often lately."""
    name_k, addr_k = _keys(name, address)
    with client.pipeline(transaction=False) as pipe:
        pipe.get(name_k).ttl(name_k).get(addr_k).ttl(addr_k)
        name_count, name_ttl, addr_count, addr_ttl = pipe.execute()
    wait = 0
    if int(name_count or 0) >= MAX_FAILURES_PER_NAME:
        wait = max(wait, name_ttl)
    if int(addr_count or 0) >= MAX_FAILURES_PER_ADDRESS:
        wait = max(wait, addr_ttl)
    if wait > 0:
        raise ProtocolError("login_throttled", minutes=max(1, math.ceil(wait / 60)))


# The window starts at the first failure and is not pushed out by later ones.
# (EXPIRE ... NX would say this, but needs Redis 7; the embedded one is 6.2.)
_COUNT_FAILURE = """
for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then redis.call('EXPIRE', key, ARGV[1]) end
end
"""


def record_failure(client: redis.Redis, name: str, address: str) -> None:
    client.eval(_COUNT_FAILURE, 2, *_keys(name, address), WINDOW_SECONDS)


def record_success(client: redis.Redis, name: str) -> None:
    client.delete(_keys(name, "")[0])
