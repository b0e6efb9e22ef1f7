"""Load over real sockets: bots chat, challenge and play all four games, with each other and the computer.

``python -m bench.load [--processes 2] [--steps 4,8,16] [--step-seconds 40] [--compare]`` prints JSON.

The whole system runs as in production, on this machine: embedded PostgreSQL and
Redis, N lobby and N game processes behind the deploy's own nginx (``deploy/nginx.conf``
through ``bench.nginx_router``), the rating service and one Celery worker.  Every bot is an account
registered over HTTP (``POST /api/register``; guests play no staked game) with
python-socketio clients through the router: the Wartesaal socket (chat, challenges) and,
as in the browser, a game socket per table it plays with the table's id in the URL (token
from ``/api/game-ticket``), so nginx puts both players of a game on one game process.
A *game slot* is either two bots that
meet in the Wartesaal — one says something in the chat, challenges the other to a
rated game with a small stake, the other accepts — or one bot that opens a table
against the computer (Leicht, on the Celery worker).  Slots take the four games in
turn.  The player to move thinks 0.3–1.0 s (at random, so games do not move in
lockstep), then sends a random legal move from its own view (Battlegeneral: a preset
setup, then attacks preferred; Battlehanse: the countdown of the round pause runs by
itself).  A finished game is followed by the next one in the same slot.

A *ramp* runs steps of growing numbers of concurrent game slots, ``--step-seconds``
each, and reports per step: the move round trip (emit → the mover's table state
with the move, p50/p99 ms), messages per second received by all bots, the number of
sockets, memory per connection (RSS growth of the lobby and game processes over the
step's sockets), errors (error events, unrequested disconnects, moves unanswered
within 15 s, failed starts) and how many games ended.  The *sustained* number of
concurrent games is the largest step with 0 errors and p99 below ``--p99-limit-ms``.
At the end every bot resigns what it still plays, and the Taler ledger is checked:
every rated game with a stake is settled exactly once and the ledger's sum equals
the start capital of all accounts (stakes escrowed and paid once).  ``--compare``
runs the same ramp with one process each and with two, and prints both.

The bots run in this process (threads of python-socketio's client) on the same
machine: on a 2-core machine they take CPU from the servers, so read the figures as
what this machine holds with its own load generator beside it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import requests
import socketio

GAMES = ("hexagon", "bullet", "general", "hanse")
GAME_PATH = "game/socket.io"
SESSION_COOKIE = "sc_session"
THINK_S = (0.3, 1.0)
MOVE_TIMEOUT_S = 15.0
STAKE = 10
GAME_OPTIONS = {"hanse": {"seals_to_win": 1}, "bullet": {"move_limit": 100}}


# ---- figures -------------------------------------------------------------------------

@dataclass
class Figures:
    """What every bot adds to during one step; a lock, because bots are threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    round_trips_ms: list[float] = field(default_factory=list)
    received: int = 0
    errors: list[str] = field(default_factory=list)
    games_started: int = 0
    games_ended: int = 0
    game_ids: set[int] = field(default_factory=set)
    started_kinds: dict[str, int] = field(default_factory=dict)  # "hexagon" / "hexagon:computer" → games

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)

    def message(self) -> None:
        with self.lock:
            self.received += 1


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


# ---- one bot ---------------------------------------------------------------------------

