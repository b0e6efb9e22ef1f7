"""A bounded map that forgets its least recently used entries.

For caches that must not grow with what a long-lived process sees: the game service's
per-table rows, engine states, players' names and publication audiences, and the
computer players' last analyses.  Each is only a guess that saves a round trip or a
search, so forgetting the oldest is always safe.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LruMap(Generic[K, V]):
    """At most ``size`` entries; reading or writing one makes it the newest."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def forget(self, key: K) -> None:
        self._entries.pop(key, None)

    def __len__(self) -> int:
        return len(self._entries)
