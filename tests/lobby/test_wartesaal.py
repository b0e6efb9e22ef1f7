"""The Wartesaal over real sockets: malformed input, chat rate limit, history, protocol conformance."""

from __future__ import annotations

import time

import psycopg
import pytest

from shared.schemas.server_events import validate_server_event
from tests.lobby_fixtures import WartesaalClient, guest


def chat_count(infra) -> int:  # noqa: ANN001
    with psycopg.connect(infra.database_url) as conn:
        return conn.execute("SELECT count(*) FROM chat_messages").fetchone()[0]


def next_error(client: WartesaalClient, before: int, timeout: float = 5) -> dict:
    """The first ``error`` event after the first ``before`` ones."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        errors = client.received("error")
        if len(errors) > before:
            assert len(errors) == before + 1, errors[before:]
            return errors[before]
        time.sleep(0.02)
    raise AssertionError("no error event")


# (event, payload as python-socketio's emit takes it: None = no argument, tuple = several) → code
BATTERY = [
    ("chat:send", None, "bad_payload"),
    ("chat:send", "Hallo", "bad_payload"),
    ("chat:send", 42, "bad_payload"),
    ("chat:send", [{"text": "Hallo"}], "bad_payload"),
    ("chat:send", ({"text": "a"}, {"text": "b"}), "bad_payload"),
    ("chat:send", b"\x00\x01binary", "bad_payload"),
    ("chat:send", {}, "missing_field"),
    ("chat:send", {"txt": "Hallo"}, "unexpected_field"),
    ("chat:send", {"text": "Hallo", "admin": True}, "unexpected_field"),
    ("chat:send", {"text": 5}, "wrong_type"),
    ("chat:send", {"text": None}, "wrong_type"),
    ("chat:send", {"text": True}, "wrong_type"),
    ("chat:send", {"text": ["Hallo"]}, "wrong_type"),
    ("chat:send", {"text": {"$gt": ""}}, "wrong_type"),
    ("chat:send", {"text": "x" * 301}, "too_long"),
    ("chat:send", {"text": "   \n\t "}, "chat_empty"),
    ("chat:send", {"text": "\x00\x07"}, "chat_empty"),
    ("chat:send", {"text": "x" * 500_000}, "payload_too_large"),
    ("chat:send", {"text": "a", "pad": ["y" * 1000] * 20}, "payload_too_large"),
    ("lang:set", {"lang": "fr"}, "not_allowed_value"),
    ("lang:set", {"lang": 1}, "wrong_type"),
    ("lang:set", "en", "bad_payload"),
    ("nonsense", {"a": 1}, "unknown_event"),
    ("welcome", {"user": {}}, "unknown_event"),
    ("players", None, "unknown_event"),
    ("x" * 5000, {"text": "Hallo"}, "unknown_event"),
]


def test_malformed_events_get_a_german_error_change_nothing_and_keep_the_connection(lobby, infra):  # noqa: F811
    client = WartesaalClient(lobby.url, guest(lobby.url))
    try:
        client.wait_for("welcome")
        messages_before = chat_count(infra)
        for i, (event, payload, code) in enumerate(BATTERY):
            client.emit(event, payload) if payload is not None else client.sio.emit(event)
            error = next_error(client, i)
            assert error["code"] == code, (event, payload if len(str(payload)) < 200 else "...", error)
            assert error["message"] and "{" not in error["message"], error  # filled-in German text
            validate_server_event("error", error)
        assert chat_count(infra) == messages_before
        assert client.sio.connected
        # Still fully usable afterwards.
        client.emit("chat:send", {"text": "Ich bin noch da"})
        got = client.wait_for("chat:message", lambda p: p["message"]["text"] == "Ich bin noch da")
        validate_server_event("chat:message", got)
    finally:
        client.close()


def test_error_texts_follow_the_chosen_language(lobby):  # noqa: F811
    client = WartesaalClient(lobby.url, guest(lobby.url), lang="en")
    try:
        client.wait_for("welcome")
        client.emit("chat:send", {})
        assert next_error(client, 0)["message"] == "The field “text” is missing."
        client.emit("lang:set", {"lang": "de"})
        client.emit("chat:send", {})
        assert next_error(client, 1)["message"] == "Das Feld „text“ fehlt."
    finally:
        client.close()


def test_chat_is_rate_limited_per_user_across_tabs(lobby):  # noqa: F811
    session = guest(lobby.url)
    tab_a, tab_b = WartesaalClient(lobby.url, session), WartesaalClient(lobby.url, session)
    try:
        tab_a.wait_for("welcome")
        tab_b.wait_for("welcome")
        for i in range(5):
            (tab_a if i % 2 else tab_b).emit("chat:send", {"text": f"Nachricht {i}"})
            tab_a.wait_for("chat:message", lambda p, i=i: p["message"]["text"] == f"Nachricht {i}")
        tab_a.emit("chat:send", {"text": "eine zu viel"})
        error = next_error(tab_a, 0)
        assert error == {
            "code": "chat_rate_limited",
            "message": "Zu viele Nachrichten: höchstens 5 in 10 Sekunden. Bitte warte einen Moment.",
            "event": "chat:send",
        }
        tab_b.emit("chat:send", {"text": "auch zu viel"})
        assert next_error(tab_b, 0)["code"] == "chat_rate_limited"
        # A chat:message of either refused send would have been queued to tab_a before its refusal;
        # an answer to tab_a sent after both refusals therefore arrives after any such message.
        tab_a.emit("chat:send", {})
        assert next_error(tab_a, 1)["code"] == "missing_field"
        assert not [p for p in tab_a.received("chat:message") if p["message"]["text"] in ("eine zu viel", "auch zu viel")]
    finally:
        tab_a.close()
        tab_b.close()


def test_new_arrival_sees_the_last_50_messages_in_order(lobby, infra):  # noqa: F811
    writer = guest(lobby.url).user
    texts = [f"Verlauf {i:02d}" for i in range(55)]
    with psycopg.connect(infra.database_url) as conn:
        for text in texts:
            conn.execute(
                "INSERT INTO chat_messages (user_id, name, body) VALUES (%s, %s, %s)", (writer["id"], writer["name"], text)
            )
    client = WartesaalClient(lobby.url, guest(lobby.url))
    try:
        welcome = client.wait_for("welcome")
        validate_server_event("welcome", welcome)
        assert [m["text"] for m in welcome["history"]] == texts[5:]
        assert all(m["name"] == writer["name"] for m in welcome["history"])
    finally:
        client.close()


@pytest.mark.parametrize("text", ["<script>alert(1)</script>", "Grüße aus Köln – 😀", "a" * 300])
def test_chat_text_is_stored_and_sent_exactly(lobby, text):  # noqa: F811
    client = WartesaalClient(lobby.url, guest(lobby.url))
    try:
        client.wait_for("welcome")
        # Outer blanks are trimmed (the 300-character limit counts what was sent).
        client.emit("chat:send", {"text": f"  {text}  " if len(text) <= 296 else text})
        assert client.wait_for("chat:message", lambda p: p["message"]["text"] == text)
    finally:
        client.close()
