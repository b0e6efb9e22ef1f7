"""Redis fails over under running games: a primary, a replica and a Sentinel (Debian's
``redis-server`` and ``redis-sentinel``, ``tests.redis_sentinel``), with and without a password on
the servers.  Every process that uses Redis gets ``REDIS_URL=redis+sentinel://…``
(``shared.redis_address``): the lobby, the game service, the rating service (its stream consumer)
and a Celery worker.  Two registered players sit in the Wartesaal and at a rated table, a third
plays the computer.

The primary is SIGKILLed: the Sentinel promotes the replica, and then
- both tables go on (the computer's moves come through Celery's broker on the new primary), with no
  move any client was shown missing from PostgreSQL and none stored twice;
- the rated game, resigned, reaches the rating service through the stream on the new primary and
  is settled;
- a challenge in the Wartesaal reaches the other player through the lobby's Socket.IO queue;
- every service answers ``/readyz``.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import psycopg
import pytest
import requests

from shared import db, game_store
from tests.lobby_fixtures import WartesaalClient, registered
from tests.redis_sentinel import SentinelGroup, start_sentinel_group
from tests.required_tools import REDIS_SENTINEL
from tests.stack import CeleryWorker, Infra, ServiceProcess, run_async, start_infra
from tests.table_client import load, new_game, players, token
from tests.tables.test_game_rollout import Player, Tally

PASSWORD = "failover-pw-7d3e"  # URL-safe, as deploy/README.md asks
PLIES_TO_COUNT = 10  # a rated game counts from ten half-moves (services/rating/settlement.py)


@pytest.fixture(autouse=True)
def _sentinel_installed() -> None:
    REDIS_SENTINEL.path()


@pytest.fixture(scope="module")
def own_postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Infra]:
    """A PostgreSQL of this module alone: in the session's database, the game service that every
    test process shares relays the outbox too, and it would publish this test's finished game to
    the session's Redis, where this test's rating service never reads it."""
    with start_infra(tmp_path_factory.mktemp("failover")) as infra:
        yield infra


@pytest.fixture(params=[None, PASSWORD], ids=["open", "password"])
def sentinel_infra(request: pytest.FixtureRequest, own_postgres: Infra,
                   tmp_path: Path) -> Iterator[tuple[Infra, SentinelGroup]]:
    """This module's PostgreSQL, and a Redis Sentinel group of this test alone."""
    group = start_sentinel_group(tmp_path / "redis", password=request.param)
    try:
        yield Infra(own_postgres.database_url, group.url), group
    finally:
        group.stop()


async def _until(condition, timeout: float, what: str) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {timeout} s waiting for {what}"
        await asyncio.sleep(0.05)


def _settled(database_url: str, game_id: int) -> bool:
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT counted FROM rated_games WHERE game_id = %s", (game_id,)).fetchone()
    return bool(row and row[0])


async def _play(infra: Infra, group: SentinelGroup, seats: list[Player], rated: int) -> dict:
    for seat in seats:
        seat.task = asyncio.get_running_loop().create_task(seat.run())
    try:
        await _until(lambda: all(seat.version >= 4 for seat in seats), 60, "every table to reach 4 moves")
        before = {seat.game_id: seat.version for seat in seats}
        replica_port = group.replica.port
        group.kill_primary()
        killed = time.monotonic()
        await _until(lambda: group.primary_port() == replica_port, 30, "the Sentinel to promote the replica")
        promoted_s = time.monotonic() - killed
        # Both tables go on: the players' moves, the computer's answers through Celery on the new primary.
        await _until(lambda: all(seat.version >= max(before[seat.game_id] + 6, PLIES_TO_COUNT)
                                 or seat.status != "running" for seat in seats), 90,
                     "both tables to go on after the failover")
        went_on_s = time.monotonic() - killed
        # The rated table ends by resignation: its result goes to the rating service over the stream.
        # Its players stop moving first; a move already on the wire when the resignation lands
        # is refused (table_finished), as it should be, and is not counted as an error.
        for seat in seats:
            if seat.game_id == rated:
                seat.hold()
        resigning = next(seat for seat in seats if seat.game_id == rated)
        errors_before_resign = len(resigning.tally.errors)
        await resigning.ws.send("42" + json.dumps(["table:resign", {"game_id": rated}]))
        await _until(lambda: all(s.status == "finished" for s in seats if s.game_id == rated), 30,
                     "the rated table to finish")
        await _until(lambda: _settled(infra.database_url, rated), 60, "the rating service to settle the game")
    finally:
        for seat in seats:
            await seat.stop()
    return {"promoted_s": round(promoted_s, 2), "went_on_s": round(went_on_s, 2),
            "versions_before": before, "versions_after": {s.game_id: s.version for s in seats},
            "errors_before_resign": errors_before_resign}


