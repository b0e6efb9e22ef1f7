"""The game service's state cache: a table with take-back marks is replayed once, then served
from the cache (``shared.table_replay.StateCache``), and a mark changes what it replays."""

from __future__ import annotations

import dataclasses
import datetime as dt

from shared.game_store import GameRow
from shared.games import get_game
from shared.table_replay import StateCache

SETUPS = ["aufstellung Blitzkrieg", "aufstellung On Guard gespiegelt", "fertig", "fertig"]


def _row(moves: list[str], seats: list[int], reshuffles: tuple = ()) -> GameRow:
    now = dt.datetime.now(dt.UTC)
    return GameRow(id=1, game="general", options={}, seed=1, seats=(1, None), mode="computer", strength="leicht",
                   clock=None, rated=False, stake=0, moves=moves, move_seats=seats, move_times=[0] * len(moves),
                   remaining_ms=None, lag_quota_ms=[0, 0], turn_started_at=now, version=len(moves), draw_offer=None,
                   takeback_offer=None, status="running", result=None, created_at=now, finished_at=None,
                   reshuffles=reshuffles)


def test_a_battlegeneral_table_with_a_take_back_mark_is_replayed_once() -> None:
    row = _row(SETUPS, [0, 1, 1, 0])
    cache = StateCache()
    plain = cache.state(row)
    piece = next(p["id"] for p in get_game("general").view(plain, 0)["pieces"] if p["owner"] == 1)
    marked = dataclasses.replace(row, reshuffles=((4, 1 << piece),))
    first = cache.state(marked)
    assert cache.state(marked) is first and cache.replays == 2  # the mark is part of the key, then cached
    shown = next(p for p in get_game("general").view(first, 0)["pieces"] if p["id"] == piece)
    assert shown["revealed"] and shown["rank"] is not None
