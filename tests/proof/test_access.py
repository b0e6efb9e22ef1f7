"""Access, every item in one place: nobody acts for another user.

- moves, resigning, draw/takeback offers, undo and claims at a table where one is not seated;
- accepting or declining someone else's challenge or Postfach invitation;
- joining another's same-device table;
- reading another's Postfach;
- seeing another's Rückblick before it is public;
- a tampered session cookie or game ticket;
- repeated failed logins.

Each refusal is checked for its code and that nothing changed (the stored row, the
challenge's state, the Postfach).  Several items are also tested where their feature
lives (tests/tables/, lobby/test_challenge, lobby/test_mailbox, tables/test_hanse_solo,
lobby/test_accounts, platform/test_game_sockets); here they stand side by side.
"""

from __future__ import annotations

import base64
import json
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
import requests
import socketio
import yaml
from flask import Flask, request

from bench.nginx_router import DEPLOY_CONF as NGINX_SITE
from bench.nginx_router import NginxRouter, nginx_binary
from services.embedded import free_port
from services.lobby.client_address import trust_proxies
from shared import auth_token, creation_quota, ledger, login_throttle, session_sockets
from shared import challenge as negotiation
from tests.lobby_fixtures import SESSION_COOKIE, WartesaalClient, guest, redis_client, registered  # noqa: F401
from tests.stack import ROOT, Infra, ServiceProcess, SocketProbe, wait_until
from tests.table_client import GAME_PATH, SECRET, TableClient, legal_texts, load, new_game, players, token
from tests.tables.test_local import new_local


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


def test_nobody_sees_a_private_table_through_a_refused_action(game_service: ServiceProcess,
                                                              pool) -> None:  # noqa: ANN001
    """A refusal that says "your picture is out of date" (a finished table, a stale version) sends
    the table's state along, to a socket that may look at it only: a stranger's actions at another's
    same-device table, running or over, show it nothing."""
    owner_account, stranger_account = players(pool, 2)
    owner = TableClient(game_service.url, owner_account).connect()
    stranger = TableClient(game_service.url, stranger_account, lang="en").connect()
    try:
        game_id = new_local(owner, game="hanse", mode="same_device")["game_id"]
        for finished in (False, True):
            if finished:
                owner.emit("table:resign", {"game_id": game_id})
                owner.state(game_id, lambda s: s["status"] == "finished")
            for event, payload in (("table:move", {"game_id": game_id, "version": 0, "move": "nimm Tuch"}),
                                   ("table:resign", {"game_id": game_id}),
                                   ("table:draw", {"game_id": game_id, "action": "offer"}),
                                   ("table:claim", {"game_id": game_id, "action": "win"}),
                                   ("table:hint", {"game_id": game_id, "version": 0})):
                stranger.emit(event, payload)
                error = stranger.error()
                assert error["event"] == event and error["message"], error
            stranger.quiet(0.5)
            assert game_id not in stranger.states, (finished, stranger.states.get(game_id))
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
                            headers={**address, "X-Forwarded-For": f"home-{uuid.uuid4().hex}"}, timeout=30)
    assert created.status_code == 201
    free = login_throttle.FREE_PER_NAME_AND_ADDRESS
    answers = [requests.post(f"{lobby.url}/api/login", json={"name": name, "password": f"falsch-{i:05d}"},
                             headers=address, timeout=30) for i in range(free + 1)]
    assert [a.status_code for a in answers[:free]] == [401] * free
    assert answers[free].status_code == 429 and answers[free].json()["error"]["code"] == "login_wait"
    # Held up even with the right password, from that address.
    right = requests.post(f"{lobby.url}/api/login", json={"name": name, "password": "richtig-12345"},
                          headers=address, timeout=30)
    assert right.status_code == 429 and "Too many" in right.json()["error"]["message"]


def test_nobody_locks_the_owner_out_with_failed_logins_from_many_addresses(lobby: ServiceProcess) -> None:  # noqa: F811
    """Guesses at one name from ever new addresses (X-Forwarded-For) slow the guessing down for
    strangers; the owner, at the address the account was used from, logs in at once."""
    name, password = f"besitzer{uuid.uuid4().hex[:8]}", "richtig-12345"
    home = {"X-Forwarded-For": f"home-{uuid.uuid4().hex}", "X-Lang": "en"}
    assert requests.post(f"{lobby.url}/api/register", json={"name": name, "password": password}, headers=home,
                         timeout=30).status_code == 201
    guesses = [requests.post(f"{lobby.url}/api/login", json={"name": name, "password": f"rate-{i:05d}"},
                             headers={"X-Forwarded-For": f"bot-{uuid.uuid4().hex}", "X-Lang": "en"},
                             timeout=30).status_code for i in range(login_throttle.FREE_PER_NAME + 3)]
    assert guesses[:login_throttle.FREE_PER_NAME] == [401] * login_throttle.FREE_PER_NAME
    assert set(guesses[login_throttle.FREE_PER_NAME:]) == {429}, guesses  # a stranger now waits
    owner = requests.post(f"{lobby.url}/api/login", json={"name": name, "password": password}, headers=home,
                          timeout=30)
    assert owner.status_code == 200, owner.text


