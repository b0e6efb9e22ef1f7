"""Tagesmarkt end to end (about 3 s once the services run): a registered player's counted attempt played to the round's
end at the real game service against Mittel on a real Celery worker; the Tagesliste then
holds exactly the Rundentafel's point difference."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.lobby import daily_market
from shared import accounts, db
from tests.stack import TEST_SECRET as SECRET
from tests.stack import CeleryWorker, Infra, ServiceProcess
from tests.table_client import TableClient, my_turn


@pytest.fixture
def pool(infra: Infra) -> Iterator:
    pool = db.make_pool(infra.database_url, max_size=2)
    yield pool
    pool.close()


def choose(view: dict) -> str:
    """Takes and horses while they come (the round runs down), else the biggest sale."""
    moves = view["legal_moves"]
    for kind in ("pferde", "nimm"):
        found = [m for m in moves if m["effect"]["type"] == kind]
        if found:
            return found[0]["text"]
    sales = [m for m in moves if m["effect"]["type"] == "verkauf"]
    return max(sales, key=lambda m: len(m["effect"]["hand_out"]))["text"] if sales else moves[0]["text"]


def test_a_counted_round_enters_the_tagesliste(game_service: ServiceProcess, ai_worker: CeleryWorker,
                                               pool) -> None:  # noqa: ANN001
    import uuid

    account = accounts.register(pool, f"Tr{uuid.uuid4().hex[:12]}", "passwort-lang", None)
    now = daily_market.now_utc()
    with pool.connection() as conn, conn.transaction():
        started = daily_market.start_attempt(conn, account, now, SECRET)
    game_id = started["game_id"]
    client = TableClient(game_service.url, account).connect()
    try:
        client.emit("table:join", {"game_id": game_id})
        state = client.state(game_id)
        while state["status"] == "running" and not state["view"]["rounds"]:
            if my_turn(state):
                plies = len(state["moves"])
                client.emit("table:move", {"game_id": game_id, "version": state["version"],
                                           "move": choose(state["view"])})
                state = client.state(game_id, lambda s, p=plies: len(s["moves"]) > p, timeout=30)
            else:
                state = client.state(game_id, lambda s: my_turn(s) or s["status"] != "running" or bool(
                    s["view"]["rounds"]), timeout=60)
        totals = state["view"]["rounds"][0]["players"]
        expected = totals[0]["total"] - totals[1]["total"]
        state = client.state(game_id, lambda s: s["status"] == "finished", timeout=30)
    finally:
        client.close()
    day = daily_market.berlin_day(now)
    with pool.connection() as conn, conn.transaction():
        entries = daily_market.tagesliste(conn, day)
        mine = daily_market.player_status(conn, account, day)
    assert {"rank": next(e["rank"] for e in entries if e["name"] == account.name), "name": account.name,
            "score": expected} in entries
    assert mine["counted_score"] == expected and mine["streak"] >= 1
