"""Bad input: random and malformed payloads to every event name and every HTTP route.

Every Socket.IO event name of the lobby and the game service comes from
``shared.schemas`` (plus names no schema knows); every HTTP route of the three
services comes from Flask's ``url_map`` of the very blueprints the services register
(``route_table``; a test holds that list to the url_map, so a new route is fuzzed
without anyone remembering to).  Socket payloads are kept only if the schema itself
refuses them (``validate_event`` raises), so each one must be answered with an
``error`` event carrying a code and a message, never ``internal_error``; HTTP answers
must be 2xx for reads and 4xx with ``{"error": {"code", "message"}}`` otherwise,
never 5xx.  Afterwards every service answers /healthz with 200, the sockets are still
connected, and the database rows of the two accounts involved, the Taler ledger and
the row counts of every table a player can write to are exactly as before.

The default run sends a deterministic sweep and a short hypothesis run (≈ 10 s);
``test_long_fuzz`` (``make proof``) sends thousands of examples.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import MagicMock
from urllib.parse import urlsplit

import psycopg
import pytest
import requests
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.nginx_router import NginxRouter, nginx_binary
from services.embedded import free_port
from services.oversized_frames import OVERSIZED_PACKET
from shared import i18n
from shared.schemas.lobby_events import CLIENT_EVENTS
from shared.schemas.mechanism import (
    MAX_EVENT_BYTES,
    RECORDS,
    Bool,
    Enum,
    Int,
    Json,
    ListOf,
    Optional,
    ProtocolError,
    Ref,
    Str,
    validate_event,
    validate_record,
)
from shared.schemas.table_events import GAME_CLIENT_EVENTS
from shared.settings import Settings
from shared.socket_errors import TRANSPORT_MAX_BYTES
from tests.lobby_fixtures import SESSION_COOKIE
from tests.proof.test_access import broken_signature, deployed_nginx_sites, forged_for
from tests.stack import Infra, ServiceProcess, SocketProbe

# --- what there is to fuzz ---------------------------------------------------------


@dataclass(frozen=True)
class Route:
    service: str  # "lobby", "game", "rating"
    method: str
    rule: str  # Flask's rule, e.g. /api/players/<int:user_id>
    arguments: tuple[tuple[str, str], ...]  # (name, converter class name)


def _rules(app: Flask, service: str) -> list[Route]:
    routes = []
    for rule in app.url_map.iter_rules():
        converters = tuple(sorted((name, type(conv).__name__) for name, conv in rule._converters.items()))
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            routes.append(Route(service, method, rule.rule, converters))
    return routes


def route_table() -> list[Route]:
    """Every HTTP route of the lobby, the game and the rating service, read from Flask's url_map of
    the blueprints each service registers (built here on stand-ins: only the rules are wanted)."""
    from services.game.http_routes import games_blueprint
    from services.game.solo.review_routes import review_blueprint
    from services.lobby import app as lobby_app
    from services.lobby.account_routes import account_blueprint
    from services.lobby.challenges import register_challenges
    from services.lobby.daily_market_routes import daily_market_blueprint
    from services.lobby.game_page_routes import game_page_blueprint
    from services.lobby.game_result_routes import game_result_blueprint
    from services.lobby.game_ticket import game_ticket_blueprint
    from services.lobby.hanse_puzzle_routes import hanse_puzzle_blueprint
    from services.lobby.mailbox_routes import mailbox_blueprint
    from services.lobby.profile_routes import profile_blueprint
    from services.lobby.puzzle_routes import puzzle_blueprint
    from services.lobby.quick_match import register_quick_match
    from services.lobby.rating_proxy import rating_proxy_blueprint
    from services.lobby.wartesaal import register_wartesaal
    from services.rating.http_routes import rating_blueprint
    from shared.health import health_blueprint

    config = Settings.__new__(Settings)  # never read while the rules are built
    lobby_flask = Flask("lobby", static_folder=None)
    stand_in = SimpleNamespace(app=lobby_flask, socketio=MagicMock(), pool=MagicMock(), redis=MagicMock(),
                               settings=config, log=logging.getLogger("fuzz"), background_tasks=[],
                               broadcast_players=lambda: None, presence=MagicMock())
    lobby_flask.register_blueprint(health_blueprint({}))
    lobby_flask.register_blueprint(account_blueprint(stand_in))
    wartesaal = register_wartesaal(stand_in)
    register_challenges(stand_in, wartesaal)
    register_quick_match(stand_in, wartesaal)
    for bp in (rating_proxy_blueprint(config), game_ticket_blueprint(stand_in), profile_blueprint(stand_in),
               mailbox_blueprint(stand_in), game_page_blueprint(stand_in), daily_market_blueprint(stand_in),
               hanse_puzzle_blueprint(stand_in), puzzle_blueprint(stand_in), game_result_blueprint(stand_in)):
        lobby_flask.register_blueprint(bp)
    lobby_app._serve_client(lobby_flask)

    game = Flask("services.game")  # the game service keeps Flask's /static route
    for bp in (health_blueprint({}), games_blueprint(MagicMock(), MagicMock(), config),
               review_blueprint(MagicMock(), config)):
        game.register_blueprint(bp)

    rating = Flask("services.rating")
    for bp in (health_blueprint({}), rating_blueprint(MagicMock())):
        rating.register_blueprint(bp)
    return _rules(lobby_flask, "lobby") + _rules(game, "game") + _rules(rating, "rating")


# A body that a POST route would act on: such bodies are not sent (they would change
# something by right); everything else must be refused.
BODY_RECORDS = {
    "/api/register": "Credentials",
    "/api/login": "Credentials",
    "/api/postfach/invitations": "InvitationRequest",
    "/api/spiel/<game>/sterne": "StarsBody",
    "/api/handelsaufgaben/<puzzle_id>": "PuzzleAnswerBody",
    "/api/aufgaben/<game>/versuch/<int:attempt_id>": "PuzzleMoveBody",
}
# POST routes that take no input: with a valid session they act by right (a Tagesmarkt
# game starts, a logout ends the attacker's session for the rest of the run), so they are
# fuzzed without one (and must refuse or do nothing) — the others change nothing the
# snapshot looks at: a guest account is new by design, marking an empty Postfach read
# touches no row of the snapshot.
ACTS_WITHOUT_INPUT = {"/api/tagesmarkt/start", "/api/logout"}
NON_API_PATHS = ("/healthz", "/metrics", "/", "/assets/", "/static/")


# --- junk --------------------------------------------------------------------------

NASTY_TEXT = ["", " ", "\x00", "☃" * 50, "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd",
              "%00%ff", "\ud7ff\ufffd", "null", "-1", "9" * 40, "x" * 20_000, "ä" * 301, "{}", "[]"]
HUGE_INTS = [-1, 0, -(2 ** 31), 2 ** 31, 2 ** 63, -(2 ** 63) - 1, 2 ** 70, 10 ** 30]

json_scalars = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 80), max_value=2 ** 80)
                | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40)
                | st.sampled_from(NASTY_TEXT) | st.sampled_from(HUGE_INTS))
json_junk = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=12)


def plausible(kind: Any, ids: list[int]) -> Any:
    """A value of the right type for ``kind`` (ids: other users' things)."""
    if isinstance(kind, Optional):
        return None
    if isinstance(kind, Str):
        return "x" * max(kind.min_length, 1)
    if isinstance(kind, Int):
        return ids[0] if ids else 1
    if isinstance(kind, Bool):
        return True
    if isinstance(kind, Enum):
        return kind.values[0]
    if isinstance(kind, ListOf):
        return []
    if isinstance(kind, Ref):
        return {k: plausible(v, ids) for k, v in RECORDS[kind.name].fields.items()}
    if isinstance(kind, Json):
        return {}
    raise TypeError(kind)


@st.composite
def event_args(draw: st.DrawFn, fields: dict[str, Any], ids: list[int]) -> tuple:
    """The arguments of one event: a plausible payload broken in one or more ways, or junk."""
    how = draw(st.sampled_from(["field", "field", "missing", "extra", "junk", "arity", "huge"]))
    payload = {k: plausible(v, ids) for k, v in fields.items()}
    if how == "junk":
        return (draw(json_junk),)
    if how == "arity":
        return tuple(draw(st.lists(json_junk, max_size=3).filter(lambda a: len(a) != 1)))
    if how == "huge":
        key = draw(st.sampled_from(sorted(fields))) if fields else "x"
        # Up to ~0.6 MB as JSON (ü is sent as \u00fc): below the 1 MB transport limit, above
        # which Engine.IO closes the connection by design (test_oversized_frame_…).
        payload[key] = "ü" * draw(st.integers(8_000, 100_000))
        return (payload,)
    if how == "missing" and fields:
        payload.pop(draw(st.sampled_from(sorted(fields))))
    elif how == "extra":
        payload[draw(st.text(min_size=1, max_size=20))] = draw(json_junk)
    elif fields:
        for key in draw(st.lists(st.sampled_from(sorted(fields)), min_size=1, max_size=len(fields), unique=True)):
            payload[key] = draw(json_junk | st.sampled_from(ids + HUGE_INTS))
    return (payload,)


def refused_by_schema(event: str, args: tuple, events: dict) -> bool:
    try:
        validate_event(event, args, events)
    except ProtocolError:
        return True
    return False


path_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/?#"),
                    min_size=1, max_size=30) | st.sampled_from(["-1", "0", "99999999999999999999", "..", "%2e",
                                                                   "hanse", "<b>x</b>", "☃"])