def test_x_forwarded_for_counts_only_from_a_trusted_proxy() -> None:
    """Without a trusted proxy (make run) the header is the client's own word and is ignored; behind
    one proxy hop the address is the entry that proxy appended, whatever the client wrote before it."""
    def seen(hops: int, forwarded: str) -> str:
        app = Flask(__name__)
        app.get("/")(lambda: request.remote_addr or "")
        trust_proxies(app, hops)
        return app.test_client().get("/", headers={"X-Forwarded-For": forwarded},
                                     environ_base={"REMOTE_ADDR": "192.0.2.1"}).text

    assert seen(0, "203.0.113.9") == "192.0.2.1"
    assert seen(1, "203.0.113.9") == "203.0.113.9"
    assert seen(1, "1.2.3.4, 203.0.113.9") == "203.0.113.9"


@pytest.fixture(scope="module")
def strict_lobby(infra: Infra, log_dir: Path) -> Iterator[ServiceProcess]:
    """A lobby with small sign-up limits per address (the test processes' lobbies have none to speak of)."""
    service = ServiceProcess("services.lobby", infra, "LOBBY_PORT", log_dir, GUESTS_PER_HOUR="3",
                             REGISTRATIONS_PER_HOUR="2").start()
    yield service
    service.stop()


def test_guests_and_registrations_are_limited_per_address(strict_lobby: ServiceProcess) -> None:
    url = strict_lobby.url

    def new_guest(address: str, lang: str = "de") -> requests.Response:
        return requests.post(f"{url}/api/guest", headers={"X-Forwarded-For": address, "X-Lang": lang}, timeout=10)

    def register(address: str, name: str, session: requests.Session | None = None) -> requests.Response:
        return (session or requests.Session()).post(
            f"{url}/api/register", json={"name": name, "password": "richtig-12345"},
            headers={"X-Forwarded-For": address, "X-Lang": "en"}, timeout=30)

    mass, elsewhere = f"mass-{uuid.uuid4().hex}", f"else-{uuid.uuid4().hex}"
    assert [new_guest(mass).status_code for _ in range(3)] == [200] * 3
    for lang, words in (("de", "Gastzugänge"), ("en", "guest accounts")):
        refused = new_guest(mass, lang)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "guest_throttled"
        assert words in refused.json()["error"]["message"] and "3" in refused.json()["error"]["message"]
    assert new_guest(elsewhere).status_code == 200  # another address is not held up
    # Registrations: a refused name costs nothing; the third registration of the hour is refused,
    # also the one that turns a guest into an account.
    assert register(mass, "ab").json()["error"]["code"] == "name_too_short"
    assert [register(mass, f"massen{uuid.uuid4().hex[:8]}").status_code for _ in range(2)] == [201, 201]
    guest_session = requests.Session()
    guest_session.cookies.update(new_guest(elsewhere).cookies)
    refused = register(mass, f"massen{uuid.uuid4().hex[:8]}", guest_session)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "registration_throttled"
    assert "registered from your address" in refused.json()["error"]["message"]
    assert register(elsewhere, f"anders{uuid.uuid4().hex[:8]}").status_code == 201


def test_guests_hold_no_taler_and_play_no_staked_game(lobby: ServiceProcess, pool) -> None:  # noqa: ANN001, F811
    """A guest is asked for no stake and cannot propose or accept one: refused with the reason, nothing moves."""
    account_http, guest_http = registered(lobby.url), guest(lobby.url, lang="en")
    account, visitor = WartesaalClient(lobby.url, account_http), WartesaalClient(lobby.url, guest_http, lang="en")
    try:
        for client in (account, visitor):
            client.wait_for("welcome")
        assert visitor.received("welcome")[0]["user"]["balance"] == 0
        account.wait_players(lambda ps: guest_http.user["name"] in {p["name"] for p in ps})
        before = (ledger.balance(pool, account_http.user["id"]), ledger.balance(pool, guest_http.user["id"]))
        account.emit("challenge:create", {"to_user_id": guest_http.user["id"], "game": "hexagon"})
        challenge = visitor.wait_for("challenge:update")["challenge"]
        staked = {**challenge["settings"], "stake": 50}
        for client in (account, visitor):
            client.emit("challenge:propose", {"challenge_id": challenge["id"], "settings": staked})
            error = client.wait_for("error", lambda e: e["event"] == "challenge:propose")
            assert error["code"] == "challenge_guest_stake" and guest_http.user["name"] in error["message"], error
        assert "without a stake" in visitor.received("error")[0]["message"]
        # Rated without a stake is fine.
        visitor.emit("challenge:accept", {"challenge_id": challenge["id"], "version": challenge["version"]})
        assert visitor.wait_for("challenge:started")["challenge_id"] == challenge["id"]
        assert (ledger.balance(pool, account_http.user["id"]), ledger.balance(pool, guest_http.user["id"])) == before
        # Nor by invitation through the Postfach, either way.
        for sender, to in ((account_http, guest_http), (guest_http, account_http)):
            invited = sender.post(f"{lobby.url}/api/postfach/invitations",
                                  json={"to_user_id": to.user["id"], "game": "bullet", "clock": "5+3",
                                        "rated": True, "stake": 20}, timeout=10)
            assert invited.status_code == 400, invited.text
            assert invited.json()["error"]["code"] == "challenge_guest_stake", invited.text
        assert (ledger.balance(pool, account_http.user["id"]), ledger.balance(pool, guest_http.user["id"])) == before
    finally:
        for client in (account, visitor):
            close_soon(client)