def test_every_service_goes_on_when_the_redis_primary_fails_over(sentinel_infra, log_dir) -> None:  # noqa: ANN001
    infra, group = sentinel_infra
    assert group.refuses_without_password() == (group.password is not None)
    pool = db.make_pool(infra.database_url, max_size=2)
    wartesaal: list[WartesaalClient] = []
    try:
        with ServiceProcess("services.lobby", infra, "LOBBY_PORT", log_dir) as lobby, \
                ServiceProcess("services.game", infra, "GAME_PORT", log_dir) as game, \
                ServiceProcess("services.rating", infra, "RATING_PORT", log_dir,
                               EVENT_CONSUMER_NAME=f"rating-{uuid.uuid4().hex[:6]}") as rating, \
                CeleryWorker(infra, log_dir, queues="interactive", concurrency=1):
            anna_http, bert_http = registered(lobby.url), registered(lobby.url)
            a, b = (SimpleNamespace(**s.user) for s in (anna_http, bert_http))
            (c,) = players(pool, 1)
            wartesaal = [WartesaalClient(lobby.url, s) for s in (anna_http, bert_http)]
            wartesaal[0].wait_players(lambda ps: {a.id, b.id} <= {p["user_id"] for p in ps})
            human = new_game(pool, "hexagon", (a.id, b.id), seed=3, rated=True)
            with pool.connection() as conn, conn.transaction():
                computer = game_store.create_game(conn, game="hexagon", options={}, seed=4, seats=(c.id, None),
                                                  mode="computer", clock=None, rated=False, stake=0,
                                                  strength="leicht")
            tally = Tally()
            rng = random.Random(7)
            seats = [Player(game.url, token(x), game_id, tally, random.Random(rng.random()))
                     for x, game_id in ((a, human), (b, human), (c, computer))]
            report = run_async(lambda: _play(infra, group, seats, human))

            # The lobby's Socket.IO queue on the new primary: Anna's challenge reaches Bert.
            wartesaal[0].emit("challenge:create", {"to_user_id": b.id, "game": "hexagon"})
            challenge = wartesaal[1].wait_for("challenge:update", timeout=30)["challenge"]
            assert challenge["challenger"]["user_id"] == a.id
            ready = {service.module: requests.get(service.url + "/readyz", timeout=10).status_code
                     for service in (lobby, game, rating)}
            assert all(s.process is not None and s.process.poll() is None for s in (lobby, game, rating))
        print(report, tally)
        assert ready == dict.fromkeys(("services.lobby", "services.game", "services.rating"), 200), ready
        lost = []
        for seat in seats:
            row = load(pool, seat.game_id)
            assert row.version == len(row.moves) + (0 if row.running else 1)  # nothing applied twice
            lost += [(seat.game_id, v) for v, moves in seat.shown.items()
                     if tuple(row.moves[:len(moves)]) != moves or v > row.version]
        assert lost == []
        before_resign = report["errors_before_resign"]
        assert tally.errors[:before_resign] == [], tally.errors
        assert set(tally.errors[before_resign:]) <= {"table_finished"}, tally.errors
        assert not load(pool, human).running and load(pool, computer).running
    finally:
        for client in wartesaal:
            client.close()
        pool.close()