@st.composite
def http_request(draw: st.DrawFn, route: Route, ids: list[int]) -> dict[str, Any]:
    path = route.rule
    for name, converter in route.arguments:
        if converter == "IntegerConverter":
            value = str(draw(st.sampled_from(ids) | st.integers(0, 2 ** 70)))
        elif converter == "PathConverter":
            value = "/".join(requests.utils.quote(p, safe="") for p in draw(st.lists(path_text, min_size=1,
                                                                                      max_size=3)))
        else:
            value = requests.utils.quote(draw(path_text), safe="")
        path = path.replace(f"<{'int:' if converter == 'IntegerConverter' else ''}"
                            f"{'path:' if converter == 'PathConverter' else ''}{name}>", value)
    body_kind = draw(st.sampled_from(["json", "json", "raw", "none", "huge"]))
    query = draw(st.dictionaries(st.sampled_from(["game", "kind", "lang", "x", "user_id", "limit", "thema", "modus"]),
                                 st.text(max_size=20) | st.sampled_from(NASTY_TEXT[:12]), max_size=3))
    return {"path": path, "body_kind": body_kind, "json": draw(json_junk),
            "raw": draw(st.binary(max_size=200)), "query": query,
            "session": draw(st.sampled_from(["own", "none", "tampered", "other_user_forged"])),
            "lang": draw(st.sampled_from(["de", "en", "xx"]))}