def _refused_or_gone(emit: Callable[[], None]) -> None:
    """Send an event of a logged-out session: refused, or its socket is already gone."""
    try:
        emit()
    except socketio.exceptions.BadNamespaceError:
        pass  # disconnected by the server before the client could send it


def test_logout_ends_the_sessions_open_lobby_and_game_sockets(lobby: ServiceProcess,  # noqa: F811
                                                              second_lobby: ServiceProcess,  # noqa: F811
                                                              game_service: ServiceProcess, ai_worker,  # noqa: ANN001
                                                              pool) -> None:  # noqa: ANN001
    """Sockets opened before the logout act for the user no more, in every process: chat, a challenge
    with a stake, its acceptance, a new table, a move and a ping to the workers are refused, nothing
    changes, and the
    sockets (here, on another lobby process, on the game service) are closed."""
    mallory_http, bert_http = registered(lobby.url, lang="en"), registered(lobby.url)
    mallory_id, bert_id = mallory_http.user["id"], bert_http.user["id"]
    mallory, bert = WartesaalClient(lobby.url, mallory_http, lang="en"), WartesaalClient(lobby.url, bert_http)
    elsewhere = WartesaalClient(second_lobby.url, mallory_http, lang="en")
    ticket = mallory_http.get(f"{lobby.url}/api/game-ticket", timeout=10).json()["token"]
    table = SocketProbe(game_service.url, ticket, path=GAME_PATH, lang="en").connect()
    try:
        for client in (mallory, bert):
            client.wait_for("welcome")
        bert.wait_players(lambda ps: mallory_http.user["name"] in {p["name"] for p in ps})
        # Before the logout: a table of Mallory's own, and Bert's challenge with a 100-Taler stake.
        table.emit("table:new_local", {"game": "bullet", "mode": "same_device", "options": {}})
        state = table.wait_for("table:state")
        game_id, version, move = state["game_id"], state["version"], legal_texts(state)[0]
        bert.emit("challenge:create", {"to_user_id": mallory_id, "game": "hexagon"})
        challenge = bert.wait_for("challenge:update")["challenge"]
        bert.emit("challenge:propose", {"challenge_id": challenge["id"],
                                        "settings": {**challenge["settings"], "stake": 100}})
        staked = mallory.wait_for("challenge:update", lambda u: u["challenge"]["settings"]["stake"] == 100)
        before = {"balances": (ledger.balance(pool, mallory_id), ledger.balance(pool, bert_id)),
                  "games": _games_of(pool, mallory_id), "table": stored(pool, game_id)}

        assert mallory_http.post(f"{lobby.url}/api/logout", timeout=10).status_code == 200
        ended_at = time.monotonic()
        for event, payload in (
            ("chat:send", {"text": "noch da"}),
            ("challenge:create", {"to_user_id": bert_id, "game": "bullet"}),
            ("challenge:accept", {"challenge_id": challenge["id"], "version": staked["challenge"]["version"]}),
        ):
            _refused_or_gone(lambda e=event, p=payload: mallory.emit(e, p))
        for event, payload in (
            ("table:new_local", {"game": "hexagon", "mode": "same_device", "options": {}}),
            ("table:move", {"game_id": game_id, "version": version, "move": move}),
            ("ping_worker", {"nonce": "abgemeldet"}),
            ("table:ping", {"sent_ms": 1}),
            ("table:leave", {"game_id": game_id}),
        ):
            _refused_or_gone(lambda e=event, p=payload: table.emit(e, p))
        wait_until(lambda: not (mallory.sio.connected or elsewhere.sio.connected or table.client.connected), 2.0,
                   "the logged-out session's sockets are still open")
        assert time.monotonic() - ended_at < 2.0

        # Told why, in their language; every answer they got was that refusal.
        lobby_errors = mallory.received("error")
        assert lobby_errors and {e["code"] for e in lobby_errors} == {"session_ended"}, lobby_errors
        assert "logged out" in lobby_errors[0]["message"]
        assert [e["code"] for e in elsewhere.received("error")] == ["session_ended"]
        table_answers = table.drain(0.3)
        table_errors = [data for name, data in table_answers if name == "error"]
        assert table_errors and {e["code"] for e in table_errors} == {"session_ended"}, table_errors
        assert not {"table:state", "table:pong", "pong_worker"} & {name for name, _ in table_answers}, table_answers
        # Nothing changed: no chat line, no challenge started or created, no Taler moved, no table, no move.
        with pool.connection() as conn:
            said = conn.execute("SELECT count(*) AS n FROM chat_messages WHERE user_id = %s", (mallory_id,)).fetchone()
        assert said["n"] == 0
        assert not bert.received("challenge:started") and not mallory.received("challenge:started")
        assert all(u["challenge"]["id"] == challenge["id"] for u in bert.received("challenge:update"))
        after = {"balances": (ledger.balance(pool, mallory_id), ledger.balance(pool, bert_id)),
                 "games": _games_of(pool, mallory_id), "table": stored(pool, game_id)}
        assert after == before
        # And the session's ticket opens no new socket.
        with pytest.raises(socketio.exceptions.ConnectionError):
            SocketProbe(game_service.url, ticket, path=GAME_PATH).connect(timeout=5)
    finally:
        table.close()
        for client in (mallory, bert, elsewhere):
            close_soon(client)


