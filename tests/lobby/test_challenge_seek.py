"""„Gegner suchen" (seed 002): an open seek that a player of one's strength (Elo) takes.

The negotiation (shared.challenge: open_seek, take_seek) as pure functions, then through
a real lobby process and real Socket.IO clients: the list every Wartesaal page sees, a
take by someone too strong refused, a take that starts the game (the seeker plays Blue,
the taker Red), two seekers finding each other, withdrawal and leaving."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import pytest

from shared import challenge, db, game_store
from shared.challenge import ChallengeRefusal, Party
from shared.schemas.server_events import validate_server_event
from tests.lobby_fixtures import WartesaalClient, guest, redis_client  # noqa: F401
from tests.stack import Infra

ANNA, BERT = Party(1, "anna"), Party(2, "bert")


def test_a_seek_is_taken_by_a_player_of_the_seekers_strength_only() -> None:
    seek = challenge.open_seek(ANNA, "general", 1500, now=100.0)
    assert seek.is_seek and seek.parties() == (ANNA,) and seek.settings.clock == "ohne" and seek.settings.rated
    assert seek.expires_at == 100.0 + challenge.SEEK_EXPIRY_SECONDS
    assert challenge.Challenge.from_json(json.loads(json.dumps(seek.to_json()))) == seek
    with pytest.raises(ChallengeRefusal) as err:
        challenge.take_seek(seek, BERT, 1500 + challenge.SEEK_ELO_GAP + 1, now=101.0)
    assert err.value.code == "seek_out_of_range" and err.value.params["low"] == 1500 - challenge.SEEK_ELO_GAP
    with pytest.raises(ChallengeRefusal) as err:
        challenge.take_seek(seek, ANNA, 1500, now=101.0)
    assert err.value.code == "challenge_self"
    taken = challenge.take_seek(seek, BERT, 1500 - challenge.SEEK_ELO_GAP, now=101.0)
    assert taken.status == "agreed" and taken.challenged == BERT and not taken.is_seek
    assert taken.agreed == {ANNA.user_id, BERT.user_id}
    # Battlegeneral: the seeker challenged, so plays Blue (seat 1); the taker plays Red and begins.
    assert taken.seats() == (BERT.user_id, ANNA.user_id)
    with pytest.raises(ChallengeRefusal) as err:
        challenge.take_seek(taken, Party(3, "cara"), 1500, now=102.0)
    assert err.value.code == "challenge_closed"
    with pytest.raises(ChallengeRefusal) as err:
        challenge.take_seek(seek, BERT, 1500, now=100.0 + challenge.SEEK_EXPIRY_SECONDS)
    assert err.value.params["status"] == "expired"
    assert challenge.expire(seek, 100.0 + challenge.SEEK_EXPIRY_SECONDS).status == "expired"
    assert challenge.decline(seek, ANNA.user_id, 103.0).status == "withdrawn"


def test_only_games_whose_text_offers_it_have_seeks() -> None:
    with pytest.raises(ChallengeRefusal) as err:
        challenge.open_seek(ANNA, "hexagon", 1500, now=0.0)
    assert err.value.code == "seek_bad_game"


@pytest.fixture
def pool(infra: Infra) -> Iterator:
    pool = db.make_pool(infra.database_url, max_size=2)
    yield pool
    pool.close()


def seeks_of(client: WartesaalClient, user_id: int) -> list[dict]:
    """The seeks of ``user_id`` in the newest seek:list ``client`` received."""
    lists = client.received("seek:list")
    return [s for s in lists[-1]["seeks"] if s["seeker"]["user_id"] == user_id] if lists else []


def close_all(*clients: WartesaalClient) -> None:
    """Close the clients at once (each disconnect waits a while for its threads)."""
    closing = [threading.Thread(target=client.close) for client in clients]
    for thread in closing:
        thread.start()
    for thread in closing:
        thread.join()


def wait_seeks(client: WartesaalClient, user_id: int, count: int) -> list[dict]:
    """Wait until the newest seek:list shows ``count`` seeks of ``user_id``; those seeks."""
    client.wait_for("seek:list", lambda _payload: len(seeks_of(client, user_id)) == count)
    validate_server_event("seek:list", client.received("seek:list")[-1])
    return seeks_of(client, user_id)


def test_a_seek_in_the_wartesaal_is_taken_by_someone_of_that_strength(lobby, pool, redis_client) -> None:  # noqa: ANN001, F811
    sessions = [guest(lobby.url) for _ in range(3)]
    anna, bert, cara = (WartesaalClient(lobby.url, s) for s in sessions)
    a, b, c = (s.user["id"] for s in sessions)
    redis_client.hset("ratings:elo", c, json.dumps({"general": 2100}))  # far stronger than a newcomer
    try:
        anna.emit("seek:create", {"game": "general"})
        seek = wait_seeks(bert, a, 1)[0]
        assert seek["game"] == "general" and seek["elo"] == 1500
        assert (seek["elo_min"], seek["elo_max"]) == (1500 - challenge.SEEK_ELO_GAP, 1500 + challenge.SEEK_ELO_GAP)
        assert wait_seeks(cara, a, 1)[0]["id"] == seek["id"]  # every page sees it ...
        late = WartesaalClient(lobby.url, guest(lobby.url))
        assert wait_seeks(late, a, 1)[0]["id"] == seek["id"]  # ... also one that comes in later
        late.close()
        # Cara is out of Anna's strength: refused with a clear message, nothing changes.
        cara.emit("seek:take", {"seek_id": seek["id"]})
        refused = cara.wait_for("error", lambda e: e["code"] == "seek_out_of_range")
        assert refused["message"] == "Diese Suche gilt für Spieler mit 1200 bis 1800 Elo; du hast 2100."
        # A seek only for the games whose text offers it.
        cara.emit("seek:create", {"game": "hexagon"})
        assert cara.wait_for("error", lambda e: e["code"] == "seek_bad_game")["message"].startswith("„Gegner suchen“")
        # Bert takes it: the game starts for both, Bert Red (begins), Anna Blue.
        bert.emit("seek:take", {"seek_id": seek["id"]})
        started = [x.wait_for("challenge:started", lambda p: p["challenge_id"] == seek["id"]) for x in (anna, bert)]
        assert started[0]["game_id"] == started[1]["game_id"] and started[0]["game"] == "general"
        with pool.connection() as conn:
            row = game_store.load(conn, started[0]["game_id"])
        assert row.seats == (b, a) and row.clock is None and row.rated and row.mode == "wartesaal"
        wait_seeks(cara, a, 0)
        # Taken once: a late second taker is told it is closed.
        cara.emit("seek:take", {"seek_id": seek["id"]})
        assert cara.wait_for("error", lambda e: e["code"] == "challenge_closed")
        # Who plays now seeks no more: Anna is told so, and no seek of hers opens.
        anna.emit("seek:create", {"game": "general"})
        assert anna.wait_for("error", lambda e: e["code"] == "seek_playing")["message"].startswith("Du spielst")
        assert seeks_of(cara, a) == []
    finally:
        redis_client.hdel("ratings:elo", c)
        close_all(anna, bert, cara)


def test_two_seekers_of_one_strength_find_each_other_and_a_seek_ends_with_its_page(lobby, pool) -> None:  # noqa: ANN001, F811
    sessions = [guest(lobby.url) for _ in range(3)]
    anna, bert, cara = (WartesaalClient(lobby.url, s) for s in sessions)
    a, b, c = (s.user["id"] for s in sessions)
    try:
        # Cara seeks and withdraws; seeks again and closes her page: gone both times.
        cara.emit("seek:create", {"game": "general"})
        wait_seeks(anna, c, 1)
        cara.emit("seek:cancel", {})
        wait_seeks(anna, c, 0)
        cara.emit("seek:create", {"game": "general"})
        wait_seeks(anna, c, 1)
        cara.close()
        wait_seeks(anna, c, 0)
        # Anna seeks; Bert, of the same strength, seeks too: they are paired at once.
        anna.emit("seek:create", {"game": "general"})
        seek = wait_seeks(bert, a, 1)[0]
        bert.emit("seek:create", {"game": "general"})
        started = [x.wait_for("challenge:started", lambda p: p["challenge_id"] == seek["id"]) for x in (anna, bert)]
        assert started[0]["game_id"] == started[1]["game_id"]
        with pool.connection() as conn:
            assert game_store.load(conn, started[0]["game_id"]).seats == (b, a)
        wait_seeks(anna, b, 0)
        wait_seeks(anna, a, 0)
    finally:
        close_all(anna, bert, cara)
