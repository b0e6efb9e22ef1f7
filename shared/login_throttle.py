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

An attempt is counted as a failure when it is admitted, before its password is checked, so
that a burst of attempts sent at once does not pass all together; a success takes it back,
clears its name-and-address count and marks the address as known for the name.
Which address a request comes from is the lobby's business (``TRUSTED_PROXY_HOPS``).
"""

from __future__ import annotations

import math
import time

import redis

from shared.accounts import name_key
from shared.schemas.mechanism import ProtocolError

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


# Atomically: the wait this attempt still owes (0 when none) and, when it owes none, the attempt
# counted as a failure under each key in advance.  KEYS: pair, address, name, known;
# ARGV: now, forget seconds, max delay, then the free failures of pair, address and name.
_TAKE_ATTEMPT = """
local now = tonumber(ARGV[1])
local wait = 0
local counted = {1, 2}
if redis.call('EXISTS', KEYS[4]) == 0 then counted[3] = 3 end
for _, i in ipairs(counted) do
  local count = tonumber(redis.call('HGET', KEYS[i], 'count'))
  local last = tonumber(redis.call('HGET', KEYS[i], 'last'))
  local free = tonumber(ARGV[3 + i])
  if count and last and count >= free then
    local delay = math.min(2 ^ math.min(count - free, 30), tonumber(ARGV[3]))
    wait = math.max(wait, last + delay - now)
  end
end
if wait > 0 then return tostring(wait) end
for i = 1, 3 do
  redis.call('HINCRBY', KEYS[i], 'count', 1)
  redis.call('HSET', KEYS[i], 'last', ARGV[1])
  redis.call('EXPIRE', KEYS[i], ARGV[2])
end
return '0'
"""


def take_attempt(client: redis.Redis, name: str, address: str, now: float | None = None) -> None:
    """Admit one login attempt, or raise ``login_wait`` (under a minute) or ``login_throttled``
    while it must still wait.  An admitted attempt counts as a failure at once, before the
    password is checked (:func:`record_success` takes it back): otherwise a burst of attempts sent
    together would all pass while the first were still being checked."""
    now = time.time() if now is None else now
    keys = (_pair_key(name, address), _address_key(address), _name_key(name), _known_key(name, address))
    wait = float(client.eval(_TAKE_ATTEMPT, len(keys), *keys, repr(now), FORGET_SECONDS, MAX_DELAY_SECONDS,
                             FREE_PER_NAME_AND_ADDRESS, FREE_PER_ADDRESS, FREE_PER_NAME))
    if wait <= 0:
        return
    if wait < 60:
        raise ProtocolError("login_wait", seconds=max(1, math.ceil(wait)))
    raise ProtocolError("login_throttled", minutes=math.ceil(wait / 60))


def record_failure(client: redis.Redis, name: str, address: str, now: float | None = None) -> None:
    """The admitted attempt failed: it was counted already; its delay runs from now."""
    stamp = repr(time.time() if now is None else now)
    with client.pipeline(transaction=False) as pipe:
        for key in (_pair_key(name, address), _address_key(address), _name_key(name)):
            pipe.hset(key, "last", stamp)
            pipe.expire(key, FORGET_SECONDS)
        pipe.execute()


# Take back an attempt counted in advance under the address and the name (never below zero).
_TAKE_BACK = """
for _, key in ipairs(KEYS) do
  local count = tonumber(redis.call('HGET', key, 'count'))
  if count and count > 0 then redis.call('HINCRBY', key, 'count', -1) end
end
"""


def record_success(client: redis.Redis, name: str, address: str, attempted: bool = True) -> None:
    """The name logged in (or registered) from ``address``: that address is the owner's.
    ``attempted``: the success ends an attempt that :func:`take_attempt` counted in advance."""
    with client.pipeline(transaction=False) as pipe:
        pipe.delete(_pair_key(name, address))
        if attempted:
            pipe.eval(_TAKE_BACK, 2, _address_key(address), _name_key(name))
        pipe.set(_known_key(name, address), 1, ex=KNOWN_ADDRESS_SECONDS)
        pipe.execute()