class Bot:
    """An account with a Wartesaal socket and, as in the browser, a game socket per table it plays."""

    def __init__(self, base_url: str, figures: Figures) -> None:
        self.base_url = base_url
        self.figures = figures
        self.http = requests.Session()
        self.http.headers["X-Lang"] = "de"
        # An account, not a guest: the bots stake Taler, and guests hold none.
        answer = self.http.post(f"{base_url}/api/register", json={"name": f"bot{uuid.uuid4().hex[:12]}",
                                                                   "password": "bot-passwort"}, timeout=30)
        answer.raise_for_status()
        self.user = answer.json()["user"]
        self.changed = threading.Condition()
        self.lobby_events: list[tuple[str, Any]] = []
        self.states: dict[int, dict] = {}
        self.new_tables: list[int] = []
        self.closing = False
        self.lobby = socketio.Client(reconnection=False)
        self.lobby.on("*", self._on_lobby)
        self.lobby.on("disconnect", lambda *a: self._lost("lobby", *a))
        cookie = self.http.cookies.get(SESSION_COOKIE)
        self.lobby.connect(base_url, headers={"Cookie": f"{SESSION_COOKIE}={cookie}"}, auth={"lang": "de"},
                           transports=["websocket"], wait_timeout=15)
        self.token = self.http.get(f"{base_url}/api/game-ticket", timeout=15).json()["token"]
        # The game socket of the table the bot plays, opened per table as the browser does.
        self.game: socketio.Client | None = None
        self.game_table: int | None = None

    def _game_socket(self, table: str) -> socketio.Client:
        """A game socket with ``table`` in its URL (the deploy's nginx routes it by that)."""
        client = socketio.Client(reconnection=False)
        client.on("*", self._on_game)
        client.on("disconnect", lambda *a: self._lost("game", *a) if client is self.game else None)
        client.connect(f"{self.base_url}/?table={table}", socketio_path=GAME_PATH,
                       auth={"token": self.token, "lang": "de"}, transports=["websocket"], wait_timeout=15)
        return client

    def sit(self, game_id: int) -> None:
        """Open the socket of table ``game_id`` (closing the one before) and join it."""
        if self.game_table != game_id or self.game is None or not self.game.connected:
            old, self.game = self.game, None
            if old is not None and old.connected:
                threading.Thread(target=old.disconnect, daemon=True).start()
            self.game, self.game_table = self._game_socket(str(game_id)), game_id
        self.game.emit("table:join", {"game_id": game_id})

    def new_local(self, payload: dict[str, Any]) -> int:
        """Open a table against the computer on a socket of its own; the new table's id."""
        with self.changed:
            known = len(self.new_tables)
        opener = self._game_socket(f"new-{uuid.uuid4().hex[:8]}")
        try:
            opener.emit("table:new_local", payload)
            deadline = time.monotonic() + 15
            with self.changed:
                while len(self.new_tables) == known:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise TimeoutError("no table against the computer")
                    self.changed.wait(left)
                return self.new_tables[known]
        finally:
            threading.Thread(target=opener.disconnect, daemon=True).start()

    @property
    def id(self) -> int:
        return int(self.user["id"])

    def _lost(self, which: str, reason: object = None) -> None:
        if not self.closing:
            # python-socketio names why: the server's doing, a ping timeout, the transport
            self.figures.error(f"{which} socket of bot {self.id} disconnected ({reason})")

    def _on_lobby(self, event: str, *args: Any) -> None:
        self.figures.message()
        with self.changed:
            self.lobby_events.append((event, args[0] if len(args) == 1 else args))
            if len(self.lobby_events) > 200:  # player lists arrive often; keep only the recent past
                del self.lobby_events[:100]
            self.changed.notify_all()

    def _on_game(self, event: str, *args: Any) -> None:
        self.figures.message()
        data = args[0] if len(args) == 1 else args
        with self.changed:
            if event == "table:state":
                known = self.states.get(data["game_id"])
                if known is None:
                    self.new_tables.append(data["game_id"])
                if known is None or data["version"] >= known["version"]:
                    self.states[data["game_id"]] = data
            elif event == "error":
                code = data.get("code") if isinstance(data, dict) else data
                # A move that crossed the opponent's or the countdown's is refused as stale: part of the game.
                if code not in ("stale_version", "not_your_turn", "table_finished"):
                    self.figures.error(f"error {code} to bot {self.id}")
            self.changed.notify_all()

    def wait_lobby(self, event: str, where: Any = lambda d: True, timeout: float = 15) -> Any:
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for name, data in self.lobby_events:
                    if name == event and where(data):
                        return data
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"bot {self.id}: no {event}")
                self.changed.wait(left)

    def wait_state(self, game_id: int, where: Any, timeout: float = MOVE_TIMEOUT_S) -> dict:
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                state = self.states.get(game_id)
                if state is not None and where(state):
                    return state
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"bot {self.id}: table {game_id} did not change")
                self.changed.wait(left)

    def sockets(self) -> int:
        return int(self.lobby.connected) + int(self.game is not None and self.game.connected)

    def close(self) -> None:
        self.closing = True
        for client in (self.lobby, self.game):
            if client is not None and client.connected:
                threading.Thread(target=client.disconnect, daemon=True).start()


