"""Access (issue 10), every item in one place: nobody acts for another user.

- moves, resigning, draw/takeback offers, undo and claims at a table where one is not seated;
- accepting or declining someone else's challenge or Postfach invitation;
- joining another's same-device table;
- reading another's Postfach;
- seeing another's Rückblick before it is public;
- a tampered session cookie or game ticket;
- repeated failed logins.

Each refusal is checked for its code and that nothing changed (the stored row, the
challenge's state, the Postfach).  Several items are also tested where their feature
lives (test_tables_*, test_challenge_lobby, test_mailbox, test_hanse_solo,
test_accounts, test_platform_game_sockets); here they stand side by side.
"""

from __future__ import annotations

import base64
import json
import threading
import uuid
from collections.abc import Iterator

import pytest
import requests
import socketio

from shared import auth_token, db
from tests.lobby_fixtures import SESSION_COOKIE, WartesaalClient, guest
from tests.stack import Infra, ServiceProcess, SocketProbe
from tests.test_tables_local import new_local
from tests.test_tables_support import GAME_PATH, SECRET, TableClient, legal_texts, load, new_game, players, token


@pytest.fixture(scope="module")
def pool(infra: Infra) -> Iterator:
    pool = db.make_pool(infra.database_url, max_size=3)
    yield pool
    pool.close()


def stored(pool, game_id: int) -> tuple:  # noqa: ANN001
    row = load(pool, game_id)
    return row.status, list(row.moves), row.result, row.draw_offer, row.takeback_offer


