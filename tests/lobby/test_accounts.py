"""Accounts against a real lobby, PostgreSQL and Redis: guests, registration, login, ledger."""

from __future__ import annotations

import uuid
from pathlib import Path

import psycopg
import pytest
import requests

from shared import login_throttle
from tests.lobby_fixtures import SESSION_COOKIE, WartesaalClient, guest, registered
from tests.stack import wait_until


def unique_name(prefix: str = "Spieler") -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def post(session: requests.Session, url: str, **body: object) -> requests.Response:
    return session.post(url, json=body, timeout=10)


def ledger_rows(infra, user_id: int) -> list[tuple]:  # noqa: ANN001
    with psycopg.connect(infra.database_url) as conn:
        return conn.execute(
            "SELECT amount, reason FROM taler_ledger WHERE user_id = %s ORDER BY id", (user_id,)
        ).fetchall()


def test_guest_gets_a_unique_gast_name_an_httponly_cookie_and_no_taler(lobby, infra):  # noqa: F811
    first, second = guest(lobby.url), guest(lobby.url)
    assert first.user["name"].startswith("Gast-") and first.user["name"][5:].isdigit()
    assert first.user["name"] != second.user["name"]
    assert first.user["guest"] is True and first.user["balance"] == 0
    assert ledger_rows(infra, first.user["id"]) == []  # a guest costs a request: it creates no Taler
    raw = requests.post(f"{lobby.url}/api/guest", timeout=10).headers["Set-Cookie"]
    assert raw.startswith(f"{SESSION_COOKIE}=") and "HttpOnly" in raw and "SameSite=Lax" in raw
    assert first.get(f"{lobby.url}/api/me", timeout=10).json()["user"]["id"] == first.user["id"]


def test_guest_who_registers_keeps_id_and_gets_the_start_credit_once(lobby, infra):  # noqa: F811
    session = guest(lobby.url)
    guest_id = session.user["id"]
    name = unique_name("Jörg_")
    response = post(session, f"{lobby.url}/api/register", name=name, password="geheim1234")
    assert response.status_code == 200, response.text
    user = response.json()["user"]
    assert user == {"id": guest_id, "name": name, "guest": False, "balance": 1000}
    assert ledger_rows(infra, guest_id) == [(1000, "start")]
    with psycopg.connect(infra.database_url) as conn:
        stored = conn.execute("SELECT password_hash FROM users WHERE id = %s", (guest_id,)).fetchone()[0]
    assert stored.startswith("$argon2id$") and "geheim1234" not in stored

    # Registering again from a registered session is refused.
    again = post(session, f"{lobby.url}/api/register", name=unique_name(), password="geheim1234")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_registered"
    # Once per account, whatever the code does: the database refuses a second start credit.
    with psycopg.connect(infra.database_url) as conn, pytest.raises(psycopg.errors.UniqueViolation):
        conn.execute("INSERT INTO taler_ledger (user_id, amount, reason, ref) VALUES (%s, 1000, 'start', 'account')",
                     (guest_id,))
    assert ledger_rows(infra, guest_id) == [(1000, "start")]


def test_register_without_guest_session_creates_account(lobby, infra):  # noqa: F811
    response = post(requests.Session(), f"{lobby.url}/api/register", name=unique_name(), password="geheim1234")
    assert response.status_code == 201
    assert ledger_rows(infra, response.json()["user"]["id"]) == [(1000, "start")]