# ---- playing ---------------------------------------------------------------------------

def my_legal_moves(state: dict) -> list[dict]:
    if state["status"] != "running" or state["you"] is None:
        return []
    return [m for m in state["view"].get("legal_moves", []) if isinstance(m, dict)]


def choose(state: dict, rng: random.Random) -> str | None:
    """The bot's next move in its own view, or None while it is not its turn."""
    moves = my_legal_moves(state)
    if not moves:
        return None
    view = state["view"]
    if state["game"] == "hanse" and view.get("phase") == "pause":
        # In the Wartesaal the countdown ends the round pause; at a local table "weiter" does.
        return "weiter" if state.get("mode") != "wartesaal" and moves else None
    if state["game"] == "general" and view.get("phase") == "setup":
        from shared.games.general.setups import STANDARD_SETUPS

        setup = view["setup"]
        if len(setup["own"]) < 40:
            return f"aufstellung {rng.choice(STANDARD_SETUPS)}"
        return "fertig" if any(m["text"] == "fertig" for m in moves) else None
    if state["game"] == "general":
        attacks = [m["text"] for m in moves if (m.get("effect") or {}).get("attack")]
        if attacks and rng.random() < 0.9:
            return rng.choice(attacks)
    return rng.choice(moves)["text"]


def play(bots: list[Bot], game_id: int, rng: random.Random, stop: threading.Event, figures: Figures) -> bool:
    """Both seats' bots (one bot against the computer) move until the game ends; True if it ended."""
    sent: dict[int, int] = {}
    while not stop.is_set():
        for bot in bots:
            state = bot.states.get(game_id)
            if state is None:
                continue
            if state["status"] != "running":
                return True
            text = choose(state, rng)
            if text is None or sent.get(bot.id) == state["version"]:
                continue
            time.sleep(rng.uniform(*THINK_S))
            if stop.is_set():
                return False
            sent[bot.id] = state["version"]
            started = time.monotonic()
            if bot.game is None:
                continue
            bot.game.emit("table:move", {"game_id": game_id, "version": state["version"], "move": text})
            try:
                bot.wait_state(game_id, lambda s, v=state["version"]: s["version"] > v or s["status"] != "running")
            except TimeoutError:
                figures.error(f"move {text!r} at table {game_id} unanswered")
                return False
            with figures.lock:
                figures.round_trips_ms.append((time.monotonic() - started) * 1000)
        with bots[0].changed:
            bots[0].changed.wait(0.05)
    return False


def resign_open(bots: list[Bot], game_id: int) -> None:
    for bot in bots:
        state = bot.states.get(game_id)
        if state is not None and state["status"] == "running" and state["you"] is not None and bot.game is not None:
            bot.game.emit("table:resign", {"game_id": game_id})
            return


def challenge(challenger: Bot, challenged: Bot, game: str, figures: Figures) -> int:
    """Chat, challenge to a rated game with a stake, accept; the started game's id."""
    challenger.lobby.emit("chat:send", {"text": f"Wer spielt {game}?"})
    challenger.lobby.emit("challenge:create", {"to_user_id": challenged.id, "game": game})
    mine = challenged.wait_lobby("challenge:update", lambda d: d["challenge"]["challenger"]["user_id"] == challenger.id
                                 and d["challenge"]["status"] == "open")["challenge"]
    settings = {**mine["settings"], "rated": True, "stake": STAKE, "options": GAME_OPTIONS.get(game, {})}
    challenged.lobby.emit("challenge:propose", {"challenge_id": mine["id"], "settings": settings})
    challenger.wait_lobby("challenge:update", lambda d: d["challenge"]["id"] == mine["id"]
                          and d["challenge"]["version"] == mine["version"] + 1)
    challenger.lobby.emit("challenge:accept", {"challenge_id": mine["id"], "version": mine["version"] + 1})
    started = challenged.wait_lobby("challenge:started", lambda d: d["challenge_id"] == mine["id"])
    return int(started["game_id"])