# --- the stack ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def rating_service(infra: Infra, log_dir: Path) -> Iterator[ServiceProcess]:
    service = ServiceProcess("services.rating", infra, "RATING_PORT", log_dir,
                             EVENT_CONSUMER_NAME=f"rating-fuzz-{uuid.uuid4().hex[:6]}").start()
    yield service
    service.stop()


def register(lobby_url: str, prefix: str) -> tuple[dict, str]:
    name = f"{prefix}{uuid.uuid4().hex[:8]}"
    response = requests.post(f"{lobby_url}/api/register", json={"name": name, "password": "geheim-12345"},
                             headers={"X-Forwarded-For": f"fuzz-{uuid.uuid4().hex}"}, timeout=30)
    response.raise_for_status()
    return response.json()["user"], response.cookies[SESSION_COOKIE]


def game_token(lobby_url: str, cookie: str) -> str:
    response = requests.get(f"{lobby_url}/api/game-ticket", cookies={SESSION_COOKIE: cookie}, timeout=10)
    response.raise_for_status()
    return response.json()["token"]


@dataclass
class Arena:
    lobby: ServiceProcess
    game: ServiceProcess
    rating: ServiceProcess
    database_url: str
    attacker: dict
    attacker_cookie: str
    victim: dict
    victim_game_id: int
    victim_invitation_id: int  # from the victim to a third player
    lobby_socket: SocketProbe
    game_socket: SocketProbe

    @property
    def ids(self) -> list[int]:
        """Other people's ids the fuzzer tries (the victim, their table, their invitation)."""
        return [self.victim["id"], self.victim_game_id, self.victim_invitation_id]

    def base(self, service: str) -> str:
        return {"lobby": self.lobby.url, "game": self.game.url, "rating": self.rating.url}[service]


