"""The whole way through the real services: a challenge in the lobby starts a game with both stakes,
the game service plays it and announces the end, the rating service pays the pot and moves Elo and
points exactly once, the players are "frei" again, and Revanche asks for the next with colours swapped."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
import requests

from shared import db, ledger
from tests.lobby_fixtures import WartesaalClient, registered
from tests.stack import Infra, ServiceProcess, wait_until
from tests.table_client import TableClient, legal_texts, my_turn

STAKE = 30


@pytest.fixture(scope="module")
def rating_service(infra: Infra, log_dir: Path) -> Iterator[ServiceProcess]:
    with ServiceProcess("services.rating", infra, "RATING_PORT", log_dir,
                        EVENT_CONSUMER_NAME=f"rating-{uuid.uuid4().hex[:6]}") as service:
        yield service


def test_challenge_play_resign_rate_and_rematch(infra: Infra, lobby, game_service, rating_service) -> None:  # noqa: ANN001, F811
    anna_http, bert_http = registered(lobby.url), registered(lobby.url)
    a, b = anna_http.user, bert_http.user
    anna, bert = WartesaalClient(lobby.url, anna_http), WartesaalClient(lobby.url, bert_http)
    pool = db.make_pool(infra.database_url, max_size=2)
    tables: list[TableClient] = []
    try:
        anna.wait_players(lambda ps: {a["id"], b["id"]} <= {p["user_id"] for p in ps})
        anna.emit("challenge:create", {"to_user_id": b["id"], "game": "bullet"})
        ch = bert.wait_for("challenge:update")["challenge"]
        bert.emit("challenge:propose", {"challenge_id": ch["id"], "settings": {**ch["settings"], "stake": STAKE}})
        ch = anna.wait_for("challenge:update", lambda p: p["challenge"]["version"] == 2)["challenge"]
        anna.emit("challenge:accept", {"challenge_id": ch["id"], "version": 2})
        game_id = bert.wait_for("challenge:started")["game_id"]
        assert ledger.balance(pool, a["id"]) == ledger.balance(pool, b["id"]) == ledger.START_BALANCE - STAKE

        # Both open the table (as their browsers would) and play ten half-moves.
        tables = [TableClient(game_service.url, SimpleNamespace(**user)).connect() for user in (a, b)]
        for seat, table in enumerate(tables):
            assert table.join(game_id)["you"] == seat
        rng = random.Random(3)
        for ply in range(10):
            mover = next(t for t in tables if my_turn(t.state(game_id, lambda s, v=ply: s["version"] >= v)))
            state = mover.states[game_id]
            mover.emit("table:move", {"game_id": game_id, "version": state["version"],
                                      "move": rng.choice(legal_texts(state))})
            mover.state(game_id, lambda s, v=state["version"]: s["version"] > v)
        tables[0].emit("table:resign", {"game_id": game_id})
        final = tables[1].state(game_id, lambda s: s["status"] == "finished")
        assert final["result"]["winner"] == 1

        # The rating service: Bert takes the pot, Elo and points move once.
        wait_until(lambda: ledger.balance(pool, b["id"]) == ledger.START_BALANCE + STAKE, 30, "the pot", interval=0.2)
        assert ledger.balance(pool, a["id"]) == ledger.START_BALANCE - STAKE
        player = requests.get(f"{rating_service.url}/api/rating/players/{b['id']}", timeout=5).json()
        assert player["ratings"]["bullet"]["elo"] == 1520 and player["ratings"]["bullet"]["points"] == 10
        anna.wait_players(lambda ps: {p["status"] for p in ps if p["user_id"] in (a["id"], b["id"])} == {"frei"})

        # Revanche: Bert (seat 1) asks; now he takes the first colour.
        bert.emit("challenge:rematch", {"game_id": game_id})
        rematch = anna.wait_for("challenge:update", lambda p: p["challenge"]["rematch_of"] == game_id)["challenge"]
        assert rematch["challenger"]["user_id"] == b["id"] and rematch["settings"]["swap"] is False
        assert rematch["settings"]["stake"] == STAKE and rematch["settings"]["clock"] == ch["settings"]["clock"]
    finally:
        for table in tables:
            table.close()
        anna.close()
        bert.close()
        pool.close()
