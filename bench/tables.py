"""Concurrent games over real sockets: the game service next to a bare Flask-SocketIO echo server.

``python -m bench.tables [--games N] [--seconds S] [--game-processes P] [--router nginx]
[--routing table|client] [--echo-processes E] [--echo-unrouted] [--floor] [--busy B] [--profile PREFIX]``
prints JSON.

N Battlehexagon games between 2·N scripted clients (Socket.IO over WebSocket, all on
one asyncio loop in this process: see ``Player``) run for S seconds against each server in turn.  The player to move waits
a think time drawn at random between 0.5 and 1.5 s (fixed delays would make all
games move in lockstep bursts), then sends a random legal move from its own view.
A move's round trip is the time from sending it to the *opponent* receiving the
table state with the move in it (both clients live in this process, so one clock
measures both ends).  Reported per server: p50/p99 round trip, moves per second,
errors (refusals, disconnects, moves unanswered at the end), and the ratios of the
game service to the echo server, which are the figures to watch.  Beside them, the
CPU time each side spent per move (``cpu_ms_per_move``: the server process, for the
game service also PostgreSQL's and Redis's processes, and this process's scripted
clients, which decode every state they receive), read from the
kernel's per-process counters over the measured window: unlike the round trips it
hardly depends on what else the machine is doing.

The echo server is started by this benchmark (``--echo-server``): Flask-SocketIO on
gevent like the game service, with the same garbage-collector settings
(``services.game.app.tune_collector``), no message queue, no rules, no database; it
answers ``table:move`` by sending a small ``table:state`` to both players of the
game.  The game service runs for real: embedded PostgreSQL and Redis, the Redis
message queue, the engine, a row lock and a write per move.  The clients run in
this process on the same machine, so on a small machine their CPU competes with
the servers': compare the ratios, not the absolute figures, and run on an idle
machine.

With ``--game-processes P`` the benchmark starts P game-service processes on the same
PostgreSQL and Redis (the Redis message queue joins them, as in production), and both
clients of game *i* connect to process ``i % P``: routing by table, every move stays in
one process.  ``--routing client`` instead sends each client to a process of its own
drawing (as the deploy's nginx ``ip_hash`` does by address: the two players of a table
often sit on different processes, and every such move reaches the opponent through
Redis; the echo server's processes share nothing, so it always routes by table).
``--router nginx`` puts real nginx with the deploy's own routing (``deploy/nginx.conf``:
``hash $arg_table consistent``, see ``bench.nginx_router``) in front of the P game
processes, and another in front of P echo processes (``--echo-processes`` defaults to P
then), and every client connects through nginx only, with its table's id in the URL as
the browser sends it; ``cpu_ms_per_move["router"]`` is nginx's share.
``--echo-processes E`` does the same for the echo server (both players of a game sit
on the same one).  ``--echo-unrouted`` gives the echo server the game service's one
change to Flask itself (``services.socketio_flask``: Socket.IO events are not matched
against the URL map, which left a reference cycle per event in a bare Flask app); by
default the echo server is a bare Flask app, the baseline the issue names.  ``cpu_ms_per_move["server"]`` sums over all processes of
that server.  ``cpu_ratio`` is the game service's CPU per move with its PostgreSQL and Redis
over the echo server's.

``--floor`` runs a third server between the two: the echo server that also appends each
move to its table's row in PostgreSQL (one UPDATE, autocommit) and sends Redis one command
(``echo_store``); ``floor_cpu_ratio`` is its CPU per move with PostgreSQL and Redis over the
bare echo's: what storing each move costs before any rule, view or clock.

``--busy B`` keeps B other processes spinning on the CPU through all runs: the round-trip
ratios on a machine that has other work to do, where a server that spends more CPU per
move queues sooner.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and "--echo-server" in sys.argv:
    from gevent import monkey

    monkey.patch_all()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

GAME_PATH = "game/socket.io"
THINK_S = (0.5, 1.5)


# ---- the bare echo server -------------------------------------------------------------

def echo_server(port: int, unrouted: bool, store: bool = False) -> None:
    """Flask-SocketIO on gevent: table:join puts the socket on a seat, table:move is echoed to both.

    ``store`` (``--floor``): after echoing, each move is also appended to its table's row in
    PostgreSQL by one UPDATE (autocommit: one round trip, one transaction) and told to Redis
    by one command, as the least any server must do that keeps PostgreSQL the judge of every
    move and lets Redis tell the other processes; the database is the one in
    ``DATABASE_URL``, Redis the one in ``REDIS_URL``."""
    from flask import Flask, request
    from flask_socketio import SocketIO, emit, join_room

    from services import gevent_start
    from services.game.app import tune_collector
    from services.socketio_flask import SocketIOFlask

    app = SocketIOFlask("echo", socketio_path=GAME_PATH) if unrouted else Flask("echo")
    socketio = SocketIO(app, async_mode="gevent", path=GAME_PATH, cors_allowed_origins="*")
    seated: dict[int, int] = {}
    stored = _EchoStore(os.environ["DATABASE_URL"], os.environ["REDIS_URL"]) if store else None

    @app.get("/healthz")
    def healthz() -> dict:
        return {"ok": True}

    @socketio.on("table:join")
    def join(data: dict) -> None:
        game_id = data["game_id"]
        you = seated.get(game_id, 0)
        seated[game_id] = you + 1
        join_room(f"game:{game_id}")
        if stored is not None:
            stored.seat(game_id)
        emit("table:state", {"game_id": game_id, "version": 0, "you": you, "to_move": 0}, to=request.sid)

    @socketio.on("table:move")
    def move(data: dict) -> None:
        version = data["version"] + 1
        emit("table:state", {"game_id": data["game_id"], "version": version, "to_move": version % 2,
                             "move": data["move"]}, to=f"game:{data['game_id']}")
        if stored is not None:
            stored.move(data["game_id"], data["move"], version)

    tune_collector()
    gevent_start.serve(app, "127.0.0.1", port)


class _EchoStore:
    """The echo server's writes with ``--floor``: a row per table, one UPDATE and one Redis command per move."""

    def __init__(self, database_url: str, redis_url: str) -> None:
        import redis
        from psycopg_pool import ConnectionPool

        self.pool = ConnectionPool(database_url, min_size=4, max_size=20, kwargs={"autocommit": True})
        self.redis = redis.Redis.from_url(redis_url)
        with self.pool.connection() as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS bench_echo_moves (game_id integer PRIMARY KEY,"
                         " moves text[] NOT NULL DEFAULT '{}', version integer NOT NULL DEFAULT 0)")

    def seat(self, game_id: int) -> None:
        with self.pool.connection() as conn:
            conn.execute("INSERT INTO bench_echo_moves (game_id) VALUES (%s) ON CONFLICT DO NOTHING", (game_id,))

    def move(self, game_id: int, text: str, version: int) -> None:
        with self.pool.connection() as conn:
            conn.execute("UPDATE bench_echo_moves SET moves = array_append(moves, %s::text), version = %s"
                         " WHERE game_id = %s RETURNING xmin::text::bigint", (text, version, game_id)).fetchall()
        self.redis.execute_command("PUBSUB", "NUMSUB", f"bench-echo:{game_id}")


