"""Slow down password guessing without letting anyone lock the owner out.

Failed logins are counted in Redis three ways: per name *and* address, per address (any
name), and per name (any address).  Each count allows a few failures free; from then on
every further attempt must wait a delay that doubles with each failure (up to
``MAX_DELAY_SECONDS``), counted from the last failure.  A count is forgotten
``FORGET_SECONDS`` after its last failure.

- Per name and address: the owner who mistypes, and a guesser at one name from one address.
- Per address: one address guessing at many names.
- Per name: many addresses guessing at one name.  An address from which the name logged in
  (or registered) within ``KNOWN_ADDRESS_SECONDS`` is exempt from this count, so an attacker
  with many addresses slows the guessing at a name down for every stranger, but never for the
  owner at home.

A success clears its name-and-address count and marks the address as known for the name.
Which address a request comes from is the lobby's business (``TRUSTED_PROXY_HOPS``).
"""

from __future__ import annotations

import math
import time

import redis

from shared.accounts import name_key
from shared.schemas import ProtocolError

FREE_PER_NAME_AND_ADDRESS = 3
FREE_PER_ADDRESS = 20
FREE_PER_NAME = 10
MAX_DELAY_SECONDS = 15 * 60
FORGET_SECONDS = 60 * 60
KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600


def delay_after(failures: int, free: int) -> float:
    """Seconds to wait after the last of ``failures`` failures when ``free`` of them cost nothing:
    0, then 1, 2, 4, … up to :data:`MAX_DELAY_SECONDS`."""
    if failures < free:
        return 0.0
    return float(min(2 ** min(failures - free, 30), MAX_DELAY_SECONDS))


def _pair_key(name: str, address: str) -> str:
    return f"login:fail:pair:{name_key(name)}:{address}"


def _address_key(address: str) -> str:
    return f"login:fail:addr:{address}"


def _name_key(name: str) -> str:
    return f"login:fail:name:{name_key(name)}"


def _known_key(name: str, address: str) -> str:
    return f"login:known:{name_key(name)}:{address}"


def check(client: redis.Redis, name: str, address: str, now: float | None = None) -> None:
    """Raise ``login_wait`` (under a minute) or ``login_throttled`` while this attempt must still wait."""
    now = time.time() if now is None else now
    with client.pipeline(transaction=False) as pipe:
        for key in (_pair_key(name, address), _address_key(address), _name_key(name)):
            pipe.hmget(key, "count", "last")
        pipe.exists(_known_key(name, address))
        pair, per_address, per_name, known = pipe.execute()
    counts = [(pair, FREE_PER_NAME_AND_ADDRESS), (per_address, FREE_PER_ADDRESS)]
    if not known:
        counts.append((per_name, FREE_PER_NAME))
    wait = 0.0
    for (count, last), free in counts:
        if count is not None and last is not None:
            wait = max(wait, float(last) + delay_after(int(count), free) - now)
    if wait <= 0:
        return
    if wait < 60:
        raise ProtocolError("login_wait", seconds=max(1, math.ceil(wait)))
    raise ProtocolError("login_throttled", minutes=math.ceil(wait / 60))


# Count one failure under each key and stamp it; forget a key FORGET_SECONDS after its last failure.
_COUNT_FAILURE = """
for _, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, 'count', 1)
  redis.call('HSET', key, 'last', ARGV[1])
  redis.call('EXPIRE', key, ARGV[2])
end
"""


def record_failure(client: redis.Redis, name: str, address: str, now: float | None = None) -> None:
    keys = (_pair_key(name, address), _address_key(address), _name_key(name))
    client.eval(_COUNT_FAILURE, len(keys), *keys, repr(time.time() if now is None else now), FORGET_SECONDS)


def record_success(client: redis.Redis, name: str, address: str) -> None:
    """The name logged in (or registered) from ``address``: that address is the owner's."""
    with client.pipeline(transaction=False) as pipe:
        pipe.delete(_pair_key(name, address))
        pipe.set(_known_key(name, address), 1, ex=KNOWN_ADDRESS_SECONDS)
        pipe.execute()