@pytest.mark.parametrize(
    ("name", "code", "german", "english"),
    [
        ("ab", "name_too_short", "mindestens 3 Zeichen", "at least 3 characters"),
        ("a" * 21, "name_too_long", "höchstens 20 Zeichen", "at most 20 characters"),
        ("Hans Wurst", "name_bad_characters", "Buchstaben (auch Umlaute), Ziffern", "letters (umlauts too), digits"),
        ("Hans!", "name_bad_characters", "nur Buchstaben", "only letters"),
        ("Αnna", "name_bad_characters", "nur Buchstaben", "only letters"),  # Greek capital alpha
        ("Ива́н", "name_bad_characters", "nur Buchstaben", "only letters"),
        ("Spieler😀", "name_bad_characters", "nur Buchstaben", "only letters"),
        ("gast-12", "name_reserved", "für Gäste reserviert", "reserved for guests"),
    ],
)
def test_name_rules_have_clear_messages_in_both_languages(lobby, name, code, german, english):  # noqa: F811
    for lang, expected in (("de", german), ("en", english)):
        response = requests.post(
            f"{lobby.url}/api/register", json={"name": name, "password": "geheim1234"}, headers={"X-Lang": lang}
        )
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["code"] == code and expected in error["message"], error


def test_names_are_unique_regardless_of_case_and_umlauts_are_letters(lobby):  # noqa: F811
    base = f"Ärger{uuid.uuid4().hex[:6]}"
    assert post(requests.Session(), f"{lobby.url}/api/register", name=base, password="geheim1234").status_code == 201
    taken = post(requests.Session(), f"{lobby.url}/api/register", name=base.upper(), password="geheim1234")
    assert taken.status_code == 409
    assert taken.json()["error"] == {
        "code": "name_taken",
        "message": f"Der Name „{base.upper()}“ ist schon vergeben (Groß-/Kleinschreibung zählt nicht).",
    }
    lower = post(requests.Session(), f"{lobby.url}/api/register", name=base.lower(), password="geheim1234")
    assert lower.status_code == 409


def test_short_password_refused(lobby):  # noqa: F811
    response = post(requests.Session(), f"{lobby.url}/api/register", name=unique_name(), password="kurz")
    assert response.status_code == 400 and response.json()["error"]["code"] == "password_too_short"


def test_login_logout_and_wrong_password(lobby):  # noqa: F811
    name = unique_name()
    registered = post(requests.Session(), f"{lobby.url}/api/register", name=name, password="richtig123")
    user_id = registered.json()["user"]["id"]

    session = requests.Session()
    wrong = post(session, f"{lobby.url}/api/login", name=name, password="falsch1234")
    assert wrong.status_code == 401
    assert wrong.json()["error"] == {"code": "login_failed", "message": "Name oder Passwort ist falsch."}
    assert SESSION_COOKIE not in session.cookies

    ok = post(session, f"{lobby.url}/api/login", name=name.upper(), password="richtig123")  # any case
    assert ok.status_code == 200 and ok.json()["user"]["id"] == user_id
    assert session.get(f"{lobby.url}/api/me", timeout=10).json()["user"]["name"] == name
    socket = WartesaalClient(lobby.url, session)
    try:
        assert socket.wait_for("welcome")["user"]["id"] == user_id
    finally:
        socket.close()

    assert post(session, f"{lobby.url}/api/logout").status_code == 200
    me = session.get(f"{lobby.url}/api/me", timeout=10)
    assert me.status_code == 401 and me.json()["error"]["code"] == "not_logged_in"


def test_unknown_name_and_guest_names_cannot_log_in(lobby):  # noqa: F811
    session = guest(lobby.url)
    assert post(requests.Session(), f"{lobby.url}/api/login", name=unique_name(), password="x" * 10).status_code == 401
    # A guest has no password: its name is not a login.
    name = session.user["name"]
    assert post(requests.Session(), f"{lobby.url}/api/login", name=name, password="").status_code == 401