def test_a_guest_who_registers_and_logs_out_ends_the_guest_eras_sockets_and_cookie(
        lobby: ServiceProcess, game_service: ServiceProcess) -> None:  # noqa: F811
    """A guest's cookie, game ticket and sockets act for the account once the guest registers
    (the guest row becomes the account); the account's logout ends them as well, not only the
    cookie that the registration set."""
    olga_http = guest(lobby.url, lang="en")
    guest_cookie = olga_http.cookies.get(SESSION_COOKIE)
    ticket = olga_http.get(f"{lobby.url}/api/game-ticket", timeout=10).json()["token"]
    wartesaal = WartesaalClient(lobby.url, olga_http, lang="en")
    table = SocketProbe(game_service.url, ticket, path=GAME_PATH, lang="en").connect()
    copy = requests.Session()
    copy.cookies.set(SESSION_COOKIE, guest_cookie)
    try:
        wartesaal.wait_for("welcome")
        name = f"olga{uuid.uuid4().hex[:8]}"
        response = olga_http.post(f"{lobby.url}/api/register", json={"name": name, "password": "richtig-12345"},
                                  timeout=30)
        assert response.status_code == 200, response.text
        assert olga_http.cookies.get(SESSION_COOKIE) != guest_cookie
        assert copy.get(f"{lobby.url}/api/me", timeout=10).json()["user"]["name"] == name

        assert olga_http.post(f"{lobby.url}/api/logout", timeout=10).status_code == 200
        wait_until(lambda: not (wartesaal.sio.connected or table.client.connected), 2.0,
                   "the guest-era sockets are still open after the account's logout")
        assert [e["code"] for e in wartesaal.received("error")] == ["session_ended"]
        assert copy.get(f"{lobby.url}/api/me", timeout=10).json()["error"]["code"] == "not_logged_in"
        with pytest.raises(socketio.exceptions.ConnectionError):
            SocketProbe(game_service.url, ticket, path=GAME_PATH).connect(timeout=5)
    finally:
        table.close()
        close_soon(wartesaal)


def test_a_logout_whose_announcement_was_lost_still_ends_the_sockets_within_seconds(
        game_service: ServiceProcess, pool) -> None:  # noqa: ANN001
    """The session recorded as ended with no word on Redis (as when Redis was away at the logout):
    every process finds it in ended_sessions within a second or so and ends its sockets."""
    (account,) = players(pool, 1)
    session_id = auth_token.new_session_id()
    probe = SocketProbe(game_service.url, auth_token.issue(account.id, account.name, SECRET, session_id),
                        path=GAME_PATH, lang="en").connect()
    try:
        with pool.connection() as conn:
            conn.execute("INSERT INTO ended_sessions (sid, expires_at) VALUES (%s, now() + interval '1 hour')",
                         (session_id,))
        ended_at = time.monotonic()
        assert probe.wait_for("error", timeout=3)["code"] == "session_ended"
        wait_until(lambda: not probe.client.connected, 3.0, "the socket is still open")
        assert time.monotonic() - ended_at < 3.0
    finally:
        probe.close()


