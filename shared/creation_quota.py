"""How many of a thing one address or account may create per hour.

Creating is cheap for the asker and not for the system: a guest costs one request, a
registration brings its account the start Taler (``shared.ledger``), a table is a row
(and, against the computer, searches on the workers).  Each kind is counted per asker in
a fixed hour (Redis, from the first one); beyond its limit the answer is
``<kind>_throttled`` with the limit and the minutes until the hour is over.

- ``guest``, ``registration``: per address (``GUESTS_PER_HOUR``, ``REGISTRATIONS_PER_HOUR``);
- ``table``: per account, :data:`TABLES_PER_HOUR` (computer and same-device tables and the
  Tagesmarkt's: none of them needs more than one every minute);
- ``challenge``: per account, :data:`CHALLENGES_PER_HOUR` challenges, Revanchen and seeks
  („Gegner suchen") opened in the Wartesaal: each one appears on another player's screen (a
  seek on everyone's), and withdrawing it lets the next one pass the open-challenge limits;
- ``invitation``: per account, :data:`INVITATIONS_PER_HOUR` Postfach invitations sent (each
  one a row and a badge update for the invitee, however soon it is withdrawn);
- ``quick``: per account, :data:`QUICK_JOINS_PER_HOUR` entries into the Schnelle Partie pool (each
  one, and the cancel after it, redraws the pool's count on every waiting player's screen).
"""

from __future__ import annotations

import math

import redis

from shared.schemas.mechanism import ProtocolError

WINDOW_SECONDS = 3600
TABLES_PER_HOUR = 60
CHALLENGES_PER_HOUR = 60
INVITATIONS_PER_HOUR = 30
QUICK_JOINS_PER_HOUR = 60

# Count this one and start the hour at the first; answer the count and the hour's seconds left.
_COUNT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('TTL', KEYS[1])}
"""


def admit(client: redis.Redis, kind: str, asker: str, limit: int) -> None:
    """Count one new ``kind`` for ``asker`` (an address or an account id); refuse it over ``limit`` an hour."""
    count, ttl = client.eval(_COUNT, 1, f"quota:{kind}:{asker}", WINDOW_SECONDS)
    if int(count) > limit:
        raise ProtocolError(f"{kind}_throttled", limit=limit, minutes=max(1, math.ceil(max(int(ttl), 0) / 60)))
