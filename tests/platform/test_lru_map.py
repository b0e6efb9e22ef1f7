"""shared.lru_map: bounded, and what was used last stays."""

from __future__ import annotations

from shared.lru_map import LruMap


def test_the_least_recently_used_entry_goes_first() -> None:
    lru: LruMap[int, str] = LruMap(2)
    lru.put(1, "a")
    lru.put(2, "b")
    assert lru.get(1) == "a"  # read: now the newest
    lru.put(3, "c")
    assert (lru.get(2), lru.get(1), lru.get(3), len(lru)) == (None, "a", "c", 2)
    lru.put(1, "A")  # written again: replaced, and the newest
    lru.put(4, "d")
    assert (lru.get(3), lru.get(1), lru.get(4)) == (None, "A", "d")
    lru.forget(1)
    lru.forget(99)  # unknown: nothing happens
    assert (lru.get(1), len(lru)) == (None, 1)
