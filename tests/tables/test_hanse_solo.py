"""Battlehanse against the computer through the real game service and Celery worker:
Zug zurück mixes the unseen cards anew (and the game still replays), Tipp, Rückblick."""

from __future__ import annotations

import json
import queue
import random
import time
from collections import Counter

import redis
import requests

from shared import game_store
from shared.games import get_game
from shared.schemas.mechanism import validate_record
from shared.schemas.server_events import validate_server_event
from shared.table_replay import replay as table_replay
from tests.stack import CeleryWorker, Infra, ServiceProcess
from tests.table_client import TableClient, legal_texts, load, players, stored_when, token
from tests.tables.test_local import new_local

GAME = get_game("hanse")


def next_event(client: TableClient, name: str, timeout: float = 30) -> dict:
    """The next ``name`` event of ``client`` (table states and errors seen meanwhile are kept)."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"no {name} event")
        try:
            event, data = client.probe.events.get(timeout=remaining)
        except queue.Empty:
            continue
        if event == name:
            return data
        if event == "table:state":
            known = client.states.get(data["game_id"])
            if known is None or data["version"] >= known["version"]:
                client.states[data["game_id"]] = data
        elif event == "error":
            client.errors.append(data)


def play_and_wait_for_answer(client: TableClient, game_id: int, move: str) -> dict:
    state = client.states[game_id]
    plies = len(state["moves"])
    client.emit("table:move", {"game_id": game_id, "version": state["version"], "move": move})
    return client.state(game_id, lambda s: len(s["moves"]) == plies + 2, timeout=30)


def stored(pool, game_id: int, column: str) -> object:  # noqa: ANN001
    with pool.connection() as conn:
        return conn.execute(f"SELECT {column} AS v FROM games WHERE id = %s", (game_id,)).fetchone()["v"]


def test_undo_mixes_only_unseen_cards_and_the_game_still_replays(game_service: ServiceProcess,  # noqa: ANN001
                                                                 ai_worker: CeleryWorker, pool) -> None:
    (a,) = players(pool, 1)
    client = TableClient(game_service.url, a).connect()
    try:
        state = new_local(client, game="hanse", mode="computer", strength="leicht", seat=0)
        game_id, start_view = state["game_id"], state["view"]
        take = next(t for t in legal_texts(state) if t.startswith("nimm"))
        state = play_and_wait_for_answer(client, game_id, take)
        version = state["version"]
        client.emit("table:undo", {"game_id": game_id})
        state = client.state(game_id, lambda s: s["version"] > version and not s["moves"])
        assert state["view"] == start_view  # everything seen is as it was
        row = load(pool, game_id)
        ((ply, mix_seed),) = row.reshuffles
        assert ply == 0 and str(mix_seed) not in json.dumps(state)  # the seed stays on the server
        mixed = table_replay(row.game, row.options, row.seed, row.moves, row.move_seats, row.reshuffles)
        plain = GAME.new_game(row.options, row.seed)
        assert Counter(mixed.deck) == Counter(plain.deck) and mixed.deck != plain.deck
        assert [Counter(p) for p in mixed.rats_piles] == [Counter(p) for p in plain.rats_piles]
        for seat in (0, 1, None):
            assert GAME.view(mixed, seat) == GAME.view(plain, seat)
        # Play on: any process replaying the row gets the table's state (the cache key knows the mix).
        state = play_and_wait_for_answer(client, game_id, take)
        row = stored_when(pool, game_id, lambda r: r.version == state["version"])
        replayed = table_replay(row.game, row.options, row.seed, row.moves, row.move_seats, row.reshuffles)
        assert GAME.view(replayed, 0) == state["view"]
        client.emit("table:resign", {"game_id": game_id})
        client.state(game_id, lambda s: s["status"] == "finished")
        record = stored(pool, game_id, "record")
        assert f'[Neumischung "0 {mix_seed}"]' in record
        parsed = GAME.parse_record(record)  # the deck and piles as mixed, the moves as played
        for field in ("deck", "rats_piles", "market", "hands", "history", "reshuffles"):
            assert getattr(parsed, field) == getattr(replayed, field), field
    finally:
        client.close()


def test_tipp_gives_a_legal_move_marks_the_match_and_is_refused_against_stark(  # noqa: ANN001
        game_service: ServiceProcess, ai_worker: CeleryWorker, pool) -> None:
    a, b = players(pool, 2)
    client = TableClient(game_service.url, a).connect()
    other = TableClient(game_service.url, b, lang="en").connect()
    try:
        state = new_local(client, game="hanse", mode="computer", strength="mittel", seat=0)
        game_id = state["game_id"]
        client.emit("table:hint", {"game_id": game_id, "version": state["version"] + 3})
        assert client.error()["code"] == "stale_version"
        assert stored(pool, game_id, "hints") == 0
        client.emit("table:hint", {"game_id": game_id, "version": state["version"]})
        hint = next_event(client, "ai_hint")
        validate_server_event("ai_hint", hint)
        assert hint["table_id"] == str(game_id) and hint["seat"] == 0 and hint["ply"] == state["version"]
        assert hint["move"] in legal_texts(state)
        assert stored(pool, game_id, "hints") == 1  # the match is marked
        assert load(pool, game_id).version == state["version"]  # nothing on the table changed
        # Only the player of the table may ask.
        other.emit("table:hint", {"game_id": game_id, "version": state["version"]})
        assert other.error()["code"] == "spectator"

        strong = new_local(client, game="hanse", mode="computer", strength="stark", seat=0)
        client.emit("table:hint", {"game_id": strong["game_id"], "version": strong["version"]})
        refusal = client.error()
        assert refusal["code"] == "hint_not_against_stark" and "Stark" in refusal["message"]
        assert refusal["event"] == "table:hint"
        assert stored(pool, strong["game_id"], "hints") == 0
    finally:
        client.close()
        other.close()


def test_forty_tipps_at_one_table_version_are_one_search(game_service: ServiceProcess,  # noqa: ANN001
                                                         ai_worker: CeleryWorker, pool, infra: Infra) -> None:
    """Tipp spam: forty ``table:hint`` at one version start one strong search and count
    one Tipp; asked again after the answer, the Tipp is that same answer, at once."""
    (a,) = players(pool, 1)
    client = TableClient(game_service.url, a).connect()
    try:
        state = new_local(client, game="hanse", mode="computer", strength="mittel", seat=0)
        game_id = state["game_id"]
        for _ in range(40):
            client.emit("table:hint", {"game_id": game_id, "version": state["version"]})
        first = next_event(client, "ai_hint")
        assert first["ply"] == state["version"] and first["move"] in legal_texts(state)
        client.emit("table:hint", {"game_id": game_id, "version": state["version"]})
        assert next_event(client, "ai_hint", timeout=5) == first
        assert stored(pool, game_id, "hints") == 1
        assert redis.Redis.from_url(infra.redis_url).llen("interactive") == 0  # no other search waits
        assert client.errors == []
        # The next version has a Tipp of its own.
        state = play_and_wait_for_answer(client, game_id, first["move"])
        client.emit("table:hint", {"game_id": game_id, "version": state["version"]})
        second = next_event(client, "ai_hint")
        assert second["ply"] == state["version"] and second["request_id"] != first["request_id"]
        assert stored(pool, game_id, "hints") == 2
    finally:
        client.close()


def test_rueckblick_reaches_its_player_only_unless_made_public(game_service: ServiceProcess,  # noqa: ANN001
                                                               ai_worker: CeleryWorker, pool) -> None:
    a, b = players(pool, 2)
    client = TableClient(game_service.url, a).connect()
    other = TableClient(game_service.url, b).connect()
    url = f"{game_service.url}/api/games"
    try:
        state = new_local(client, game="hanse", mode="computer", strength="leicht", seat=0)
        game_id = state["game_id"]
        client.emit("review:request", {"game_id": game_id})
        assert client.error()["code"] == "review_after_end"
        for _ in range(3):
            state = play_and_wait_for_answer(client, game_id, legal_texts(client.states[game_id])[0])
        client.emit("table:resign", {"game_id": game_id})
        client.state(game_id, lambda s: s["status"] == "finished")

        client.emit("review:request", {"game_id": game_id})
        first = next_event(client, "review:state")
        validate_server_event("review:state", first)
        assert first["seat"] == 0 and first["review_id"] is not None and first["status"] in ("queued", "running")
        progress = next_event(client, "review_progress", timeout=60)  # this socket joined the review's room
        assert progress["review_id"] == first["review_id"]
        own = {"Authorization": f"Bearer {token(a)}"}
        deadline = time.monotonic() + 90
        while True:
            data = requests.get(f"{url}/{game_id}/review", headers=own, timeout=10).json()
            if data["status"] in ("done", "failed") or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        validate_record("Review", data)
        assert data["status"] == "done" and data["total"] == 3 == len(data["moves"]) and data["mine"] is True
        row = load(pool, game_id)
        for move in data["moves"]:
            assert row.move_seats[move["ply"]] == 0 and row.moves[move["ply"]] == move["played"]
            assert move["class"] in ("green", "yellow", "red") and move["loss"] >= 0 and move["best"]

        # The opponent's side, another user, nobody logged in: refused while it is private.
        theirs = {"Authorization": f"Bearer {token(b)}"}
        refused = requests.get(f"{url}/{game_id}/review?seat=0", headers=theirs, timeout=10)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "review_not_yours"
        assert requests.get(f"{url}/{game_id}/review?seat=1", headers=own, timeout=10).status_code == 403
        assert requests.get(f"{url}/{game_id}/review", timeout=10).status_code == 401
        other.emit("review:request", {"game_id": game_id, "seat": 0})
        assert other.error()["code"] == "review_not_yours"
        other.emit("review:public", {"game_id": game_id, "public": True})
        assert other.error()["code"] == "review_not_yours"

        client.emit("review:public", {"game_id": game_id, "public": True})
        assert next_event(client, "review:state")["public"] is True
        shown = requests.get(f"{url}/{game_id}/review?seat=0", headers=theirs, timeout=10)
        assert shown.status_code == 200 and shown.json()["moves"] == data["moves"] and shown.json()["mine"] is False
    finally:
        client.close()
        other.close()


def test_rueckblick_on_the_rundentafel_and_zug_zurueck_drops_it(game_service: ServiceProcess,  # noqa: ANN001
                                                                ai_worker: CeleryWorker, pool) -> None:
    a, b = players(pool, 2)
    with pool.connection() as conn, conn.transaction():
        game_id = game_store.create_game(conn, game="hanse", options={}, seed=11, seats=(a.id, None), mode="computer",
                                         clock=None, rated=False, stake=0, strength="leicht")
    # A first round played out by the engine (as the table would have recorded it) up to the Rundentafel.
    rng = random.Random(11)
    state = GAME.new_game({}, 11)
    moves, seats = [], []
    while not GAME.is_round_pause(state):
        text = rng.choice([m.text for m in GAME.legal_moves(state)])
        moves.append(text)
        seats.append(state.turn)
        state = GAME.apply(state, text, state.turn)
    with pool.connection() as conn, conn.transaction():
        conn.execute("UPDATE games SET moves = %s, move_seats = %s, move_times = %s, version = %s WHERE id = %s",
                     (moves, seats, [0] * len(moves), len(moves), game_id))
    client = TableClient(game_service.url, a).connect()
    try:
        state = client.join(game_id)
        assert state["view"]["phase"] == "pause" and state["status"] == "running"
        client.emit("review:request", {"game_id": game_id})
        first = next_event(client, "review:state")
        assert first["total"] == seats.count(0) and first["mine"] is True
        next_event(client, "review_progress", timeout=60)
        own = {"Authorization": f"Bearer {token(a)}"}
        data = requests.get(f"{game_service.url}/api/games/{game_id}/review", headers=own, timeout=10).json()
        assert data["status"] in ("running", "done") and data["moves"]
        assert all(seats[m["ply"]] == 0 for m in data["moves"])
        # While the match runs, nobody else reads it, and it cannot be made public.
        theirs = {"Authorization": f"Bearer {token(b)}"}
        assert requests.get(f"{game_service.url}/api/games/{game_id}/review?seat=0", headers=theirs,
                            timeout=10).status_code == 403
        client.emit("review:public", {"game_id": game_id, "public": True})
        assert client.error()["code"] == "review_after_end"
        # Zug zurück takes moves the review judged: the review goes with them.
        client.emit("table:undo", {"game_id": game_id})
        client.state(game_id, lambda s: len(s["moves"]) < len(moves))
        data = requests.get(f"{game_service.url}/api/games/{game_id}/review", headers=own, timeout=10).json()
        assert data["status"] == "none" and data["moves"] == []
    finally:
        client.close()