def test_a_logout_answers_only_once_every_process_has_ended_the_sessions_sockets(
        lobby: ServiceProcess, second_lobby: ServiceProcess, game_service: ServiceProcess,  # noqa: F811
        infra: Infra, pool) -> None:  # noqa: ANN001
    """The announcement of a session's end (the logout's last step) returns once every process that
    heard it (both lobbies, the game service) has ended its sockets of the session: an event the
    user's socket sends right after the logout's answer finds no process that still accepts it."""
    (account,) = players(pool, 1)
    session_id = auth_token.new_session_id()
    probe = SocketProbe(game_service.url, auth_token.issue(account.id, account.name, SECRET, session_id),
                        path=GAME_PATH, lang="en").connect()
    client = redis.Redis.from_url(infra.redis_url)
    try:
        listening = dict(client.pubsub_numsub(session_sockets.CHANNEL))[session_sockets.CHANNEL.encode()]
        assert listening >= 3  # the premise: every process of the test listens
        with pool.connection() as conn:
            conn.execute("INSERT INTO ended_sessions (sid, expires_at) VALUES (%s, now() + interval '1 hour')",
                         (session_id,))
        assert session_sockets.announce(client, session_id) == listening
        _refused_or_gone(lambda: probe.emit("table:new_local", {"game": "hexagon", "mode": "same_device",
                                                                "options": {}}))
        answers = probe.drain(0.5)
        assert "table:state" not in {name for name, _ in answers}, answers
        assert {data["code"] for name, data in answers if name == "error"} == {"session_ended"}, answers
        assert _games_of(pool, account.id) == 0
    finally:
        client.close()
        probe.close()


def _games_of(pool, user_id: int) -> int:  # noqa: ANN001
    with pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM games WHERE %s IN (seat0_user_id, seat1_user_id)",
                            (user_id,)).fetchone()["n"]


def test_new_tables_are_limited_per_account_and_hour(lobby: ServiceProcess, game_service: ServiceProcess,  # noqa: F811
                                                     pool) -> None:  # noqa: ANN001
    """Same-device, computer and Tagesmarkt tables are rows (and computer searches): an account opens
    at most TABLES_PER_HOUR an hour; then the refusal says so, nothing is created, others go on."""
    http = guest(lobby.url, lang="en")
    ticket = http.get(f"{lobby.url}/api/game-ticket", timeout=10).json()["token"]
    table = SocketProbe(game_service.url, ticket, path=GAME_PATH, lang="en").connect()
    other = TableClient(game_service.url, players(pool, 1)[0]).connect()
    try:
        for _ in range(creation_quota.TABLES_PER_HOUR):
            table.emit("table:new_local", {"game": "hexagon", "mode": "same_device", "options": {}})
            table.wait_for("table:state")
        opened = _games_of(pool, http.user["id"])
        assert opened == creation_quota.TABLES_PER_HOUR
        table.emit("table:new_local", {"game": "hexagon", "mode": "same_device", "options": {}})
        error = table.wait_for("error")
        assert error["code"] == "table_throttled" and "60 tables" in error["message"], error
        daily = http.post(f"{lobby.url}/api/tagesmarkt/start", timeout=10)
        assert daily.status_code == 429 and daily.json()["error"]["code"] == "table_throttled", daily.text
        assert _games_of(pool, http.user["id"]) == opened
        assert new_local(other, game="hexagon", mode="same_device")["game_id"]  # another account is not held up
    finally:
        table.close()
        other.close()


def test_nobody_floods_another_player_with_challenges(lobby: ServiceProcess) -> None:  # noqa: F811
    """One open challenge per opponent, MAX_OPEN_CHALLENGES of one's own at once: a second is refused
    with the reason and never reaches the other's screen."""
    sessions = [guest(lobby.url, lang="en") for _ in range(negotiation.MAX_OPEN_CHALLENGES + 2)]
    clients = [WartesaalClient(lobby.url, s, lang="en") for s in sessions]
    mallory, victims = clients[0], clients[1:]
    try:
        for client in clients:
            client.wait_for("welcome")
        names = {s.user["name"] for s in sessions}
        mallory.wait_players(lambda ps: names <= {p["name"] for p in ps})
        first = sessions[1].user
        for game in ("hexagon", "bullet"):
            mallory.emit("challenge:create", {"to_user_id": first["id"], "game": game})
        refused = mallory.wait_for("error", lambda e: e["event"] == "challenge:create")
        assert refused["code"] == "challenge_pending" and first["name"] in refused["message"], refused
        for s in sessions[2:-1]:
            mallory.emit("challenge:create", {"to_user_id": s.user["id"], "game": "hexagon"})
        for victim in victims[1:-1]:
            victim.wait_for("challenge:update")
        mallory.emit("challenge:create", {"to_user_id": sessions[-1].user["id"], "game": "hexagon"})
        too_many = mallory.wait_for("error", lambda e: e["code"] == "challenge_too_many")
        assert str(negotiation.MAX_OPEN_CHALLENGES) in too_many["message"]
        victims[0].wait_for("challenge:update")
        close_soon(mallory)
        wait_until(lambda: not mallory.sio.connected, 10, "mallory still connected")
        assert len(victims[0].received("challenge:update")) == 1
        assert not victims[-1].received("challenge:update")
    finally:
        for client in clients:
            close_soon(client)


