"""The Postfach through a real lobby process: an invitation to an absent player, the badge,
accepting (the game starts when the inviter is here; turns to the inviter when not), declining
with a note, only the two players may see or act, and no Taler move before the start."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from shared import db, game_store, ledger
from shared.games import get_game
from shared.schemas.mechanism import validate_record
from shared.schemas.server_events import validate_server_event
from tests.lobby_fixtures import WartesaalClient, guest, registered
from tests.stack import Infra


@pytest.fixture
def pool(infra: Infra) -> Iterator:
    pool = db.make_pool(infra.database_url, max_size=2)
    yield pool
    pool.close()


def invite(session: requests.Session, url: str, to: int, game: str = "hexagon", **settings: object) -> requests.Response:
    body = {"to_user_id": to, "game": game, "clock": "5+3", "rated": True, "stake": 0, **settings}
    return session.post(f"{url}/api/postfach/invitations", json=body, timeout=10)


def postfach(session: requests.Session, url: str) -> dict:
    response = session.get(f"{url}/api/postfach", timeout=10)
    response.raise_for_status()
    return validate_record("Mailbox", response.json())


def test_an_invitation_to_an_absent_player_waits_in_the_postfach_and_starts_when_accepted(lobby, pool) -> None:  # noqa: F811
    anna, bert = registered(lobby.url), registered(lobby.url)
    a, b = anna.user["id"], bert.user["id"]
    before = {uid: ledger.balance(pool, uid) for uid in (a, b)}
    sent = invite(anna, lobby.url, b, stake=30, clock="3+2")
    assert sent.status_code == 201, sent.text
    invitation = validate_record("Invitation", sent.json()["invitation"])
    assert invitation["awaiting_user_id"] == b and invitation["status"] == "open"
    assert invitation["settings"]["options"] == get_game("hexagon").default_options()
    # The same invitation twice is refused, in the client's language.
    again = invite(anna, lobby.url, b)
    assert again.status_code == 409 and "schon" in again.json()["error"]["message"]

    # Bert comes in: one entry on his badge, the invitation waiting for him.
    box = postfach(bert, lobby.url)
    assert box["count"] == 1 and [i["id"] for i in box["invitations"]] == [invitation["id"]]
    assert postfach(anna, lobby.url)["count"] == 0  # Anna's own invitation waits for Bert, not for her
    # Stakes: nothing moved yet.
    assert {uid: ledger.balance(pool, uid) for uid in (a, b)} == before

    anna_socket = WartesaalClient(lobby.url, anna)
    bert_socket = WartesaalClient(lobby.url, bert)
    try:
        anna_socket.wait_players(lambda ps: {a, b} <= {p["user_id"] for p in ps})
        accepted = bert.post(f"{lobby.url}/api/postfach/invitations/{invitation['id']}/accept", timeout=10)
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["outcome"] == "started"
        game_id = accepted.json()["game_id"]
        for client in (anna_socket, bert_socket):
            started = client.wait_for("challenge:started", lambda p: p["game_id"] == game_id)
            validate_server_event("challenge:started", started)
        with pool.connection() as conn:
            game = game_store.load(conn, game_id)
        assert game is not None and game.game == "hexagon" and game.mode == "wartesaal" and game.rated
        assert set(game.seats) == {a, b} and game.stake == 30
        assert game.clock is not None and (game.clock.base_ms, game.clock.inc_ms) == (180_000, 2_000)
        # The stakes left both balances at the start, once.
        assert {uid: ledger.balance(pool, uid) for uid in (a, b)} == {uid: before[uid] - 30 for uid in (a, b)}
        # Started: gone from both Postfächer; a second accept is refused and starts nothing.
        assert postfach(bert, lobby.url)["invitations"] == [] and postfach(anna, lobby.url)["invitations"] == []
        late = bert.post(f"{lobby.url}/api/postfach/invitations/{invitation['id']}/accept", timeout=10)
        assert late.status_code == 409 and late.json()["error"]["code"] == "postfach_closed"
    finally:
        anna_socket.close()
        bert_socket.close()


def test_accepted_while_the_inviter_is_away_it_turns_to_the_inviter(lobby, pool) -> None:  # noqa: F811
    anna, bert = guest(lobby.url), guest(lobby.url, lang="en")
    a, b = anna.user["id"], bert.user["id"]
    invitation = invite(anna, lobby.url, b, game="bullet").json()["invitation"]
    answer = bert.post(f"{lobby.url}/api/postfach/invitations/{invitation['id']}/accept", timeout=10)
    assert answer.status_code == 200 and answer.json()["outcome"] == "waiting"
    assert answer.json()["invitation"]["awaiting_user_id"] == a
    # Anna finds a note "accepted" and the invitation now waiting for her.
    box = postfach(anna, lobby.url)
    assert box["count"] == 2
    assert [n["kind"] for n in box["notes"]] == ["accepted"] and box["notes"][0]["invitation"]["id"] == invitation["id"]
    assert box["invitations"][0]["awaiting_user_id"] == a
    # Bert cannot accept twice: it is Anna's turn (English message for him).
    twice = bert.post(f"{lobby.url}/api/postfach/invitations/{invitation['id']}/accept", timeout=10)
    assert twice.status_code == 409 and "up to" in twice.json()["error"]["message"]
    assert anna.post(f"{lobby.url}/api/postfach/read", timeout=10).json()["count"] == 1

    # Anna accepts while Bert is in the Wartesaal: the game starts for both.
    bert_socket = WartesaalClient(lobby.url, bert)
    try:
        bert_socket.wait_players(lambda ps: b in {p["user_id"] for p in ps})
        started = anna.post(f"{lobby.url}/api/postfach/invitations/{invitation['id']}/accept", timeout=10)
        assert started.status_code == 200 and started.json()["outcome"] == "started"
        bert_socket.wait_for("challenge:started", lambda p: p["game_id"] == started.json()["game_id"])
        with pool.connection() as conn:
            game = game_store.load(conn, started.json()["game_id"])
        assert game is not None and game.game == "bullet" and set(game.seats) == {a, b}
    finally:
        bert_socket.close()


def test_decline_leaves_a_note_and_withdraw_does_not(lobby) -> None:  # noqa: F811
    anna, bert = guest(lobby.url), guest(lobby.url)
    b = bert.user["id"]
    first = invite(anna, lobby.url, b, game="general").json()["invitation"]
    anna_socket = WartesaalClient(lobby.url, anna)
    try:
        declined = bert.post(f"{lobby.url}/api/postfach/invitations/{first['id']}/decline", timeout=10)
        assert declined.json() == {"outcome": "declined"}
        # Anna is in the Wartesaal: her badge changes at once.
        pushed = anna_socket.wait_for("postfach:changed", lambda p: p["count"] == 1)
        validate_server_event("postfach:changed", pushed)
    finally:
        anna_socket.close()
    box = postfach(anna, lobby.url)
    assert [n["kind"] for n in box["notes"]] == ["declined"] and box["notes"][0]["invitation"]["status"] == "declined"

    second = invite(anna, lobby.url, b, game="general").json()["invitation"]
    assert postfach(bert, lobby.url)["count"] == 1
    withdrawn = anna.post(f"{lobby.url}/api/postfach/invitations/{second['id']}/decline", timeout=10)
    assert withdrawn.json() == {"outcome": "withdrawn"}
    assert postfach(bert, lobby.url) == {"count": 0, "invitations": [], "notes": []}


def test_only_the_two_players_see_and_act_on_an_invitation(lobby, pool) -> None:  # noqa: F811
    anna, bert, carl = guest(lobby.url), guest(lobby.url), guest(lobby.url)
    invitation = invite(anna, lobby.url, bert.user["id"]).json()["invitation"]
    assert postfach(carl, lobby.url) == {"count": 0, "invitations": [], "notes": []}
    for action in ("accept", "decline"):
        refused = carl.post(f"{lobby.url}/api/postfach/invitations/{invitation['id']}/{action}", timeout=10)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "postfach_not_yours"
        assert "nicht für dich" in refused.json()["error"]["message"]
    # Without a session: nothing at all.
    anonymous = requests.get(f"{lobby.url}/api/postfach", timeout=10)
    assert anonymous.status_code == 401
    assert requests.post(f"{lobby.url}/api/postfach/invitations/{invitation['id']}/accept", timeout=10).status_code == 401
    unknown = carl.post(f"{lobby.url}/api/postfach/invitations/999999999/accept", timeout=10)
    assert unknown.status_code == 404
    # Still open and waiting for Bert: the refusals changed nothing.
    box = postfach(bert, lobby.url)
    assert box["count"] == 1 and box["invitations"][0]["status"] == "open"


def test_bad_invitations_are_refused_and_change_nothing(lobby, pool) -> None:  # noqa: F811
    anna, bert = registered(lobby.url), registered(lobby.url)
    a, b = anna.user["id"], bert.user["id"]
    cases = [
        (invite(anna, lobby.url, a), 400, "challenge_self"),
        (invite(anna, lobby.url, 999_999_999), 404, "invitation_unknown_player"),
        (invite(anna, lobby.url, b, stake=30, rated=False), 400, "challenge_bad_stake"),
        (invite(anna, lobby.url, b, game="bullet", clock="ohne"), 400, "challenge_bad_clock"),
        (invite(anna, lobby.url, b, stake=5000), 400, "challenge_bad_stake"),
        (anna.post(f"{lobby.url}/api/postfach/invitations", json={"to_user_id": b, "game": "schach"}, timeout=10),
         400, None),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        assert response.json()["error"]["message"]
        if code:
            assert response.json()["error"]["code"] == code
    assert postfach(bert, lobby.url)["count"] == 0
    # A stake the inviter does not hold (an account starts with 1000; spend it down to 20).
    with pool.connection() as conn:
        ledger.record(conn, a, -(ledger.balance(pool, a) - 20), "test")
    poor = invite(anna, lobby.url, b, stake=50)
    assert poor.status_code == 400 and poor.json()["error"]["code"] == "challenge_stake_too_high"
    # Bert accepting an invitation with a stake he no longer holds: refused, nothing started.
    ok = invite(bert, lobby.url, a, stake=10).json()["invitation"]
    with pool.connection() as conn:
        ledger.record(conn, a, -15, "test")  # Anna now holds 5
    refused = anna.post(f"{lobby.url}/api/postfach/invitations/{ok['id']}/accept", timeout=10)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "challenge_stake_too_high"
    assert postfach(anna, lobby.url)["invitations"][0]["status"] == "open"


def test_an_invitation_left_too_long_is_no_longer_shown_nor_accepted(lobby, pool) -> None:  # noqa: F811
    anna, bert = guest(lobby.url), guest(lobby.url)
    invitation = invite(anna, lobby.url, bert.user["id"]).json()["invitation"]
    with pool.connection() as conn:
        conn.execute("UPDATE invitations SET updated_at = now() - interval '15 days' WHERE id = %s",
                     (invitation["id"],))
    assert postfach(bert, lobby.url) == {"count": 0, "invitations": [], "notes": []}
    late = bert.post(f"{lobby.url}/api/postfach/invitations/{invitation['id']}/accept", timeout=10)
    assert late.status_code == 409 and late.json()["error"]["code"] == "postfach_closed"
    # Anna may invite him again.
    assert invite(anna, lobby.url, bert.user["id"]).status_code == 201