# ---- the scripted clients -------------------------------------------------------------

@dataclass
class Tally:
    # game → (mover's seat, version after the move, send time): one move in flight per game
    sent_at: dict[int, tuple[int | None, int, float]] = field(default_factory=dict)
    round_trips_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    measuring: bool = False


class Player:
    """One scripted client speaking Socket.IO (Engine.IO 4, WebSocket transport) itself,
    all of them on one asyncio loop; ``echo`` clients know whose turn it is from the version alone.

    The wire is the browser client's: ``0`` open, ``40{auth}`` connect, ``42[event, data]``
    events, ``2``/``3`` ping and pong.  A client of this kind costs a fraction of the CPU
    of python-socketio's threaded client (two threads per socket, each waking for every
    frame and queueing for the GIL behind the others), which on a small machine took a
    core's share away from the servers under test and stamped the arrival of a state only
    once its thread got the GIL back."""

    def __init__(self, url: str, token: str, game_id: int, tally: Tally, rng: random.Random, echo: bool) -> None:
        # The table in the URL, as the browser sends it: nginx routes the socket by it (deploy/nginx.conf).
        self.url = (url.replace("http://", "ws://", 1).rstrip("/")
                    + f"/{GAME_PATH}/?table={game_id}&EIO=4&transport=websocket")
        self.token, self.game_id = token, game_id
        self.tally, self.rng, self.echo = tally, rng, echo
        self.you: int | None = None
        self.version = -1
        self.ws: Any = None
        self.closing = False
        self.reader: asyncio.Task | None = None

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(self.url, compression=None, max_size=None, ping_interval=None, open_timeout=30)
        opened = await self.ws.recv()
        if not opened.startswith("0"):
            raise RuntimeError(f"no Engine.IO open packet: {opened[:80]!r}")
        await self.ws.send("40" + json.dumps({"token": self.token, "lang": "de"}))
        while True:
            answer = await self.ws.recv()
            if answer.startswith("40"):
                break
            if answer.startswith("44"):
                raise RuntimeError(f"connection refused: {answer[:200]}")
            if answer == "2":
                await self.ws.send("3")
        await self.ws.send("42" + json.dumps(["table:join", {"game_id": self.game_id}]))
        self.reader = asyncio.get_running_loop().create_task(self.read())

    async def read(self) -> None:
        import orjson
        from websockets.exceptions import ConnectionClosed

        try:
            async for frame in self.ws:
                if frame.startswith("42"):
                    event, data = orjson.loads(frame[2:])[:2]
                    if event == "table:state":
                        self.on_state(data, time.perf_counter())
                    elif event == "error" and self.tally.measuring:
                        self.tally.errors.append(str(data.get("code") if isinstance(data, dict) else data))
                elif frame == "2":
                    await self.ws.send("3")
                elif frame.startswith("41") and self.tally.measuring:
                    self.tally.errors.append("disconnect")
        except ConnectionClosed:
            pass
        if self.tally.measuring and not self.closing:
            self.tally.errors.append("disconnect")

    def on_state(self, data: dict, now: float) -> None:
        if data["version"] <= self.version:
            return
        self.version = data["version"]
        if self.you is None:
            self.you = data["you"]
        # Only the opponent's arrival counts: the mover hears its own move first.  A move
        # that ends the game arrives with the version after the ending.
        sent = self.tally.sent_at.get(self.game_id)
        if sent is not None and sent[0] != self.you and data["version"] >= sent[1]:
            del self.tally.sent_at[self.game_id]
            if self.tally.measuring:
                self.tally.round_trips_ms.append((now - sent[2]) * 1000)
        if self.echo:
            my_turn = data["to_move"] == self.you
            moves = ["x"]
        else:
            if data["status"] != "running":
                return
            view = data["view"]
            my_turn = view.get("to_move") == self.you
            moves = [m["text"] for m in view.get("legal_moves", [])]
        if my_turn and moves:
            version, text = data["version"], self.rng.choice(moves)
            asyncio.get_running_loop().call_later(self.rng.uniform(*THINK_S), self.send, version, text)

    def send(self, version: int, text: str) -> None:
        if version != self.version or self.closing:
            return
        self.tally.sent_at[self.game_id] = (self.you, version + 1, time.perf_counter())
        frame = "42" + json.dumps(["table:move", {"game_id": self.game_id, "version": version, "move": text}])
        asyncio.get_running_loop().create_task(self.ws.send(frame))

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time the processes ``pids`` have used so far (gone ones count 0)."""
    import psutil

    total = 0.0
    for pid in pids:
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def processes_under(path: Path) -> list[int]:
    """The embedded PostgreSQL and Redis of this run (their command lines name ``path``) and their children."""
    import psutil

    pids: list[int] = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        try:
            if any(str(path) in part for part in proc.info["cmdline"] or ()):
                pids.append(proc.pid)
                pids.extend(child.pid for child in proc.children(recursive=True))
        except psutil.Error:
            continue
    return sorted(set(pids))


def run_games(urls: list[str], pairs: list[tuple[int, str, str]], seconds: float, echo: bool,
              by_client: bool = False,
              cpu_groups: dict[str, Callable[[], list[int]]] | None = None,
              on_measuring: Callable[[], None] = lambda: None,
              server_times: Callable[[], dict[float, float]] | None = None) -> dict[str, Any]:
    """Play every (game_id, token0, token1) pair for ``seconds``, the i-th pair's clients on
    ``urls[i % len(urls)]`` (``by_client``: each client on a url drawn for it); the round-trip figures, and
    the CPU time per move of each group of server processes in ``cpu_groups``.
    ``on_measuring`` runs as the measured window opens.  ``server_times()`` (the game
    service's ``spielcenter_game_move_seconds`` histogram: upper bound → cumulative count, summed
    over its processes) is read at both ends of the window: the server's own share of
    the round trip, from the validated event to the published state."""
    return asyncio.run(_run_games(urls, pairs, seconds, echo, by_client, cpu_groups or {}, on_measuring,
                                  server_times))


async def _run_games(urls: list[str], pairs: list[tuple[int, str, str]], seconds: float, echo: bool,
                     by_client: bool, cpu_groups: dict[str, Callable[[], list[int]]],
                     on_measuring: Callable[[], None],
                     server_times: Callable[[], dict[float, float]] | None) -> dict[str, Any]:
    from services.game.app import tune_collector

    tally, rng = Tally(), random.Random(1)
    route = random.Random(2)
    players = [Player(route.choice(urls) if by_client else urls[i % len(urls)], tok, gid, tally,
                      random.Random(rng.random()), echo)
               for i, (gid, t0, t1) in enumerate(pairs) for tok in (t0, t1)]
    connect_errors = 0
    gate = asyncio.Semaphore(50)  # connections opened at once

    async def connect(player: Player) -> None:
        nonlocal connect_errors
        async with gate:
            try:
                await player.connect()
            except Exception as exc:
                connect_errors += 1
                print(f"connect failed: {exc!r}", file=sys.stderr)

    await asyncio.gather(*(connect(player) for player in players))
    # The clients' own collector pauses would stall every socket of this loop at once and
    # show in both servers' p99 alike: the servers' settings here too.
    tune_collector()
    await asyncio.sleep(3)  # everyone seated, the first think times running
    groups = {name: pids() for name, pids in cpu_groups.items()}
    cpu_before = {name: cpu_seconds(pids) for name, pids in groups.items()}
    times_before = await asyncio.to_thread(server_times) if server_times else {}
    tally.round_trips_ms.clear()
    tally.measuring = True
    started = time.perf_counter()
    on_measuring()
    await asyncio.sleep(seconds)
    tally.measuring = False
    elapsed = time.perf_counter() - started
    moves = len(tally.round_trips_ms)
    cpu_ms = {name: round((cpu_seconds(pids) - cpu_before[name]) * 1000 / max(1, moves), 3)
              for name, pids in groups.items()}
    times_after = await asyncio.to_thread(server_times) if server_times else {}
    await asyncio.sleep(2)  # moves still in flight are not errors yet
    late = {game: (version, sent) for game, (_seat, version, sent) in tally.sent_at.items()
            if time.perf_counter() - sent > 2}
    for game_id, (version, sent) in late.items():
        print(f"unanswered: game {game_id} version {version} sent {time.perf_counter() - sent:.1f} s ago",
              file=sys.stderr)
    unanswered = len(late)
    await asyncio.gather(*(player.close() for player in players), return_exceptions=True)
    return {
        "clients": len(players), "connect_errors": connect_errors, "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "p50_ms": round(statistics.median(tally.round_trips_ms), 2) if moves else None,
        "p99_ms": round(percentile(tally.round_trips_ms, 0.99), 2) if moves else None,
        "max_ms": round(max(tally.round_trips_ms), 2) if moves else None,
        "errors": len(tally.errors) + unanswered + connect_errors,
        "error_codes": sorted(set(tally.errors)),
        "cpu_ms_per_move": cpu_ms,
        **({"server_move_ms": histogram_quantiles(times_before, times_after)} if server_times else {}),
    }


def move_seconds(urls: list[str]) -> dict[float, float]:
    """The game service's ``spielcenter_game_move_seconds`` buckets (upper bound → cumulative count) over ``urls``."""
    import requests

    buckets: dict[float, float] = {}
    for url in urls:
        for line in requests.get(url + "/metrics", timeout=5).text.splitlines():
            if line.startswith("spielcenter_game_move_seconds_bucket{"):
                le = line.split('le="', 1)[1].split('"', 1)[0]
                bound = float("inf") if le == "+Inf" else float(le)
                buckets[bound] = buckets.get(bound, 0.0) + float(line.rsplit(" ", 1)[1])
    return buckets