def test_nobody_plays_resigns_offers_or_claims_at_a_table_where_they_are_not_seated(
        game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    anna, bert, mallory = players(pool, 3)
    game_id = new_game(pool, "hexagon", (anna.id, bert.id))
    intruder = TableClient(game_service.url, mallory, lang="en").connect()
    try:
        state = intruder.join(game_id)
        assert state["you"] is None  # a spectator of a Wartesaal game, nothing more
        before = stored(pool, game_id)
        attempts = [
            ("table:move", {"game_id": game_id, "version": state["version"],
                            "move": (legal_texts(state) or ["a1"])[0]}),
            ("table:resign", {"game_id": game_id}),
            ("table:draw", {"game_id": game_id, "action": "offer"}),
            ("table:draw", {"game_id": game_id, "action": "accept"}),
            ("table:takeback", {"game_id": game_id, "action": "offer"}),
            ("table:undo", {"game_id": game_id}),
            ("table:claim", {"game_id": game_id, "action": "win"}),
        ]
        for event, payload in attempts:
            intruder.emit(event, payload)
            error = intruder.error()
            assert error["code"] in ("spectator", "undo_not_here"), (event, error)
            assert error["message"] and error["event"] == event
        assert stored(pool, game_id) == before
    finally:
        intruder.close()


def test_nobody_joins_another_players_same_device_table(game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    owner_account, stranger_account = players(pool, 2)
    owner = TableClient(game_service.url, owner_account).connect()
    stranger = TableClient(game_service.url, stranger_account, lang="en").connect()
    try:
        game_id = new_local(owner, game="general", mode="same_device")["game_id"]
        stranger.emit("table:join", {"game_id": game_id})
        error = stranger.error()
        assert error["code"] == "private_table" and "another player" in error["message"]
        stranger.quiet(0.5)
        assert game_id not in stranger.states  # not even a spectator's view arrived
        for event, payload in (("table:undo", {"game_id": game_id}), ("table:resign", {"game_id": game_id})):
            stranger.emit(event, payload)
            assert stranger.error()["code"] == "spectator"
        assert load(pool, game_id).status == "running"
        assert owner.join(game_id)["you"] is not None  # the owner still may
        # Over HTTP the same rule, the same refusal in the asker's language: running, then finished.
        game_url = f"{game_service.url}/api/games/{game_id}"
        for path in ("", "/record.txt"):
            if path:
                owner.emit("table:resign", {"game_id": game_id})
                owner.state(game_id, lambda s: s["status"] == "finished")
            for headers in ({"Authorization": f"Bearer {token(stranger_account)}"}, {}):
                refused = requests.get(f"{game_url}{path}?lang=en", headers=headers, timeout=10)
                assert refused.status_code == 403, refused.text
                assert refused.json()["error"] == {"code": "private_table", "message": error["message"]}
            mine = requests.get(f"{game_url}{path}", headers={"Authorization": f"Bearer {token(owner_account)}"},
                                timeout=10)
            assert mine.status_code == 200 and (path or mine.json()["view"]), mine.text
    finally:
        owner.close()
        stranger.close()


def _challenge(lobby_url: str) -> tuple[WartesaalClient, WartesaalClient, WartesaalClient, dict, requests.Session]:
    anna_http, bert_http, mallory_http = (guest(lobby_url) for _ in range(3))
    anna, bert, mallory = (WartesaalClient(lobby_url, s) for s in (anna_http, bert_http, mallory_http))
    for client in (anna, bert, mallory):
        client.wait_for("welcome")
    anna.wait_players(lambda ps: bert_http.user["name"] in {p["name"] for p in ps})
    anna.emit("challenge:create", {"to_user_id": bert_http.user["id"], "game": "hexagon"})
    challenge = bert.wait_for("challenge:update")["challenge"]
    return anna, bert, mallory, challenge, mallory_http


def test_nobody_accepts_or_declines_someone_elses_challenge(lobby: ServiceProcess) -> None:  # noqa: F811
    anna, bert, mallory, challenge, _ = _challenge(lobby.url)
    try:
        for event, payload in (
            ("challenge:accept", {"challenge_id": challenge["id"], "version": challenge["version"]}),
            ("challenge:decline", {"challenge_id": challenge["id"]}),
            ("challenge:propose", {"challenge_id": challenge["id"], "settings": challenge["settings"]}),
        ):
            mallory.emit(event, payload)
            error = mallory.wait_for("error", lambda e, ev=event: e["event"] == ev)
            assert error["code"] == "challenge_not_yours", error
            mallory.events.clear()
        # Nothing changed: the challenged still sees it open, agreed by nobody but the challenger.
        bert.emit("challenge:accept", {"challenge_id": challenge["id"], "version": challenge["version"]})
        started = bert.wait_for("challenge:started")
        assert started["challenge_id"] == challenge["id"]
        assert not mallory.received("challenge:update") and not mallory.received("challenge:started")
    finally:
        for client in (anna, bert, mallory):
            close_soon(client)


def close_soon(client: WartesaalClient) -> None:
    """Disconnect without waiting: the websocket's close handshake lingers about 2 s per client."""
    threading.Thread(target=client.close, daemon=True).start()


def test_nobody_reads_another_postfach_or_answers_an_invitation_meant_for_someone_else(
        lobby: ServiceProcess) -> None:  # noqa: F811
    anna, bert, mallory = (guest(lobby.url) for _ in range(3))
    sent = anna.post(f"{lobby.url}/api/postfach/invitations",
                     json={"to_user_id": bert.user["id"], "game": "bullet", "clock": "5+3", "rated": False,
                           "stake": 0}, timeout=10)
    assert sent.status_code == 201, sent.text
    invitation_id = sent.json()["invitation"]["id"]
    mallory.headers["X-Lang"] = "en"
    own = mallory.get(f"{lobby.url}/api/postfach", timeout=10).json()
    assert invitation_id not in {i["id"] for i in own.get("invitations", [])}
    assert str(invitation_id) not in str(own) or not own.get("invitations")
    for action in ("accept", "decline"):
        refused = mallory.post(f"{lobby.url}/api/postfach/invitations/{invitation_id}/{action}", timeout=10)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "postfach_not_yours"
    # Without a session, nobody's Postfach.
    assert requests.get(f"{lobby.url}/api/postfach", timeout=10).status_code == 401
    bert_view = bert.get(f"{lobby.url}/api/postfach", timeout=10).json()
    mine = [i for i in bert_view["invitations"] if i["id"] == invitation_id]
    assert mine and mine[0]["status"] == "open"


def test_nobody_sees_another_players_rueckblick_before_it_is_public(game_service: ServiceProcess,
                                                                    pool) -> None:  # noqa: ANN001
    anna, bert, mallory = players(pool, 3)
    game_id = new_game(pool, "hanse", (anna.id, bert.id))
    client = TableClient(game_service.url, anna).connect()
    stranger = TableClient(game_service.url, mallory, lang="en").connect()
    url = f"{game_service.url}/api/games/{game_id}/review"
    try:
        client.join(game_id)
        client.emit("table:resign", {"game_id": game_id})
        client.state(game_id, lambda s: s["status"] == "finished")
        own = requests.get(f"{url}?seat=0", headers={"Authorization": f"Bearer {token(anna)}"}, timeout=10)
        assert own.status_code == 200 and own.json()["mine"] is True and own.json()["public"] is False
        for reader in (bert, mallory):
            refused = requests.get(f"{url}?seat=0", headers={"Authorization": f"Bearer {token(reader)}"},
                                   timeout=10)
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "review_not_yours"
        assert requests.get(url, timeout=10).status_code == 401
        forged = auth_token.issue(anna.id, anna.name, "not-the-secret")
        assert requests.get(f"{url}?seat=0", headers={"Authorization": f"Bearer {forged}"},
                            timeout=10).status_code == 401
        for event, payload in (("review:request", {"game_id": game_id, "seat": 0}),
                               ("review:public", {"game_id": game_id, "public": True})):
            stranger.emit(event, payload)
            assert stranger.error()["code"] == "review_not_yours"
    finally:
        client.close()
        stranger.close()


def forged_for(token_text: str, user_id: int) -> str:
    """``token_text`` with another user's id written into its payload, the signature kept."""
    payload, rest = token_text.split(".", 1)
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["uid"] = user_id
    forged = base64.urlsafe_b64encode(json.dumps(claims, separators=(",", ":")).encode()).rstrip(b"=").decode()
    return f"{forged}.{rest}"


def broken_signature(token_text: str) -> str:
    """``token_text`` with the first character of its signature changed (the last one's low
    bits are base64 padding, which decoders ignore: changing it may change nothing)."""
    head, _, sig = token_text.rpartition(".")
    return f"{head}." + ("A" if sig[0] != "A" else "B") + sig[1:]


def _tampered(token_text: str, other_user_id: int) -> list[str]:
    """The token with its signature broken, another user's id in it, cut short, mangled, signed with another key."""
    return [broken_signature(token_text), forged_for(token_text, other_user_id), token_text[:-5], "x" + token_text,
            token_text.replace(".", "..", 1), auth_token.issue(1, "admin", "guessed-secret")]


def test_a_tampered_session_cookie_or_game_ticket_is_refused(lobby: ServiceProcess,  # noqa: F811
                                                              game_service: ServiceProcess) -> None:
    session, other = guest(lobby.url), guest(lobby.url)
    cookie = session.cookies[SESSION_COOKIE]
    assert auth_token.verify(forged_for(cookie, session.user["id"]), SECRET, 3600) is not None  # the forger works
    # The premise: none of the variants is a genuine token any more.
    assert all(auth_token.verify(bad, SECRET, 3600) is None for bad in _tampered(cookie, other.user["id"]))
    ticket = session.get(f"{lobby.url}/api/game-ticket", timeout=10).json()["token"]
    assert auth_token.verify(ticket, SECRET, 3600)["uid"] == session.user["id"]
    for bad in _tampered(cookie, other.user["id"]):
        for path in ("/api/me", "/api/game-ticket", "/api/postfach", "/api/my-games/statistics"):
            answer = requests.get(f"{lobby.url}{path}", cookies={SESSION_COOKIE: bad},
                                  headers={"X-Lang": "en"}, timeout=10)
            assert answer.status_code == 401, (path, bad, answer.text)
            assert answer.json()["error"]["code"] == "not_logged_in"
    # Sockets: a refused connect costs seconds on the client side (the websocket's close
    # handshake), so one variant each: the signature broken.
    with pytest.raises(socketio.exceptions.ConnectionError):
        WartesaalClient(lobby.url, _session_with(_tampered(cookie, other.user["id"])[0]))
    with pytest.raises(socketio.exceptions.ConnectionError):
        SocketProbe(game_service.url, _tampered(ticket, other.user["id"])[0], path=GAME_PATH).connect(timeout=5)
    for bad in _tampered(ticket, other.user["id"]):
        answer = requests.get(f"{game_service.url}/api/my-games", headers={"Authorization": f"Bearer {bad}"},
                              timeout=10)
        assert answer.status_code == 401
    # The genuine ones still work.
    assert requests.get(f"{lobby.url}/api/me", cookies={SESSION_COOKIE: cookie}, timeout=10).status_code == 200
    with SocketProbe(game_service.url, ticket, path=GAME_PATH) as probe:
        assert probe.connected


def test_after_logout_the_old_cookie_and_its_game_ticket_authenticate_nowhere(lobby: ServiceProcess,  # noqa: F811
                                                                               game_service: ServiceProcess) -> None:
    name, password = f"abmelden{uuid.uuid4().hex[:8]}", "richtig-12345"
    address = {"X-Forwarded-For": f"logout-{uuid.uuid4().hex}", "X-Lang": "en"}
    assert requests.post(f"{lobby.url}/api/register", json={"name": name, "password": password}, headers=address,
                         timeout=30).status_code == 201
    device, other_device = requests.Session(), requests.Session()
    for session in (device, other_device):
        session.headers.update(address)
        assert session.post(f"{lobby.url}/api/login", json={"name": name, "password": password},
                            timeout=30).status_code == 200
    cookie = device.cookies[SESSION_COOKIE]
    ticket = device.get(f"{lobby.url}/api/game-ticket", timeout=10).json()["token"]
    with SocketProbe(game_service.url, ticket, path=GAME_PATH) as probe:
        assert probe.connected  # the premise: both worked before the logout

    assert device.post(f"{lobby.url}/api/logout", timeout=10).status_code == 200
    assert auth_token.verify(cookie, SECRET, 3600) is not None  # still signed and unexpired: only the logout refuses it
    for path in ("/api/me", "/api/game-ticket", "/api/postfach"):
        answer = requests.get(f"{lobby.url}{path}", cookies={SESSION_COOKIE: cookie}, headers={"X-Lang": "en"},
                              timeout=10)
        assert answer.status_code == 401 and answer.json()["error"]["code"] == "not_logged_in", (path, answer.text)
    with pytest.raises(socketio.exceptions.ConnectionError):
        SocketProbe(game_service.url, ticket, path=GAME_PATH).connect(timeout=5)
    for bearer in (cookie, ticket):
        answer = requests.get(f"{game_service.url}/api/my-games", headers={"Authorization": f"Bearer {bearer}"},
                              timeout=10)
        assert answer.status_code == 401
    # Only that session ended: the same account on another device stays signed in.
    assert other_device.get(f"{lobby.url}/api/me", timeout=10).json()["user"]["name"] == name


def _session_with(cookie: str) -> requests.Session:
    session = requests.Session()
    session.cookies.set(SESSION_COOKIE, cookie)
    return session


def test_repeated_failed_logins_are_throttled(lobby: ServiceProcess) -> None:  # noqa: F811
    name = f"zugang{uuid.uuid4().hex[:8]}"
    address = {"X-Forwarded-For": f"access-{uuid.uuid4().hex}", "X-Lang": "en"}
    created = requests.post(f"{lobby.url}/api/register", json={"name": name, "password": "richtig-12345"},
                            headers=address, timeout=30)
    assert created.status_code == 201
    answers = [requests.post(f"{lobby.url}/api/login", json={"name": name, "password": f"falsch-{i:05d}"},
                             headers=address, timeout=30) for i in range(6)]
    assert [a.status_code for a in answers[:5]] == [401] * 5
    assert answers[5].status_code == 429 and answers[5].json()["error"]["code"] == "login_throttled"
    # Throttled even with the right password, and from another address too (the name's counter).
    for headers in (address, {"X-Forwarded-For": f"access-{uuid.uuid4().hex}", "X-Lang": "en"}):
        right = requests.post(f"{lobby.url}/api/login", json={"name": name, "password": "richtig-12345"},
                              headers=headers, timeout=30)
        assert right.status_code == 429 and "Too many" in right.json()["error"]["message"]