def test_nobody_floods_the_workers_queue_with_pings(game_service: ServiceProcess, ai_worker,  # noqa: ANN001
                                                    pool) -> None:  # noqa: ANN001
    """``ping_worker`` puts a task on the queue of the computer's moves and the Tipps: one ping per
    account waits there at a time.  A burst is refused (``ping_pending``, no task: every ping gets
    exactly one answer); a client that waits for each answer, and another account meanwhile, never are."""
    flooder_account, other_account = players(pool, 2)
    flooder = SocketProbe(game_service.url, token(flooder_account), path=GAME_PATH, lang="en").connect()
    other = SocketProbe(game_service.url, token(other_account), path=GAME_PATH).connect()
    try:
        other.emit("ping_worker", {"nonce": "wach"})  # the premise: a worker answers (its first task may take a while)
        assert other.wait_for("pong_worker", timeout=60)["nonce"] == "wach"
        burst = 60
        for i in range(burst):
            flooder.emit("ping_worker", {"nonce": f"flut-{i}"})
        for i in range(5):
            other.emit("ping_worker", {"nonce": f"ruhig-{i}"})
            assert other.wait_for("pong_worker", timeout=20)["nonce"] == f"ruhig-{i}"
        answers: list[tuple[str, object]] = []
        deadline = time.monotonic() + 30
        while len(answers) < burst and time.monotonic() < deadline:
            answers += [(name, data) for name, data in flooder.drain(quiet=0.5) if name in ("pong_worker", "error")]
        answers += flooder.drain(quiet=1.0)  # nothing beyond one answer per ping arrives later
        pongs = [data["nonce"] for name, data in answers if name == "pong_worker"]
        refused = [data for name, data in answers if name == "error"]
        assert len(pongs) + len(refused) == burst == len(answers), answers
        assert pongs and refused, f"{len(pongs)} pings answered, {len(refused)} refused"
        assert {(e["code"], e["event"]) for e in refused} == {("ping_pending", "ping_worker")}, refused
        assert "still on its way" in refused[0]["message"]
        assert len(set(pongs)) == len(pongs)
        # Once answered, the flooder may ping again.
        flooder.emit("ping_worker", {"nonce": "danach"})
        assert flooder.wait_for("pong_worker", timeout=20)["nonce"] == "danach"
    finally:
        flooder.close()
        other.close()


def _challenges_seen(client: WartesaalClient) -> set[str]:
    return {u["challenge"]["id"] for u in client.received("challenge:update")}


def test_nobody_floods_another_player_by_challenging_and_withdrawing_again_and_again(
        lobby: ServiceProcess) -> None:  # noqa: F811
    """Each new challenge (Revanche, seek) pops up on a screen, and withdrawing it frees the limits on
    open ones for the next: an account opens at most CHALLENGES_PER_HOUR an hour.  Then the refusal
    says so in the player's language, nothing reaches the other's screen, and others still challenge."""
    mallory_http, victim_http, friend_http = guest(lobby.url, lang="en"), guest(lobby.url), guest(lobby.url)
    mallory, victim, friend = (WartesaalClient(lobby.url, s, lang=lang)
                               for s, lang in ((mallory_http, "en"), (victim_http, "de"), (friend_http, "de")))
    victim_id = victim_http.user["id"]
    try:
        for client in (mallory, victim, friend):
            client.wait_for("welcome")
        for client in (mallory, friend):
            client.wait_players(lambda ps: victim_http.user["name"] in {p["name"] for p in ps})
        limit = creation_quota.CHALLENGES_PER_HOUR
        for i in range(limit):
            mallory.emit("challenge:create", {"to_user_id": victim_id, "game": "hexagon"})
            wait_until(lambda n=i + 1: len(_challenges_seen(victim)) == n, 10, f"challenge {i + 1} not shown")
            newest = victim.received("challenge:update")[-1]["challenge"]
            mallory.emit("challenge:decline", {"challenge_id": newest["id"]})  # the challenger's: withdrawn
            victim.wait_for("challenge:update", lambda u, c=newest["id"]: u["challenge"]["id"] == c
                            and u["challenge"]["status"] == "withdrawn")
        mallory.emit("challenge:create", {"to_user_id": victim_id, "game": "hexagon"})
        refused = mallory.wait_for("error", lambda e: e["event"] == "challenge:create")
        assert refused["code"] == "challenge_throttled" and f"{limit} challenges" in refused["message"], refused
        mallory.emit("seek:create", {"game": "general"})  # a seek, on every screen, counts alike
        assert mallory.wait_for("error", lambda e: e["event"] == "seek:create")["code"] == "challenge_throttled"
        mallory.emit("lang:set", {"lang": "de"})
        mallory.emit("challenge:create", {"to_user_id": victim_id, "game": "bullet"})
        german = mallory.wait_for("error", lambda e: e["event"] == "challenge:create" and e is not refused)
        assert german["code"] == "challenge_throttled" and "Herausforderungen" in german["message"], german
        assert len(_challenges_seen(victim)) == limit
        assert not [s for s in victim.received("seek:list")[-1]["seeks"] if s["seeker"]["id"] == mallory_http.user["id"]]
        # Somebody else is not held up.
        friend.emit("challenge:create", {"to_user_id": victim_id, "game": "hexagon"})
        wait_until(lambda: len(_challenges_seen(victim)) == limit + 1, 10, "the friend's challenge is not shown")
    finally:
        for client in (mallory, victim, friend):
            close_soon(client)