def histogram_quantiles(before: dict[float, float], after: dict[float, float]) -> dict[str, str]:
    """p50 and p99 of the moves counted between two readings, as the histogram bucket
    they fall in (e.g. "1-2.5": between 1 and 2.5 ms)."""
    bounds = sorted(after)
    counts = [after[b] - before.get(b, 0.0) for b in bounds]
    total = counts[-1] if counts else 0.0
    out = {}
    for name, q in (("p50", 0.5), ("p99", 0.99)):
        lower = 0.0
        for bound, count in zip(bounds, counts, strict=True):
            if total and count >= q * total:
                out[name] = f"{lower * 1000:g}-{bound * 1000:g}"
                break
            lower = bound
    return out


def stored_cpu(run: dict[str, Any]) -> float:
    """A run's CPU ms per move in the server and the PostgreSQL and Redis it stores in."""
    cpu = run["cpu_ms_per_move"]
    return cpu["server"] + cpu.get("postgres_redis", 0.0)


def router_cpu(routers: list[Any]) -> dict[str, Callable[[], list[int]]]:
    """nginx's processes as a CPU group of their own (none without a router)."""
    if not routers:
        return {}
    router = routers[-1]
    return {"router": lambda: router.pids}


def wait_healthy(url: str, process: subprocess.Popen, timeout: float = 30) -> None:
    import requests

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("echo server exited")
        try:
            if requests.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError("echo server not healthy")