def computer_table(bot: Bot, game: str) -> int:
    game_id = bot.new_local({"game": game, "mode": "computer", "options": GAME_OPTIONS.get(game, {}),
                             "strength": "leicht", "seat": 0, "clock": None})
    bot.sit(game_id)
    return game_id


def run_slot(bots: list[Bot], games: Iterator[str], seed: int, stop: threading.Event, figures: Figures) -> None:
    """One game slot: games one after another until ``stop``; the last one is resigned."""
    rng = random.Random(seed)
    while not stop.is_set():
        game = next(games)
        try:
            if len(bots) == 2:
                game_id = challenge(bots[0], bots[1], game, figures)
                for bot in bots:
                    bot.sit(game_id)
            else:
                game_id = computer_table(bots[0], game)
        except Exception as exc:  # noqa: BLE001 - every failure is a counted error, the run goes on
            figures.error(f"start of {game} failed: {exc!r}")
            return
        with figures.lock:
            figures.games_started += 1
            figures.game_ids.add(game_id)
            kind = game if len(bots) == 2 else f"{game}:computer"
            figures.started_kinds[kind] = figures.started_kinds.get(kind, 0) + 1
        ended = play(bots, game_id, rng, stop, figures)
        if ended:
            with figures.lock:
                figures.games_ended += 1
            bots = bots[::-1] if len(bots) == 2 else bots  # the other one challenges next time
        else:
            resign_open(bots, game_id)
            for bot in bots:
                try:
                    bot.wait_state(game_id, lambda s: s["status"] != "running", timeout=MOVE_TIMEOUT_S)
                except TimeoutError:
                    figures.error(f"resignation at table {game_id} unanswered")
            return


# ---- a ramp over a running system ------------------------------------------------------

def rss_bytes(pids: list[int]) -> int:
    return sum(psutil.Process(pid).memory_info().rss for pid in pids)


def run_step(base_url: str, slots: int, seconds: float, server_pids: list[int], seed: int,
             computer_every: int = 5) -> tuple[dict, set[int]]:
    """``slots`` concurrent game slots for ``seconds``; every ``computer_every``-th plays the computer."""
    figures = Figures()
    rss_before = rss_bytes(server_pids)
    started = time.monotonic()
    bots_by_slot: list[list[Bot]] = []
    for slot in range(slots):
        against_computer = computer_every and slot % computer_every == computer_every - 1
        try:
            bots_by_slot.append([Bot(base_url, figures) for _ in range(1 if against_computer else 2)])
        except Exception as exc:  # noqa: BLE001
            figures.error(f"bot could not connect: {exc!r}")
    sockets = sum(b.sockets() for bots in bots_by_slot for b in bots)
    # Give the servers a moment to settle (player lists), then measure the memory the sockets hold.
    time.sleep(1.0)
    rss_connected = rss_bytes(server_pids)
    connect_s = time.monotonic() - started
    stop = threading.Event()
    threads = []
    for i, bots in enumerate(bots_by_slot):
        # Slots take the four games in turn, each slot starting at a different one.
        games = itertools.islice(itertools.cycle(GAMES), i % len(GAMES), None)
        thread = threading.Thread(target=run_slot, args=(bots, games, seed * 1000 + i, stop, figures), daemon=True)
        threads.append(thread)
    with figures.lock:
        figures.received = 0
    measured_from = time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    received, elapsed = figures.received, time.monotonic() - measured_from
    stop.set()
    for thread in threads:
        thread.join(MOVE_TIMEOUT_S * 2 + 5)
    for bots in bots_by_slot:
        for bot in bots:
            bot.close()
    played = {g for g in figures.game_ids}
    return {
        "slots": slots,
        "bots": sum(len(b) for b in bots_by_slot),
        "sockets": sockets,
        "connect_seconds": round(connect_s, 1),
        "moves": len(figures.round_trips_ms),
        "round_trip_ms": {"p50": percentile(figures.round_trips_ms, 0.5),
                          "p99": percentile(figures.round_trips_ms, 0.99),
                          "mean": round(statistics.fmean(figures.round_trips_ms), 1) if figures.round_trips_ms
                          else None},
        "messages_per_second": round(received / elapsed, 1),
        "moves_per_second": round(len(figures.round_trips_ms) / elapsed, 1),
        "memory_per_connection_kb": round((rss_connected - rss_before) / max(sockets, 1) / 1024, 1),
        "games_started": figures.games_started,
        "games_ended": figures.games_ended,
        "games_by_kind": dict(sorted(figures.started_kinds.items())),
        "errors": len(figures.errors),
        "error_samples": figures.errors[:5],
    }, played