@pytest.fixture(scope="module")
def lobby_with_rating(infra: Infra, log_dir: Path, rating_service: ServiceProcess) -> Iterator[ServiceProcess]:
    """A lobby whose /api/rating/… proxy reaches this module's rating service."""
    service = ServiceProcess("services.lobby", infra, "LOBBY_PORT", log_dir, RATING_URL=rating_service.url,
                             PRESENCE_TTL_SECONDS="2").start()
    yield service
    service.stop()


@pytest.fixture(scope="module")
def arena(lobby_with_rating: ServiceProcess, game_service: ServiceProcess, rating_service: ServiceProcess,
          infra: Infra) -> Iterator[Arena]:
    lobby = lobby_with_rating
    attacker, attacker_cookie = register(lobby.url, "fz")
    victim, victim_cookie = register(lobby.url, "opfer")
    third, _ = register(lobby.url, "dritt")
    sent = requests.post(f"{lobby.url}/api/postfach/invitations", cookies={SESSION_COOKIE: victim_cookie},
                         json={"to_user_id": third["id"], "game": "hexagon", "clock": "5+3", "rated": False,
                               "stake": 0}, timeout=10)
    sent.raise_for_status()
    victim_invitation_id = sent.json()["invitation"]["id"]
    # The victim stays at their table: a table left alone is ended by the leave rule, which
    # would change the snapshot without any fuzz.
    owner = SocketProbe(game_service.url, game_token(lobby.url, victim_cookie), path="game/socket.io").connect()
    owner.emit("table:new_local", {"game": "hexagon", "mode": "same_device", "options": {}})
    victim_game_id = owner.wait_for("table:state")["game_id"]
    lobby_socket = SocketProbe(lobby.url, "", lang="en",  # the lobby reads the cookie; auth carries the language
                               headers={"Cookie": f"{SESSION_COOKIE}={attacker_cookie}"}).connect()
    game_socket = SocketProbe(game_service.url, game_token(lobby.url, attacker_cookie), path="game/socket.io",
                              lang="en").connect()
    yield Arena(lobby, game_service, rating_service, infra.database_url, attacker, attacker_cookie, victim,
                victim_game_id, victim_invitation_id, lobby_socket, game_socket)
    lobby_socket.close()
    game_socket.close()
    owner.close()


# Tables a player can write to, counted whole; the accounts' own rows compared in full.
COUNTED_TABLES = ("games", "invitations", "postfach_notes", "chat_messages", "reviews", "game_stars",
                  "hanse_daily_attempts", "hanse_puzzle_progress", "challenge_starts", "puzzle_player_ratings",
                  "puzzle_ratings")


def snapshot(arena: Arena) -> dict[str, Any]:
    uids = [arena.attacker["id"], arena.victim["id"]]
    with psycopg.connect(arena.database_url) as conn:
        shot: dict[str, Any] = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in COUNTED_TABLES}
        shot["registered"] = conn.execute("SELECT count(*) FROM users WHERE NOT is_guest").fetchone()[0]
        shot["accounts"] = conn.execute("SELECT id, name, password_hash, is_guest FROM users WHERE id = ANY(%s)"
                                        " ORDER BY id", (uids,)).fetchall()
        shot["ledger"] = conn.execute("SELECT user_id, sum(amount), count(*) FROM taler_ledger"
                                      " WHERE user_id = ANY(%s) GROUP BY user_id ORDER BY user_id",
                                      (uids,)).fetchall()
        shot["victim_table"] = conn.execute("SELECT status, moves, result FROM games WHERE id = %s",
                                            (arena.victim_game_id,)).fetchone()
        shot["victim_invitation"] = conn.execute("SELECT status, awaiting_user_id FROM invitations WHERE id = %s",
                                                 (arena.victim_invitation_id,)).fetchone()
    return shot


# --- sending and judging -----------------------------------------------------------


def assert_socket_refusal(probe: SocketProbe, event: str, args: tuple, service: str) -> None:
    probe.emit_raw(event, *args)
    error = probe.wait_for("error", timeout=15)
    assert isinstance(error, dict), error
    code, message = error.get("code"), error.get("message")
    assert isinstance(code, str) and code and isinstance(message, str) and message, (service, event, error)
    assert code != "internal_error", (service, event, args, error)
    template = i18n.TEXTS.get(code, {}).get("en")
    if template:  # asked for English at connect: the English text, parameters filled in
        assert message.startswith(template.split("{")[0]), (service, event, error)


