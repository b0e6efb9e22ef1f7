"""The game service's socket refuses what it must: strangers, other sites, malformed events."""

from __future__ import annotations

import uuid

import pytest
import socketio

from shared import auth_token
from shared.schemas.mechanism import MAX_EVENT_BYTES
from tests.stack import TEST_SECRET, SocketProbe

GAME_PATH = "game/socket.io"


def _token(uid: int = 7, name: str = "clara", secret: str = TEST_SECRET) -> str:
    return auth_token.issue(uid, name, secret)


@pytest.mark.parametrize(
    "token",
    [None, _token(secret="another-secret"), _token() + "x"],
    ids=["no-token", "wrong-secret", "tampered"],
)
def test_connect_without_a_valid_token_is_refused(game_service, token) -> None:
    probe = SocketProbe(game_service.url, token, GAME_PATH)
    with pytest.raises(socketio.exceptions.ConnectionError):
        probe.connect(timeout=5)
    assert not probe.connected


def test_connect_from_a_foreign_origin_is_refused(game_service) -> None:
    probe = SocketProbe(game_service.url, _token(), GAME_PATH, headers={"Origin": "http://evil.example"})
    with pytest.raises(socketio.exceptions.ConnectionError):
        probe.connect(timeout=5)


# (description, event name, arguments, expected error code)
BAD_EVENTS = [
    ("unknown event", "launch_missiles", ({"x": 1},), "unknown_event"),
    ("no argument", "ping_worker", (), "bad_payload"),
    ("two arguments", "ping_worker", ({"nonce": "a"}, {"nonce": "b"}), "bad_payload"),
    ("string instead of object", "ping_worker", ("hallo",), "bad_payload"),
    ("list instead of object", "ping_worker", ([1, 2],), "bad_payload"),
    ("null", "ping_worker", (None,), "bad_payload"),
    ("missing field", "ping_worker", ({},), "missing_field"),
    ("extra field", "ping_worker", ({"nonce": "a", "admin": True},), "unexpected_field"),
    ("number instead of string", "ping_worker", ({"nonce": 42},), "wrong_type"),
    ("bool instead of string", "ping_worker", ({"nonce": True},), "wrong_type"),
    ("nested object", "ping_worker", ({"nonce": {"$gt": ""}},), "wrong_type"),
    ("string too long", "ping_worker", ({"nonce": "n" * 65},), "too_long"),
    ("huge payload", "ping_worker", ({"nonce": "n" * (MAX_EVENT_BYTES * 12)},), "payload_too_large"),
]


def test_malformed_events_get_a_german_error_change_nothing_and_keep_the_socket(game_service, ai_worker) -> None:
    with SocketProbe(game_service.url, _token(), GAME_PATH) as probe:
        for description, event, args, code in BAD_EVENTS:
            probe.emit_raw(event, *args)
            error = probe.wait_for("error", timeout=5)
            assert error["code"] == code, description
            assert isinstance(error["message"], str) and error["message"], description
            assert probe.connected, description
        # Nothing was sent to a worker for any refused event.
        assert [name for name, _ in probe.drain(quiet=1.0)] == []
        # ... and the socket still works for a well-formed one.
        nonce = uuid.uuid4().hex
        probe.emit("ping_worker", {"nonce": nonce})
        assert probe.wait_for("pong_worker", timeout=20)["nonce"] == nonce


def test_error_messages_are_german_by_default_and_english_on_request(game_service) -> None:
    with SocketProbe(game_service.url, _token(), GAME_PATH) as german:
        german.emit("ping_worker", {})
        assert german.wait_for("error")["message"] == "Das Feld „nonce“ fehlt."
    with SocketProbe(game_service.url, _token(), GAME_PATH, lang="en") as english:
        english.emit("ping_worker", {})
        assert english.wait_for("error")["message"] == "The field “nonce” is missing."
