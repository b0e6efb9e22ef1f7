"""Challenges through real lobby processes and real Socket.IO clients: agree and start (one game,
stakes debited once), changes confirmed, decline, withdraw, expiry, stakes above a balance,
closed challenges refused, two processes accepting at once, Revanche, the map preview."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import pytest
import requests

from shared import accounts, challenge, db, game_store, ledger
from shared.schemas.server_events import validate_server_event
from tests.lobby_fixtures import WartesaalClient, guest, redis_client, registered  # noqa: F401
from tests.stack import Infra, wait_until


@pytest.fixture
def pool(infra: Infra) -> Iterator:
    pool = db.make_pool(infra.database_url, max_size=2)
    yield pool
    pool.close()


class Pair:
    """Anna and Bert in the Wartesaal, each with a real client (optionally on two lobby processes)."""

    def __init__(self, url_a: str, url_b: str) -> None:
        self.anna_http, self.bert_http = registered(url_a), registered(url_b)  # guests stake nothing
        self.anna = WartesaalClient(url_a, self.anna_http)
        self.bert = WartesaalClient(url_b, self.bert_http)
        self.a, self.b = self.anna_http.user["id"], self.bert_http.user["id"]
        self.seen: set[str] = set()  # challenge ids opened so far
        self.anna.wait_players(lambda ps: {self.a, self.b} <= {p["user_id"] for p in ps})

    def close(self) -> None:
        self.anna.close()
        self.bert.close()


def update(client: WartesaalClient, challenge_id: str | None = None, **expect: object) -> dict:
    """The first challenge:update (of ``challenge_id``) whose fields match ``expect``."""

    def matches(payload: object) -> bool:
        ch = payload["challenge"]
        return (challenge_id is None or ch["id"] == challenge_id) and all(ch.get(k) == v for k, v in expect.items())

    payload = client.wait_for("challenge:update", matches)
    validate_server_event("challenge:update", payload)
    return payload["challenge"]


def error(client: WartesaalClient, code: str) -> dict:
    return client.wait_for("error", lambda e: e["code"] == code)


def open_challenge(pair: Pair, game: str = "hexagon") -> dict:
    pair.anna.emit("challenge:create", {"to_user_id": pair.b, "game": game})
    payload = pair.bert.wait_for("challenge:update", lambda p: p["challenge"]["id"] not in pair.seen)
    ch = payload["challenge"]
    pair.seen.add(ch["id"])
    assert ch["status"] == "open" and ch["game"] == game
    assert ch["agreed"] == [pair.a] and ch["challenger"]["user_id"] == pair.a
    return ch


def games_of(pool, challenge_id: str) -> list[int]:  # noqa: ANN001
    with pool.connection() as conn:
        return [r["game_id"] for r in conn.execute("SELECT game_id FROM challenge_starts WHERE challenge_id = %s",
                                                   (challenge_id,)).fetchall()]


def test_both_agree_after_a_confirmed_change_and_one_game_starts_with_both_stakes(lobby, pool) -> None:  # noqa: F811
    pair = Pair(lobby.url, lobby.url)
    try:
        ch = open_challenge(pair)
        settings = {**ch["settings"], "clock": "3+2", "stake": 40, "options": {"map": "krater"}}
        pair.bert.emit("challenge:propose", {"challenge_id": ch["id"], "settings": settings})
        changed = update(pair.anna, ch["id"], version=2)
        assert changed["agreed"] == [pair.b] and changed["settings"]["options"]["map"] == "krater"
        pair.anna.emit("challenge:accept", {"challenge_id": ch["id"], "version": 2})
        started = [c.wait_for("challenge:started") for c in (pair.anna, pair.bert)]
        assert started[0] == started[1] and started[0]["game"] == "hexagon"
        validate_server_event("challenge:started", started[0])
        game_id = started[0]["game_id"]
        assert games_of(pool, ch["id"]) == [game_id]
        with pool.connection() as conn:
            row = game_store.load(conn, game_id)
        assert row.seats == (pair.a, pair.b) and row.mode == "wartesaal" and row.rated and row.stake == 40
        assert row.clock.base_ms == 180_000 and row.clock.inc_ms == 2_000 and row.options["map"] == "krater"
        assert ledger.balance(pool, pair.a) == ledger.balance(pool, pair.b) == ledger.START_BALANCE - 40
        pair.anna.wait_players(lambda ps: {p["status"] for p in ps if p["user_id"] in (pair.a, pair.b)} == {"spielt"})
        # A late accept of the started challenge changes nothing.
        pair.bert.emit("challenge:accept", {"challenge_id": ch["id"], "version": 2})
        assert "started" in error(pair.bert, "challenge_closed")["message"]
        assert ledger.balance(pool, pair.b) == ledger.START_BALANCE - 40
    finally:
        pair.close()


def test_decline_and_withdraw_end_it_and_a_withdrawn_challenge_cannot_be_accepted(lobby) -> None:  # noqa: F811
    pair = Pair(lobby.url, lobby.url)
    try:
        ch = open_challenge(pair)
        pair.bert.emit("challenge:decline", {"challenge_id": ch["id"]})
        assert update(pair.anna, ch["id"], status="declined")
        ch2 = open_challenge(pair, "bullet")
        pair.anna.emit("challenge:decline", {"challenge_id": ch2["id"]})
        update(pair.bert, ch2["id"], status="withdrawn")
        pair.bert.emit("challenge:accept", {"challenge_id": ch2["id"], "version": 1})
        refused = error(pair.bert, "challenge_closed")
        assert "nicht mehr offen" in refused["message"] and refused["event"] == "challenge:accept"
    finally:
        pair.close()


def test_an_idle_challenge_expires_and_cannot_be_accepted(lobby, redis_client) -> None:  # noqa: F811, ANN001
    pair = Pair(lobby.url, lobby.url)
    try:
        ch = open_challenge(pair)
        # Sixty seconds of silence, without waiting them: age the stored challenge.
        key = f"challenge:{ch['id']}"
        stored = json.loads(redis_client.get(key))
        stored["updated_at"] -= challenge.EXPIRY_SECONDS + 1
        redis_client.set(key, json.dumps(stored))
        redis_client.zadd("challenges:deadlines", {ch["id"]: stored["updated_at"] + challenge.EXPIRY_SECONDS})
        update(pair.anna, ch["id"], status="expired")
        update(pair.bert, ch["id"], status="expired")
        pair.bert.emit("challenge:accept", {"challenge_id": ch["id"], "version": 1})
        assert "expired" in error(pair.bert, "challenge_closed")["message"]
    finally:
        pair.close()


def test_a_stake_above_a_balance_is_refused_with_a_clear_message_and_nothing_changes(lobby, pool) -> None:  # noqa: F811
    pair = Pair(lobby.url, lobby.url)
    try:
        with pool.connection() as conn:
            ledger.record(conn, pair.b, -(ledger.START_BALANCE - 30), "test", None)  # Bert keeps 30 Taler
        ch = open_challenge(pair)
        pair.bert.emit("challenge:propose", {"challenge_id": ch["id"], "settings": {**ch["settings"], "stake": 50}})
        refused = error(pair.bert, "challenge_stake_too_high")
        assert "30 Taler" in refused["message"] and "50" in refused["message"]
        pair.anna.emit("challenge:propose", {"challenge_id": ch["id"], "settings": {**ch["settings"], "stake": 50}})
        proposed = update(pair.bert, ch["id"], version=2)
        pair.bert.emit("challenge:accept", {"challenge_id": ch["id"], "version": proposed["version"]})
        # The refusal is the accept handler's last word: it raised before anything changed, and
        # whatever it had emitted before (a challenge:started) would have reached Bert's socket first.
        error(pair.bert, "challenge_stake_too_high")
        assert not pair.bert.received("challenge:started") and games_of(pool, ch["id"]) == []
        assert ledger.balance(pool, pair.b) == 30 and ledger.balance(pool, pair.a) == ledger.START_BALANCE
        assert update(pair.anna, ch["id"], version=2)["status"] == "open"
    finally:
        pair.close()


def test_two_lobby_processes_accepting_at_once_start_one_game(lobby, second_lobby, pool) -> None:  # noqa: F811
    pair = Pair(lobby.url, second_lobby.url)
    bert_again = WartesaalClient(lobby.url, pair.bert_http)  # Bert's second tab, on the other process
    try:
        ch = open_challenge(pair)
        pair.anna.emit("challenge:propose", {"challenge_id": ch["id"], "settings": {**ch["settings"], "stake": 10}})
        update(bert_again, ch["id"], version=2)
        go = threading.Barrier(2)

        def accept(client: WartesaalClient) -> None:
            go.wait()
            client.emit("challenge:accept", {"challenge_id": ch["id"], "version": 2})

        threads = [threading.Thread(target=accept, args=(c,)) for c in (pair.bert, bert_again)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        game_id = pair.anna.wait_for("challenge:started")["game_id"]
        # The losing accept has had its chance once its tab is refused: the challenge was no longer
        # open for it (agreed or started), and the refusal is that handler's last word.
        wait_until(lambda: any(e["code"] == "challenge_closed" for c in (pair.bert, bert_again)
                               for e in c.received("error")), 10, "the second accept to be refused")
        assert games_of(pool, ch["id"]) == [game_id]
        assert len(pair.anna.received("challenge:started")) == 1
        assert ledger.balance(pool, pair.b) == ledger.START_BALANCE - 10
    finally:
        bert_again.close()
        pair.close()


def test_revanche_asks_for_the_next_game_with_colours_swapped(lobby, pool) -> None:  # noqa: F811
    pair = Pair(lobby.url, lobby.url)
    try:
        with pool.connection() as conn, conn.transaction():
            game_id = game_store.create_game(conn, game="bullet", options={"win_target": 4}, seed=3,
                                             seats=(pair.a, pair.b), mode="wartesaal",
                                             clock={"base_ms": 600_000, "inc_ms": 5_000}, rated=False, stake=0)
            game_store.finish(conn, game_id, result={"winner": 0, "reason": "aufgabe", "de": "Aufgabe",
                                                     "en": "Resignation", "score": None},
                              record=None, remaining_ms=[600_000, 600_000], version=1,
                              finished_at=game_store.db_now(conn))
        pair.anna.emit("challenge:rematch", {"game_id": game_id})
        ch = update(pair.bert, rematch_of=game_id)
        assert ch["settings"]["clock"] == "10+5" and ch["settings"]["options"]["win_target"] == 4
        assert ch["settings"]["swap"] is True and not ch["settings"]["rated"]
        pair.bert.emit("challenge:accept", {"challenge_id": ch["id"], "version": ch["version"]})
        started = pair.anna.wait_for("challenge:started")
        with pool.connection() as conn:
            assert game_store.load(conn, started["game_id"]).seats == (pair.b, pair.a)
        outsider = WartesaalClient(lobby.url, guest(lobby.url))
        try:
            outsider.emit("challenge:rematch", {"game_id": game_id})
            error(outsider, "challenge_no_game")
        finally:
            outsider.close()
    finally:
        pair.close()


def test_challenging_yourself_or_someone_absent_is_refused(lobby, pool) -> None:  # noqa: F811
    http = guest(lobby.url, lang="en")
    me = WartesaalClient(lobby.url, http, lang="en")
    try:
        me.emit("challenge:create", {"to_user_id": http.user["id"], "game": "hexagon"})
        assert error(me, "challenge_self")["message"] == "You cannot challenge yourself."
        absent = accounts.create_guest(pool)
        me.emit("challenge:create", {"to_user_id": absent.id, "game": "hexagon"})
        error(me, "challenge_player_away")
    finally:
        me.close()


def test_map_preview_is_the_engines_start_view_and_zufall_stays_unknown(lobby) -> None:  # noqa: F811
    crater = requests.get(f"{lobby.url}/api/games/hexagon/preview", params={"options": '{"map": "krater"}'},
                          timeout=10).json()
    assert crater["view"]["map"] == "krater" and crater["view"]["holes"]
    zufall = requests.get(f"{lobby.url}/api/games/hexagon/preview", params={"options": '{"map": "zufall"}'},
                          timeout=10).json()
    assert zufall["view"] is None
    bad = requests.get(f"{lobby.url}/api/games/hexagon/preview", params={"options": '{"map": "mond"}'}, timeout=10)
    assert bad.status_code == 400 and "Karte" in bad.json()["error"]["message"]