def send_http(arena: Arena, route: Route, req: dict[str, Any]) -> requests.Response:
    cookies = {}
    if req["session"] == "own" and not (route.method == "POST" and route.rule in ACTS_WITHOUT_INPUT):
        cookies[SESSION_COOKIE] = arena.attacker_cookie
    elif req["session"] == "tampered":
        cookies[SESSION_COOKIE] = broken_signature(arena.attacker_cookie)
    elif req["session"] == "other_user_forged":
        # The attacker's token with the victim's id written in: the signature no longer fits.
        cookies[SESSION_COOKIE] = forged_for(arena.attacker_cookie, arena.victim["id"])
    headers = {"X-Lang": req["lang"], "Accept-Language": req["lang"],
               "X-Forwarded-For": f"fuzz-{uuid.uuid4().hex}"}  # the login throttle's address: not shared
    kwargs: dict[str, Any] = {"params": {**req["query"], "lang": req["lang"]}, "headers": headers,
                              "cookies": cookies, "timeout": 30, "allow_redirects": False}
    if route.method == "POST":
        if req["body_kind"] == "json":
            kwargs["json"] = req["json"]
        elif req["body_kind"] == "raw":
            kwargs["data"] = req["raw"]
            headers["Content-Type"] = "application/json"
        elif req["body_kind"] == "huge":
            kwargs["json"] = {"name": "x" * 100_000, "password": "y"}
    return requests.request(route.method, arena.base(route.service) + req["path"], **kwargs)


def acting_body(route: Route, req: dict[str, Any]) -> bool:
    """A POST body the route would act on by right (not fuzz: it is not sent)."""
    record = BODY_RECORDS.get(route.rule)
    if route.method != "POST" or record is None or req["body_kind"] != "json":
        return False
    try:
        validate_record(record, req["json"])
    except ProtocolError:
        return False
    return True


def assert_http_answer(route: Route, req: dict[str, Any], response: requests.Response) -> None:
    where = (route.service, route.method, req["path"][:120], response.status_code, response.text[:300])
    assert response.status_code < 500 or (route.rule == "/" and response.status_code == 503), where
    # The path as sent: the client resolves "../" segments itself (/api/rating/../../0 is /0).
    if not urlsplit(response.request.url).path.startswith("/api/"):
        return
    if route.method == "POST" and response.status_code < 300:
        # Only routes without input may say yes to fuzz: a guest, a logout, an empty Postfach read.
        assert route.rule in ("/api/guest", "/api/logout", "/api/postfach/read"), where
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body["error"]["code"], str) and body["error"]["code"], where
        assert isinstance(body["error"]["message"], str) and body["error"]["message"], where


def assert_all_up(arena: Arena) -> None:
    for service in (arena.lobby, arena.game, arena.rating):
        assert requests.get(service.url + "/healthz", timeout=10).status_code == 200, service.module
    assert arena.lobby_socket.connected and arena.game_socket.connected


def fuzz_everything(arena: Arena, max_examples: int) -> None:
    """Hypothesis over every event and every route, ``max_examples`` per target."""
    fast = settings(max_examples=max_examples, deadline=None, derandomize=max_examples < 50, database=None,
                    suppress_health_check=list(HealthCheck))
    for name in CLIENT_EVENTS:
        fast(_event_fuzzer(arena.lobby_socket, "lobby", name, CLIENT_EVENTS, arena.ids))()
    for name in GAME_CLIENT_EVENTS:
        fast(_event_fuzzer(arena.game_socket, "game", name, GAME_CLIENT_EVENTS, arena.ids))()
    for route in route_table():
        fast(_route_fuzzer(arena, route))()


def _event_fuzzer(probe: SocketProbe, service: str, name: str, events: dict, ids: list[int]):  # noqa: ANN202
    @given(args=event_args(events[name].fields, ids))
    def one_event(args: tuple) -> None:
        if refused_by_schema(name, args, events):
            assert_socket_refusal(probe, name, args, service)

    return one_event


def _route_fuzzer(arena: Arena, route: Route):  # noqa: ANN202
    @given(req=http_request(route, arena.ids))
    def one_request(req: dict[str, Any]) -> None:
        if not acting_body(route, req):
            assert_http_answer(route, req, send_http(arena, route, req))

    return one_request