def ledger_check(database_url: str, game_ids: set[int], timeout: float = 60) -> dict:
    """Every rated game settled exactly once, every stake escrowed once and paid out once, and the
    ledger balances: the sum of all entries plus the stakes held by running games is exactly the
    start capital of all accounts.  Over every game of the database (this system's own), so a game
    whose start a bot never heard of is checked too; ``game_ids`` are the games the bots played."""
    import psycopg
    from psycopg.rows import dict_row

    from shared import ledger

    deadline = time.monotonic() + timeout
    with psycopg.connect(database_url, row_factory=dict_row, autocommit=True) as conn:
        while True:
            rows = conn.execute(
                "SELECT g.id, g.status, g.rated, g.stake,"
                " (SELECT count(*) FROM rated_games r WHERE r.game_id = g.id) AS settled,"
                " (SELECT count(*) FROM taler_ledger l WHERE l.ref = 'game:' || g.id AND l.reason = 'stake') AS stakes,"
                " (SELECT count(*) FROM taler_ledger l WHERE l.ref = 'game:' || g.id AND l.reason <> 'stake') AS paid,"
                " (SELECT COALESCE(sum(amount), 0) FROM taler_ledger l WHERE l.ref = 'game:' || g.id) AS total"
                " FROM games g WHERE g.rated").fetchall()
            finished = [r for r in rows if r["status"] == "finished"]
            unsettled = [r["id"] for r in finished if r["settled"] != 1 or r["total"] != 0]
            if not unsettled or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        starts = conn.execute("SELECT count(*) AS n FROM taler_ledger WHERE reason = 'start'").fetchone()["n"]
        total = conn.execute("SELECT COALESCE(sum(amount), 0) AS s FROM taler_ledger").fetchone()["s"]
    staked = [r for r in rows if r["stake"]]
    held = -sum(int(r["total"]) for r in staked if r["status"] == "running")
    return {
        "rated_games": len([r for r in rows if r["id"] in game_ids]),
        "still_running": sorted(r["id"] for r in rows if r["id"] in game_ids and r["status"] == "running"),
        "running_elsewhere": sorted(r["id"] for r in rows if r["id"] not in game_ids and r["status"] == "running"),
        "unsettled_or_twice": unsettled,
        "stakes_escrowed_twice_each": all(r["stakes"] == 2 for r in staked),
        "paid_once": all(r["paid"] in (1, 2) for r in staked if r["status"] == "finished"),
        "held_by_running_games": held,
        "ledger_balances": int(total) + held == int(starts) * ledger.START_BALANCE,
    }


# ---- the system under load -------------------------------------------------------------

@dataclass
class LoadStack:
    base_url: str
    database_url: str
    infra: Any  # tests.stack.Infra: the fault tests restart its Redis and PostgreSQL
    lobbies: list[Any]  # tests.stack.ServiceProcess
    games: list[Any]
    rating: Any
    worker: Any  # tests.stack.CeleryWorker

    @property
    def server_pids(self) -> list[int]:
        """The Socket.IO processes whose memory the sockets cost."""
        return [s.process.pid for s in (*self.lobbies, *self.games)]


