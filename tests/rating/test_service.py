"""The rating service as a process: it consumes game_finished from the real stream, serves the lists
over HTTP, the lobby forwards them under its own origin, and the Wartesaal shows the Elo by the names."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import requests

from services.lobby.challenge_start import start_game
from shared import challenge, db, ledger
from shared.outbox import EVENT_STREAM
from tests.lobby_fixtures import WartesaalClient, registered
from tests.stack import Infra, ServiceProcess, wait_until


@pytest.fixture(scope="module")
def rating_and_lobby(infra: Infra, log_dir: Path) -> Iterator[tuple[ServiceProcess, ServiceProcess]]:
    rating = ServiceProcess("services.rating", infra, "RATING_PORT", log_dir,
                            EVENT_CONSUMER_NAME=f"rating-{uuid.uuid4().hex[:6]}").start()
    lobby = ServiceProcess("services.lobby", infra, "LOBBY_PORT", log_dir, RATING_URL=rating.url,
                           PRESENCE_TTL_SECONDS="2").start()
    yield rating, lobby
    lobby.stop()
    rating.stop()


def test_a_finished_game_shows_in_lists_players_and_the_wartesaal(infra: Infra, rating_and_lobby) -> None:  # noqa: ANN001
    rating, lobby = rating_and_lobby
    anna_http, bert_http = registered(lobby.url), registered(lobby.url)
    a, b = anna_http.user, bert_http.user
    anna = WartesaalClient(lobby.url, anna_http)
    pool = db.make_pool(infra.database_url, max_size=2)
    client = redis.Redis.from_url(infra.redis_url, decode_responses=True)
    try:
        ch = challenge.open_challenge(challenge.Party(a["id"], a["name"]), challenge.Party(b["id"], b["name"]),
                                      "bullet", 0.0)
        ch = dataclasses.replace(ch, settings=dataclasses.replace(ch.settings, stake=25), status="agreed")
        game_id = start_game(pool, ch)
        payload = {"game_id": game_id, "game": "bullet", "seats": [a["id"], b["id"]], "rated": True, "stake": 25,
                   "mode": "wartesaal", "plies": 40, "duration_ms": 200_000,
                   "result": {"winner": 0, "reason": "siegziel", "de": "Siegziel", "en": "Target", "score": [6, 2]}}
        client.xadd(EVENT_STREAM, {"event_id": str(uuid.uuid4()), "type": "game_finished",
                                   "payload": json.dumps(payload), "created_at": dt.datetime.now(dt.UTC).isoformat()})

        def elo_list() -> list[dict]:
            response = requests.get(f"{lobby.url}/api/rating/lists", params={"game": "bullet", "kind": "elo"},
                                    timeout=5)
            assert response.status_code == 200
            return response.json()["entries"]

        wait_until(lambda: any(e["user_id"] == a["id"] for e in elo_list()), 20, "the rating to be applied", interval=0.2)
        entries = {e["user_id"]: e for e in elo_list()}
        assert entries[a["id"]]["elo"] == 1520 and entries[b["id"]]["elo"] == 1480
        assert entries[a["id"]]["rank"] < entries[b["id"]]["rank"]
        assert ledger.balance(pool, a["id"]) == ledger.START_BALANCE + 25
        month = requests.get(f"{lobby.url}/api/rating/lists", params={"game": "bullet", "kind": "month"},
                             timeout=5).json()["entries"]
        assert {e["user_id"]: e["points"] for e in month}[a["id"]] == 10
        me = requests.get(f"{lobby.url}/api/rating/players/{a['id']}", timeout=5).json()
        assert me["ratings"]["bullet"]["elo"] == 1520 and me["recent"][0]["game_id"] == game_id
        # Elo beside the name in the Wartesaal.
        anna.wait_players(lambda ps: any(p["user_id"] == a["id"] and p["elo"]["bullet"] == 1520 for p in ps),
                          timeout=15)
        bad = requests.get(f"{lobby.url}/api/rating/lists", params={"game": "schach", "kind": "elo"}, timeout=5)
        assert bad.status_code == 400 and "Unbekannte Liste" in bad.json()["error"]["message"]
        unknown = requests.get(f"{rating.url}/api/rating/players/999999", headers={"X-Lang": "en"}, timeout=5)
        assert unknown.status_code == 404 and unknown.json()["error"]["message"] == "No such player."
    finally:
        anna.close()
        client.close()
        pool.close()


def test_the_lobby_proxy_says_so_when_the_rating_service_is_away(infra: Infra, log_dir: Path) -> None:
    from services.embedded import free_port

    lobby = start_lobby_with(infra, log_dir, f"http://127.0.0.1:{free_port()}")
    try:
        response = requests.get(f"{lobby.url}/api/rating/lists?game=hexagon&kind=elo", timeout=10)
        assert response.status_code == 503 and "nicht erreichbar" in response.json()["error"]["message"]
    finally:
        lobby.stop()


def start_lobby_with(infra: Infra, log_dir: Path, rating_url: str) -> ServiceProcess:
    return ServiceProcess("services.lobby", infra, "LOBBY_PORT", log_dir, RATING_URL=rating_url,
                          PRESENCE_TTL_SECONDS="2").start()