# --- the tests ---------------------------------------------------------------------


def test_the_fuzzed_routes_are_every_route_the_services_serve() -> None:
    routes = route_table()
    rules = {(r.service, r.method, r.rule) for r in routes}
    # Spot checks that the stand-ins built the real blueprints, one per service and kind.
    assert ("lobby", "POST", "/api/postfach/invitations/<int:invitation_id>/accept") in rules
    assert ("lobby", "GET", "/api/players/<int:user_id>") in rules
    assert ("game", "GET", "/api/games/<int:game_id>/review") in rules
    assert ("rating", "GET", "/api/rating/lists") in rules
    assert ("lobby", "POST", "/api/aufgaben/<game>/versuch/<int:attempt_id>") in rules
    assert ("lobby", "GET", "/api/aufgaben/<game>/daily") in rules
    assert {s for s, _, _ in rules} == {"lobby", "game", "rating"}
    assert len(routes) >= 30
    assert set(BODY_RECORDS) <= {r.rule for r in routes} and ACTS_WITHOUT_INPUT <= {r.rule for r in routes}


def test_every_event_name_answers_malformed_input_with_a_clear_error(arena: Arena) -> None:
    """A deterministic sweep: each event name with each kind of breakage, English asked for."""
    before = snapshot(arena)
    breakages: list[tuple] = [(), (None,), ("text",), (12,), ([],), ({},), ({"x": 1},), ({}, {}),
                              ({"game_id": "1"},), ({"game_id": 2 ** 70, "version": -1},)]
    for service, probe, events in (("lobby", arena.lobby_socket, CLIENT_EVENTS),
                                   ("game", arena.game_socket, GAME_CLIENT_EVENTS)):
        names = [*events, "no:such:event", "ä" * 50, "connect", "disconnect", "error"]
        for name in names:
            fields = events[name].fields if name in events else {}
            cases = [*breakages, *[(payload,) for payload in _one_field_broken(fields, arena.ids)]]
            for args in cases:
                if name not in events or refused_by_schema(name, args, events):
                    assert_socket_refusal(probe, name, args, service)
    assert_all_up(arena)
    assert snapshot(arena) == before


def test_an_oversized_frame_is_refused_and_its_socket_stays_usable(arena: Arena) -> None:
    """Above Engine.IO's transport limit (a 1 MB chat frame, and 100 kB) the sender gets the same
    ``payload_too_large`` as for an event just over MAX_EVENT_BYTES, over a WebSocket and over
    long-polling, and the socket keeps working; the services carry on."""
    assert_oversized_refused(arena, arena.lobby.url, arena.game.url, (1_000_000, 100_000, MAX_EVENT_BYTES + 100))
    assert_all_up(arena)


@pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (make setup installs it)")
def test_behind_nginx_an_oversized_message_is_refused_as_without_it(arena: Arena, tmp_path: Path) -> None:
    """Through the deploy's nginx the same: a long-polling POST over the transport limit (up to 2 MB,
    above nginx's general body limit of 1 MiB) gets ``payload_too_large`` on the socket, which stays
    usable, instead of nginx's own 413 page and a dropped socket."""
    for name, site in deployed_nginx_sites().items():  # compose's nginx and the cluster's router alike
        for path, upstream in (("/socket.io/", "lobby"), ("/game/socket.io/", "game")):
            block = re.search(rf"location {re.escape(path)} {{([^}}]*)}}", site).group(1)
            limit = re.search(r"client_max_body_size (\d+)k;", block)
            assert limit and int(limit.group(1)) * 1024 == TRANSPORT_MAX_BYTES, (name, path)
            redirect = re.search(r"error_page 413 = (@\w+);", block).group(1)
            named = re.search(rf"location {redirect} {{([^}}]*)}}", site).group(1)
            assert f"proxy_set_body '{OVERSIZED_PACKET}';" in named and f"http://{upstream};" in named, (name, path)
    with NginxRouter(free_port(), [arena.lobby.url], [arena.game.url], tmp_path / "nginx") as router:
        assert_oversized_refused(arena, router.url, router.url,
                                 (2_000_000, 1_100_000, TRANSPORT_MAX_BYTES + 1, MAX_EVENT_BYTES + 100))
    assert_all_up(arena)