def run_echo(args: argparse.Namespace, tmp: Path, routers: list[Any], store: bool,
             env: dict[str, str] | None = None, infra: Callable[[], list[int]] | None = None) -> dict[str, Any]:
    """The echo server's run: ``args.echo_processes`` processes (behind nginx with ``--router
    nginx``), with ``store`` the echo that also stores each move (``--floor``)."""
    from bench.nginx_router import NginxRouter
    from services.embedded import free_port
    from tests.stack import ROOT

    name = "echo-store" if store else "echo"
    echoes: list[tuple[str, subprocess.Popen]] = []
    try:
        for k in range(args.echo_processes):
            port = free_port()
            echoes.append((f"http://127.0.0.1:{port}", subprocess.Popen(
                [sys.executable, "-m", "bench.tables", "--echo-server", "--port", str(port),
                 *(["--echo-unrouted"] if args.echo_unrouted else []), *(["--echo-store"] if store else [])],
                cwd=ROOT, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL,
                stderr=open(tmp / f"{name}-{k}.log", "wb"))))
        for url, process in echoes:
            wait_healthy(url, process)
        echo_urls = [url for url, _ in echoes]
        if args.router == "nginx":
            echo_router = NginxRouter(free_port(), echo_urls[:1], echo_urls, tmp / f"nginx-{name}").start()
            routers.append(echo_router)
            echo_urls = [echo_router.url]
        fake = [(gid, "t", "t") for gid in range(1, args.games + 1)]
        return run_games(echo_urls, fake, args.seconds, echo=True,
                         cpu_groups={"server": lambda: [p.pid for _, p in echoes],
                                     **({"postgres_redis": infra} if infra is not None else {}),
                                     **router_cpu(routers), "clients": lambda: [os.getpid()]})
    finally:
        for router in routers:
            router.stop()
        routers.clear()
        for _, process in echoes:
            process.terminate()
        for _, process in echoes:
            process.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--game-processes", type=int, default=1, metavar="P",
                        help="game-service processes on the same database and Redis; with --routing table game i's "
                             "clients use process i %% P")
    parser.add_argument("--routing", choices=("table", "client"), default="table",
                        help="several game processes: a table's clients on one (table) or each client on its own draw")
    parser.add_argument("--router", choices=("none", "nginx"), default="none",
                        help="nginx: clients connect through real nginx routing like deploy/nginx.conf")
    parser.add_argument("--echo-processes", type=int, default=None, metavar="E",
                        help="echo-server processes (default 1, with --router nginx P); game i's clients use "
                             "process i %% E")
    parser.add_argument("--echo-unrouted", action="store_true",
                        help="the echo server's Socket.IO events skip Flask's URL matching, as the game service's do")
    parser.add_argument("--profile", metavar="PREFIX",
                        help="sample the game service and the clients with py-spy over the measured window "
                             "(collapsed stacks in PREFIX-server.txt, PREFIX-clients.txt; with several game "
                             "processes PREFIX-server-K.txt per process K)")
    parser.add_argument("--floor", action="store_true",
                        help="also run the echo server with one PostgreSQL UPDATE and one Redis command per "
                             "move (echo_store): what storing each move, one statement a move, costs alone")
    parser.add_argument("--busy", type=int, default=0, metavar="B",
                        help="B processes that only spin on the CPU for the whole benchmark, both servers' runs "
                             "alike: the p50 ratio on a machine with other work on it")
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--echo-store", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server:
        echo_server(args.port, args.echo_unrouted, args.echo_store)
        return 0
    if args.profile and not Path(sys.executable).with_name("py-spy").exists():
        # Not in the locked dev requirements: a profiler is for the engineer, not the suite.
        parser.error(f"--profile needs py-spy beside the interpreter: {sys.executable} -m pip install py-spy")

    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    from bench.nginx_router import NginxRouter
    from services.embedded import free_port
    from shared import accounts, auth_token, game_store
    from tests.stack import TEST_SECRET, ServiceProcess, start_infra

    if args.echo_processes is None:
        args.echo_processes = args.game_processes if args.router == "nginx" else 1
    if args.router == "nginx" and args.routing == "client":
        parser.error("--routing client needs --router none (nginx routes by table)")
    tmp = Path(tempfile.mkdtemp(prefix="spielcenter-bench-tables-"))
    infra = start_infra(tmp / "infra")
    result: dict[str, Any] = {"games": args.games, "seconds": args.seconds, "think_s": list(THINK_S),
                              "game": "hexagon", "game_processes": args.game_processes, "router": args.router,
                              "routing": "table" if args.router == "nginx" else args.routing,
                              "echo_processes": args.echo_processes, "echo_unrouted": args.echo_unrouted,
                              "busy": args.busy, "load_average": [round(x, 2) for x in os.getloadavg()]}
    routers: list[NginxRouter] = []
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        result["echo"] = run_echo(args, tmp, routers, store=False)
        if args.floor:
            env = {"DATABASE_URL": infra.database_url, "REDIS_URL": infra.redis_url}
            result["echo_store"] = run_echo(args, tmp, routers, store=True, env=env,
                                            infra=lambda: processes_under(tmp / "infra"))
        pool = ConnectionPool(infra.database_url, min_size=1, max_size=2, kwargs={"row_factory": dict_row})
        pairs = []
        for i in range(args.games):
            a, b = accounts.create_guest(pool), accounts.create_guest(pool)
            with pool.connection() as conn, conn.transaction():
                gid = game_store.create_game(conn, game="hexagon", options={}, seed=i, seats=(a.id, b.id),
                                             mode="wartesaal", clock={"base_ms": 3_600_000, "inc_ms": 0},
                                             rated=False, stake=0)
                pairs.append((gid, auth_token.issue(a.id, a.name, TEST_SECRET),
                              auth_token.issue(b.id, b.name, TEST_SECRET)))
        pool.close()
        games = [ServiceProcess("services.game", infra, "GAME_PORT", tmp / "logs", DB_POOL_MAX="20")
                 for _ in range(args.game_processes)]
        try:
            for game in games:
                game.start()
            game_pids = [game.process.pid for game in games if game.process is not None]
            game_urls = [game.url for game in games]
            if args.router == "nginx":
                game_router = NginxRouter(free_port(), game_urls[:1], game_urls, tmp / "nginx-game").start()
                routers.append(game_router)
                game_urls = [game_router.url]
            profiler: list[subprocess.Popen] = []

            def profile() -> None:
                if not args.profile:
                    return
                servers = ([("server", game_pids[0])] if len(game_pids) == 1
                           else [(f"server-{k}", pid) for k, pid in enumerate(game_pids)])
                for name, pid in (*servers, ("clients", os.getpid())):
                    profiler.append(subprocess.Popen(
                        [str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(pid),
                         "--duration", str(int(args.seconds)), "--rate", "100", "--format", "raw",
                         "--output", f"{args.profile}-{name}.txt", "--nonblocking"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

            result["game_service"] = run_games(
                game_urls, pairs, args.seconds, echo=False, by_client=args.routing == "client",
                cpu_groups={"server": lambda: game_pids, "postgres_redis": lambda: processes_under(tmp / "infra"),
                            **router_cpu(routers), "clients": lambda: [os.getpid()]},
                on_measuring=profile, server_times=lambda: move_seconds([game.url for game in games]))
            for sampler in profiler:
                sampler.wait(30)
            if result["game_service"]["errors"]:
                # What the service said about it (its log goes with the temporary directory).
                for game in games:
                    for line in game.log_path.read_text().splitlines():
                        if '"level": "warning"' in line or '"level": "error"' in line:
                            print(line[:2000], file=sys.stderr)
        finally:
            for router in routers:
                router.stop()
            for game in games:  # all at once: each stop() waits for its process to end
                if game.process is not None and game.process.poll() is None:
                    game.process.terminate()
            for game in games:
                game.stop()
        ours, theirs = result["game_service"], result["echo"]
        if ours["p50_ms"] and theirs["p50_ms"]:
            result["ratio_p50"] = round(ours["p50_ms"] / theirs["p50_ms"], 2)
            result["ratio_p99"] = round(ours["p99_ms"] / theirs["p99_ms"], 2)
        # CPU per move against the bare echo's: the game service with PostgreSQL and Redis,
        # and with --floor the echo that stores each move, also with them.
        echo_cpu = theirs["cpu_ms_per_move"]["server"]
        if echo_cpu:
            result["cpu_ratio"] = round(stored_cpu(ours) / echo_cpu, 2)
            if "echo_store" in result:
                result["floor_cpu_ratio"] = round(stored_cpu(result["echo_store"]) / echo_cpu, 2)
    finally:
        for spinner in spinners:
            spinner.kill()
        infra.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