@contextmanager
def load_stack(processes: int, tmp: Path) -> Iterator[LoadStack]:
    """PostgreSQL, Redis, ``processes`` lobby and game processes behind the deploy's nginx
    (``bench.nginx_router``), rating, one worker."""
    from bench.nginx_router import NginxRouter
    from services.embedded import free_port
    from tests.stack import CeleryWorker, ServiceProcess, start_infra

    infra = start_infra(tmp / "infra")
    logs = tmp / "logs"
    started: list[Any] = []
    stack = nginx = None
    try:
        router_port = free_port()
        common = {"PUBLIC_URL": f"http://127.0.0.1:{router_port}", "GAME_URL": f"http://127.0.0.1:{router_port}",
                  "LOG_LEVEL": "WARNING"}
        lobbies = [ServiceProcess("services.lobby", infra, "LOBBY_PORT", logs, **common) for _ in range(processes)]
        games = [ServiceProcess("services.game", infra, "GAME_PORT", logs, **common) for _ in range(processes)]
        rating = ServiceProcess("services.rating", infra, "RATING_PORT", logs, LOG_LEVEL="WARNING",
                                EVENT_CONSUMER_NAME=f"rating-{uuid.uuid4().hex[:6]}")
        for service in (*lobbies, *games, rating):
            started.append(service.start(timeout=120))
        worker = CeleryWorker(infra, logs, queues="interactive", concurrency=1).start(timeout=120)
        started.append(worker)
        nginx = NginxRouter(router_port, [s.url for s in lobbies], [s.url for s in games], tmp / "nginx").start()
        stack = LoadStack(nginx.url, infra.database_url, infra, lobbies, games, rating, worker)
        yield stack
    finally:
        if nginx is not None:
            nginx.stop()
        if stack is not None and stack.worker not in started:
            started.append(stack.worker)  # a fault test put a new worker in place of the one it killed
        for service in started:  # all at once: each stop() waits for its process to end
            if service.process is not None and service.process.poll() is None:
                service.process.terminate()
        for service in reversed(started):
            service.stop()
        infra.stop()


def ramp(stack: LoadStack, steps: list[int], seconds: float, p99_limit_ms: float, seed: int,
         computer_every: int = 5) -> dict:
    results = []
    game_ids: set[int] = set()
    for i, slots in enumerate(steps):
        step, played = run_step(stack.base_url, slots, seconds, stack.server_pids, seed + i, computer_every)
        results.append(step)
        game_ids |= played
    sustained = max((s["slots"] for s in results
                     if s["errors"] == 0 and s["round_trip_ms"]["p99"] is not None
                     and s["round_trip_ms"]["p99"] <= p99_limit_ms), default=0)
    return {"steps": results, "sustained_concurrent_games": sustained,
            "ledger": ledger_check(stack.database_url, game_ids)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--processes", type=int, default=2, help="lobby and game processes each")
    parser.add_argument("--steps", default="4,8,16,24", help="concurrent game slots per ramp step")
    parser.add_argument("--step-seconds", type=float, default=40)
    parser.add_argument("--p99-limit-ms", type=float, default=500)
    parser.add_argument("--compare", action="store_true", help="run the ramp with 1 and with 2 processes each")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    out: dict[str, Any] = {"step_seconds": args.step_seconds, "p99_limit_ms": args.p99_limit_ms,
                           "cpus": psutil.cpu_count(), "load_average_before": [round(x, 2) for x in psutil.getloadavg()]}
    for processes in ([1, 2] if args.compare else [args.processes]):
        with tempfile.TemporaryDirectory(prefix="spielcenter-load-") as tmp, load_stack(processes, Path(tmp)) as stack:
            out[f"processes_{processes}"] = ramp(stack, steps, args.step_seconds, args.p99_limit_ms, args.seed)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