def test_the_transport_limit_is_twice_the_largest_event_on_both_services(arena: Arena) -> None:
    """Engine.IO's limit is TRANSPORT_MAX_BYTES = 2 × MAX_EVENT_BYTES (16 KiB) on the lobby and the game
    service, over a WebSocket and over long-polling: a message of exactly that size is delivered (its
    event then refused by its schema, naming the event), one byte more is cut by the transport
    (the same error, but for no event)."""
    limit = 2 * MAX_EVENT_BYTES
    assert TRANSPORT_MAX_BYTES == limit == 16 * 1024
    ticket = game_token(arena.lobby.url, arena.attacker_cookie)
    for url, path, token, event, payload in (
            (arena.lobby.url, "socket.io", "", "chat:send", {"text": "x"}),
            (arena.game.url, "game/socket.io", ticket, "table:ping", {"sent_ms": 1})):
        for transport in ("websocket", "polling"):
            probe = SocketProbe(url, token, path=path, lang="en",
                                headers={"Cookie": f"{SESSION_COOKIE}={arena.attacker_cookie}"})
            probe.client.connect(url, socketio_path=path, auth=probe.auth, headers=probe.headers,
                                 transports=[transport], wait_timeout=10)
            try:
                for size, refused_event in ((limit, event), (limit + 1, None)):
                    data = {**payload, "pad": "x" * (size - _message_bytes(event, {**payload, "pad": ""}))}
                    assert _message_bytes(event, data) == size
                    probe.emit(event, data)
                    error = probe.wait_for("error", timeout=15)
                    assert (error["code"], error["event"]) == ("payload_too_large", refused_event), (
                        path, transport, size, error)
                    assert probe.connected
            finally:
                probe.close()


def _message_bytes(event: str, payload: dict[str, Any]) -> int:
    """Bytes of the Engine.IO message that carries ``event`` with ``payload`` (as python-socketio sends it)."""
    from engineio import packet as engineio_packet
    from socketio import packet as socketio_packet

    inner = socketio_packet.Packet(socketio_packet.EVENT, data=[event, payload], namespace="/").encode()
    return len(engineio_packet.Packet(engineio_packet.MESSAGE, data=inner).encode().encode())


def assert_oversized_refused(arena: Arena, lobby_url: str, game_url: str, sizes: tuple[int, ...]) -> None:
    """Each oversized chat (lobby) and table:ping (game) of ``sizes``, over a WebSocket and over
    long-polling, is answered with ``payload_too_large``, and the socket still works after."""
    ticket = game_token(arena.lobby.url, arena.attacker_cookie)
    for url, path, token, event, payload in (
            (lobby_url, "socket.io", "", "chat:send", {"text": "x"}),
            (game_url, "game/socket.io", ticket, "table:ping", {"sent_ms": 1})):
        for transport in ("websocket", "polling"):
            probe = SocketProbe(url, token, path=path, lang="en",
                                headers={"Cookie": f"{SESSION_COOKIE}={arena.attacker_cookie}"})
            probe.client.connect(url, socketio_path=path, auth=probe.auth, headers=probe.headers,
                                 transports=[transport], wait_timeout=10)
            try:
                for size in sizes:
                    probe.emit(event, {**payload, "pad": "x" * size})
                    error = probe.wait_for("error", timeout=15)
                    assert error["code"] == "payload_too_large", (path, transport, size, error)
                    assert error["message"] == i18n.text("payload_too_large", "en", limit=MAX_EVENT_BYTES)
                    assert probe.connected, (path, transport, size)
                # Still usable: a well-formed event is answered as usual.
                if event == "table:ping":
                    probe.emit("table:ping", {"sent_ms": 7})
                    assert probe.wait_for("table:pong", timeout=10)["sent_ms"] == 7
                else:
                    text = f"noch da {uuid.uuid4().hex[:6]}"
                    probe.emit("chat:send", {"text": text})
                    assert probe.wait_for("chat:message", timeout=10,
                                          where=lambda m, t=text: m["message"]["text"] == t)
            finally:
                probe.close()


def _one_field_broken(fields: dict[str, Any], ids: list[int]) -> list[dict]:
    out = []
    for key in fields:
        for junk in ("ü" * 9000, -1, 2 ** 70, None, [1], {"a": {"b": [None]}}, True, "<script>", ""):
            payload = {k: plausible(v, ids) for k, v in fields.items()}
            payload[key] = junk
            out.append(payload)
        out.append({k: plausible(v, ids) for k, v in fields.items() if k != key})
    return out