def test_failed_logins_from_one_address_make_it_wait_longer_each_time(lobby):  # noqa: F811
    name = unique_name()
    home = {"X-Forwarded-For": f"10.9.{uuid.uuid4().int % 250}.1"}
    assert requests.post(f"{lobby.url}/api/register", json={"name": name, "password": "richtig123"}, headers=home,
                         timeout=30).status_code == 201
    session = requests.Session()
    session.headers.update({"X-Forwarded-For": f"10.8.{uuid.uuid4().int % 250}.2", "X-Lang": "en"})
    for _ in range(login_throttle.FREE_PER_NAME_AND_ADDRESS):
        assert post(session, f"{lobby.url}/api/login", name=name, password="falsch1234").status_code == 401
    waits = []
    for _ in range(3):
        blocked = post(session, f"{lobby.url}/api/login", name=name, password="richtig123")
        assert blocked.status_code == 429  # even with the right password, until the delay is over
        error = blocked.json()["error"]
        assert error["code"] == "login_wait" and "Too many failed attempts" in error["message"], error
        waits.append(int(error["message"].split("wait ")[1].split()[0]))
        wait_until(lambda: post(session, f"{lobby.url}/api/login", name=name, password="falsch1234").status_code
                   == 401, waits[-1] + 5, "the delay never ended", interval=0.25)
    assert waits == sorted(waits) and waits[-1] > waits[0], waits  # 1, 2, 4 … seconds
    # Meanwhile the owner at home logs in at once, and another name from that address is not held up.
    home_session = requests.Session()
    home_session.headers.update(home)
    assert post(home_session, f"{lobby.url}/api/login", name=name, password="richtig123").status_code == 200
    other = unique_name()
    post(requests.Session(), f"{lobby.url}/api/register", name=other, password="richtig123")
    assert post(session, f"{lobby.url}/api/login", name=other, password="richtig123").status_code == 200


def test_a_burst_of_guesses_sent_at_once_gets_no_more_tries_than_one_by_one(lobby):  # noqa: F811
    """Checking a password takes a while (argon2): guesses fired together must not all pass the
    throttle before the first failure is counted.  Of a burst from one address at one name, only
    the free attempts are checked; the others wait like the next guess after them would."""
    from concurrent.futures import ThreadPoolExecutor

    name = unique_name()
    assert requests.post(f"{lobby.url}/api/register", json={"name": name, "password": "richtig123"},
                         headers={"X-Forwarded-For": f"10.7.{uuid.uuid4().int % 250}.1"}, timeout=30).status_code == 201
    stranger = {"X-Forwarded-For": f"10.6.{uuid.uuid4().int % 250}.2"}

    def guess(i: int) -> int:
        return requests.post(f"{lobby.url}/api/login", json={"name": name, "password": f"falsch{i:04d}"},
                             headers=stranger, timeout=60).status_code

    with ThreadPoolExecutor(max_workers=12) as threads:
        answers = list(threads.map(guess, range(12)))
    assert sorted(answers) == [401] * login_throttle.FREE_PER_NAME_AND_ADDRESS + [429] * (
        12 - login_throttle.FREE_PER_NAME_AND_ADDRESS), answers


def test_login_delays_double_up_to_a_cap() -> None:
    free = login_throttle.FREE_PER_NAME_AND_ADDRESS
    delays = [login_throttle.delay_after(n, free) for n in range(free + 15)]
    assert delays[:free] == [0.0] * free and delays[free:free + 4] == [1.0, 2.0, 4.0, 8.0]
    assert delays == sorted(delays) and max(delays) == login_throttle.MAX_DELAY_SECONDS


def test_unauthenticated_socket_is_refused(lobby):  # noqa: F811
    import socketio

    client = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(lobby.url, transports=["websocket"], wait_timeout=5)
    forged = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        forged.connect(
            lobby.url, headers={"Cookie": f"{SESSION_COOKIE}=eyJ1aWQiOjF9.forged.sig"}, transports=["websocket"],
            wait_timeout=5,
        )


def test_ledger_rows_cannot_be_rewritten(lobby, infra):  # noqa: F811
    user_id = registered(lobby.url).user["id"]
    with psycopg.connect(infra.database_url) as conn:
        with pytest.raises(psycopg.errors.RaiseException):
            conn.execute("UPDATE taler_ledger SET amount = 5000 WHERE user_id = %s", (user_id,))
    with psycopg.connect(infra.database_url) as conn:
        with pytest.raises(psycopg.errors.RaiseException):
            conn.execute("DELETE FROM taler_ledger WHERE user_id = %s", (user_id,))
    assert ledger_rows(infra, user_id) == [(1000, "start")]