def test_nobody_floods_the_quick_match_pool_by_joining_and_cancelling_again_and_again(
        lobby: ServiceProcess, redis_client) -> None:  # noqa: ANN001, F811
    """Each entry into the Schnelle Partie pool (and the cancel after it) redraws the pool's count on
    every waiting player's screen: an account enters at most QUICK_JOINS_PER_HOUR times an hour, then
    the refusal says so in its language and the account is not in the pool."""
    mallory_http = guest(lobby.url, lang="en")
    mallory = WartesaalClient(lobby.url, mallory_http, lang="en")
    mallory_id = mallory_http.user["id"]
    try:
        mallory.wait_for("welcome")
        limit = creation_quota.QUICK_JOINS_PER_HOUR
        for i in range(limit):
            mallory.emit("quick:join", {"game": "hexagon", "clocks": ["3+2"]})
            wait_until(lambda n=i + 1: sum(s["state"] == "waiting" for s in mallory.received("quick:status")) == n,
                       10, f"join {i + 1} not answered")
            mallory.emit("quick:cancel", {})
            wait_until(lambda: redis_client.hget("quick:members", mallory_id) is None, 10, "cancel not done")
        mallory.emit("quick:join", {"game": "hexagon", "clocks": ["3+2"]})
        refused = mallory.wait_for("error", lambda e: e["event"] == "quick:join")
        assert refused["code"] == "quick_throttled" and f"{limit} times" in refused["message"], refused
        assert redis_client.hget("quick:members", mallory_id) is None
    finally:
        close_soon(mallory)


def test_nobody_floods_another_players_panel_by_changing_a_challenge_again_and_again(
        lobby: ServiceProcess) -> None:  # noqa: F811
    """Each change of a challenge's settings redraws the other's panel and keeps the challenge alive:
    after MAX_CHANGES the next is refused with the reason; the other may still accept what stands."""
    mallory_http, victim_http = guest(lobby.url, lang="en"), guest(lobby.url)
    mallory, victim = WartesaalClient(lobby.url, mallory_http, lang="en"), WartesaalClient(lobby.url, victim_http)
    try:
        for client in (mallory, victim):
            client.wait_for("welcome")
        mallory.wait_players(lambda ps: victim_http.user["name"] in {p["name"] for p in ps})
        mallory.emit("challenge:create", {"to_user_id": victim_http.user["id"], "game": "hexagon"})
        challenge = victim.wait_for("challenge:update")["challenge"]
        for i in range(negotiation.MAX_CHANGES):
            mallory.emit("challenge:propose", {"challenge_id": challenge["id"],
                                               "settings": {**challenge["settings"], "rated": i % 2 == 1}})
            victim.wait_for("challenge:update", lambda u, v=i + 2: u["challenge"]["version"] == v)
        mallory.emit("challenge:propose", {"challenge_id": challenge["id"],
                                           "settings": {**challenge["settings"], "clock": "10+5"}})
        refused = mallory.wait_for("error", lambda e: e["event"] == "challenge:propose")
        assert refused["code"] == "challenge_too_many_changes" and "changed 50 times" in refused["message"], refused
        latest = victim.received("challenge:update")[-1]["challenge"]
        assert latest["version"] == negotiation.MAX_CHANGES + 1 and latest["settings"]["clock"] == "5+3"
        victim.emit("challenge:accept", {"challenge_id": challenge["id"], "version": latest["version"]})
        assert victim.wait_for("challenge:started")["challenge_id"] == challenge["id"]
    finally:
        for client in (mallory, victim):
            close_soon(client)