def test_every_route_answers_bad_requests_with_a_clear_error_in_the_asked_language(arena: Arena) -> None:
    """A deterministic sweep: each route, malformed, once in German and once in English."""
    before = snapshot(arena)
    # Routes with an id: each of the other users' ids (the victim, their table, their invitation).
    for route, target in [(r, i) for r in route_table()
                          for i in (arena.ids if any(c == "IntegerConverter" for _, c in r.arguments)
                                    else arena.ids[:1])]:
        for session in ("own", "none", "tampered", "other_user_forged"):
            texts = {}
            for lang in ("de", "en"):
                req = {"path": _concrete(route, target), "body_kind": "json", "json": {"x": ["<b>", -1]},
                       "raw": b"", "query": {"game": "<b>", "kind": "\x00"}, "session": session, "lang": lang}
                response = send_http(arena, route, req)
                assert_http_answer(route, req, response)
                if response.status_code >= 400 and urlsplit(response.request.url).path.startswith("/api/"):
                    texts[lang] = response.json()["error"]
            if len(texts) == 2:
                assert texts["de"]["code"] == texts["en"]["code"], (route, texts)
                assert texts["de"]["message"] != texts["en"]["message"], (route, session, texts)
    assert_all_up(arena)
    assert snapshot(arena) == before


def test_every_service_takes_its_language_from_the_same_header(arena: Arena) -> None:
    """One error from each service (and the lobby's rating proxy): X-Lang first, then ?lang=,
    then Accept-Language, German by default (``shared.i18n.request_language``)."""
    from services.rating.http_routes import NO_PLAYER

    refusals = [(f"{arena.lobby.url}/api/me", "not_logged_in", i18n.TEXTS["not_logged_in"]),
                (f"{arena.game.url}/api/my-games", "not_logged_in", i18n.TEXTS["not_logged_in"]),
                (f"{arena.rating.url}/api/rating/players/999999999", "unknown_player", NO_PLAYER),
                (f"{arena.lobby.url}/api/rating/players/999999999", "unknown_player", NO_PLAYER)]
    asked = [({"X-Lang": "en"}, {}, "en"), ({}, {}, "de"), ({}, {"lang": "en"}, "en"),
             ({"Accept-Language": "en-GB,en;q=0.8"}, {}, "en"),
             ({"X-Lang": "de", "Accept-Language": "en"}, {"lang": "en"}, "de"), ({"X-Lang": "fr"}, {"lang": "en"}, "en")]
    for url, code, texts in refusals:
        for headers, params, lang in asked:
            error = requests.get(url, headers=headers, params=params, timeout=10).json()["error"]
            assert error == {"code": code, "message": texts[lang]}, (url, headers, params)


def _concrete(route: Route, other_id: int) -> str:
    path = route.rule
    for name, converter in route.arguments:
        value = {"IntegerConverter": str(other_id), "PathConverter": "..%2F..%2Fx/%E2%98%83"}.get(converter, "%3Cb%3E")
        path = path.replace(f"<int:{name}>", value).replace(f"<path:{name}>", value).replace(f"<{name}>", value)
    return path


def test_short_fuzz_of_every_event_and_route(arena: Arena) -> None:
    before = snapshot(arena)
    fuzz_everything(arena, max_examples=3)
    assert_all_up(arena)
    assert snapshot(arena) == before


@pytest.mark.slow
def test_long_fuzz_of_every_event_and_route(arena: Arena) -> None:
    before = snapshot(arena)
    fuzz_everything(arena, max_examples=300)
    assert_all_up(arena)
    assert snapshot(arena) == before


def test_junk_text_is_really_junk() -> None:
    """The fuzzer's own premise: the junk it relies on is refused by the schema."""
    assert refused_by_schema("table:move", ({"game_id": 1, "version": 0, "move": "x" * 201},), GAME_CLIENT_EVENTS)
    assert refused_by_schema("chat:send", ({"text": "ü" * 9000},), CLIENT_EVENTS)
    assert not refused_by_schema("chat:send", ({"text": "hallo"},), CLIENT_EVENTS)