@pytest.mark.parametrize(
    "body",
    [b"{not json", b"[1, 2]", b'"text"', b'{"name": 5, "password": "x"}', b'{"name": "abc"}', b""],
)
def test_bad_json_bodies_get_400_with_a_message(lobby, body):  # noqa: F811
    response = requests.post(
        f"{lobby.url}/api/login", data=body, headers={"Content-Type": "application/json"}, timeout=10
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] in {"bad_json", "wrong_type", "missing_field"} and error["message"]


def test_api_errors_are_json_for_unknown_routes_wrong_methods_and_huge_bodies(lobby):  # noqa: F811
    unknown = requests.post(f"{lobby.url}/api/nothing", json={}, timeout=10)
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_route"
    wrong_method = requests.get(f"{lobby.url}/api/login", timeout=10)
    assert wrong_method.status_code == 405 and wrong_method.json()["error"]["code"] == "unknown_route"
    huge = requests.post(f"{lobby.url}/api/login", json={"name": "x" * 200_000, "password": "y"}, timeout=10)
    assert huge.status_code == 413
    assert huge.json()["error"]["code"] == "payload_too_large" and "Byte" in huge.json()["error"]["message"]


def test_failed_logins_from_one_address_are_throttled_across_names(lobby):  # noqa: F811
    # Behind nginx the address comes from the last X-Forwarded-For entry.
    address = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.7"
    attacker = requests.Session()
    attacker.headers["X-Forwarded-For"] = f"1.2.3.4, {address}"
    for _ in range(login_throttle.FREE_PER_ADDRESS):
        assert post(attacker, f"{lobby.url}/api/login", name=unique_name(), password="rate1234").status_code == 401
    assert post(attacker, f"{lobby.url}/api/login", name=unique_name(), password="rate1234").status_code == 429
    other = requests.Session()
    other.headers["X-Forwarded-For"] = f"10.250.{uuid.uuid4().int % 250}.250"
    assert post(other, f"{lobby.url}/api/login", name=unique_name(), password="rate1234").status_code == 401


def test_names_are_stored_composed_so_decomposed_umlauts_match(lobby):  # noqa: F811
    suffix = uuid.uuid4().hex[:6]
    decomposed, composed = f"Mu\u0308ller{suffix}", f"M\u00fcller{suffix}"
    created = post(requests.Session(), f"{lobby.url}/api/register", name=f" {decomposed} ", password="geheim1234")
    assert created.status_code == 201 and created.json()["user"]["name"] == composed
    assert post(requests.Session(), f"{lobby.url}/api/register", name=composed, password="geheim1234").status_code == 409
    assert post(requests.Session(), f"{lobby.url}/api/login", name=composed, password="geheim1234").status_code == 200
    assert post(requests.Session(), f"{lobby.url}/api/login", name=decomposed, password="geheim1234").status_code == 200


def test_guests_from_before_hand_back_their_taler_and_get_the_start_credit_when_they_register(lobby, infra):  # noqa: F811
    """Migration 0017 on a guest made while guests got 1,000 Taler (and won some): all of it goes
    back; registering then books the account's start credit like anyone's."""
    session = guest(lobby.url)
    guest_id = session.user["id"]
    migration = (Path(__file__).resolve().parents[2] / "shared" / "migrations" / "0017_guests_hold_no_taler.sql")
    reset = migration.read_text(encoding="utf-8").split(";")[1]  # the statement after the index
    with psycopg.connect(infra.database_url) as conn:
        conn.execute("INSERT INTO taler_ledger (user_id, amount, reason) VALUES (%s, 1000, 'start'),"
                     " (%s, 40, 'pot')", (guest_id, guest_id))
        conn.execute(reset)
    assert sum(amount for amount, _ in ledger_rows(infra, guest_id)) == 0
    assert ledger_rows(infra, guest_id)[-1] == (-1040, "guest_reset")
    response = post(session, f"{lobby.url}/api/register", name=unique_name(), password="geheim1234")
    assert response.status_code == 200 and response.json()["user"]["balance"] == 1000