def test_nobody_floods_a_postfach_by_inviting_and_withdrawing_again_and_again(lobby: ServiceProcess,  # noqa: F811
                                                                              pool) -> None:  # noqa: ANN001
    """Each invitation is a row and a badge update for the invitee, however soon it is withdrawn: an
    account sends at most INVITATIONS_PER_HOUR an hour, then the refusal says so (429, in the asked
    language) and stores nothing; another sender is not held up."""
    mallory, victim, friend = guest(lobby.url, lang="en"), guest(lobby.url), guest(lobby.url)
    url = f"{lobby.url}/api/postfach/invitations"
    invite = {"to_user_id": victim.user["id"], "game": "bullet", "clock": "5+3", "rated": False, "stake": 0}
    limit = creation_quota.INVITATIONS_PER_HOUR
    for _ in range(limit):
        sent = mallory.post(url, json=invite, timeout=10)
        assert sent.status_code == 201, sent.text
        withdrawn = mallory.post(f"{url}/{sent.json()['invitation']['id']}/decline", timeout=10)
        assert withdrawn.json() == {"outcome": "withdrawn"}, withdrawn.text
    refused = mallory.post(url, json=invite, timeout=10)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "invitation_throttled", refused.text
    assert f"{limit} invitations" in refused.json()["error"]["message"]
    german = mallory.post(url, json=invite, headers={"X-Lang": "de"}, timeout=10)
    assert german.status_code == 429 and "Einladungen verschickt" in german.json()["error"]["message"]
    with pool.connection() as conn:
        rows = conn.execute("SELECT count(*) AS n FROM invitations WHERE inviter_id = %s",
                            (mallory.user["id"],)).fetchone()["n"]
    assert rows == limit
    assert victim.get(f"{lobby.url}/api/postfach", timeout=10).json()["count"] == 0
    assert friend.post(url, json=invite, timeout=10).status_code == 201


# The example line deploy/README.md tells the operator to replace by the address of the proxy in front.
REAL_IP_EXAMPLE = "# set_real_ip_from 192.0.2.1;"


def deployed_nginx_sites() -> dict[str, str]:
    """The site configuration of each nginx the deploy runs: compose's and the cluster's router."""
    router = next(doc for doc in yaml.safe_load_all((ROOT / "deploy" / "k8s" / "router.yaml").read_text())
                  if doc and doc["kind"] == "ConfigMap" and doc["metadata"]["name"] == "router-nginx")
    return {"deploy/nginx.conf": NGINX_SITE.read_text(encoding="utf-8"),
            "deploy/k8s/router.yaml": router["data"]["default.conf"]}


def test_the_deployed_nginx_believes_no_network_of_clients_their_x_forwarded_for() -> None:
    """As shipped, nginx takes the client's address from the connection: no network is trusted whose
    clients could write any address into X-Forwarded-For and so slip past the login and sign-up
    throttles.  The operator names the one proxy in front (the commented example), whose entry,
    the last, then counts (recursive off)."""
    for name, site in deployed_nginx_sites().items():
        trusted = re.findall(r"^\s*set_real_ip_from\s+([^;\s]+)\s*;", site, flags=re.M)
        assert trusted == [], (name, trusted)
        assert re.findall(r"^\s*real_ip_recursive\s+(\w+)\s*;", site, flags=re.M) == ["off"], name
        assert site.count(REAL_IP_EXAMPLE) == 1, name


@pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (make setup installs it)")
def test_behind_nginx_only_the_named_proxys_entry_counts_for_the_throttles(
        strict_lobby: ServiceProcess, infra: Infra, tmp_path: Path) -> None:
    """Through the deploy's nginx: as shipped, an X-Forwarded-For the client wrote is not believed
    (counted under the connection's address); with the proxy in front named as deploy/README.md
    says (here 127.0.0.1, the test itself), that proxy's entry counts, never what the client wrote
    before it."""
    counts = redis.Redis.from_url(infra.redis_url)
    client_address = f"198.18.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250 + 1}"

    def count(address: str) -> int:
        return int(counts.get(f"quota:guest:{address}") or 0)

    def new_guest(router: NginxRouter, forwarded: str) -> int:
        return requests.post(f"{router.url}/api/guest", headers={"X-Forwarded-For": forwarded, "X-Lang": "en"},
                             timeout=10).status_code

    try:
        with NginxRouter(free_port(), [strict_lobby.url], ["http://127.0.0.1:1"], tmp_path / "shipped") as router:
            before = count("127.0.0.1")
            new_guest(router, client_address)
            assert (count(client_address), count("127.0.0.1")) == (0, before + 1)
        named = NGINX_SITE.read_text(encoding="utf-8").replace(REAL_IP_EXAMPLE, "set_real_ip_from 127.0.0.1;")
        with NginxRouter(free_port(), [strict_lobby.url], ["http://127.0.0.1:1"], tmp_path / "named",
                         site=named) as router:
            answers = [new_guest(router, f"10.0.0.{i}, {client_address}") for i in range(4)]
            assert answers == [200, 200, 200, 429], answers  # GUESTS_PER_HOUR of strict_lobby: 3
            assert count(client_address) == 4 and not any(count(f"10.0.0.{i}") for i in range(4))
            assert new_guest(router, f"10.0.0.9, 198.19.{uuid.uuid4().int % 250}.7") == 200  # another client
    finally:
        counts.close()
