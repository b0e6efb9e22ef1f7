"""A rolling update of the game service, as here: two game processes behind the deploy's nginx
(``bench.nginx_router``), games going on at every table, and one process stopped gracefully
(SIGTERM, as Kubernetes does after the preStop pause) and started again.

The stopping process closes its port and hands every table over (``services.game.fanout.table_handover``):
each of its sockets gets Engine.IO's close packet, reconnects through nginx to the table's next
owner and finds the table as PostgreSQL has it.  Checked: no socket is cut without the close
packet, no client gets an error, no move any client was shown is missing from PostgreSQL at the
end (nor stored twice), every unfinished table went on after the restart, and the process exits
by itself (status 0) within its grace.

The short variant is part of the default run; the long one (more tables, each process restarted
in turn) runs under ``make proof``.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import time
from dataclasses import dataclass, field

import pytest

from bench.nginx_router import NginxRouter
from services.game.app import HAND_OVER_S
from shared import db
from tests.metrics_scrape import scrape, value
from tests.required_tools import NGINX
from tests.stack import Infra, ServiceProcess, run_async
from tests.table_client import load, new_game, players, token

GAME_PATH = "game/socket.io"
THINK_S = (0.05, 0.4)


@pytest.fixture(autouse=True)
def _nginx_installed() -> None:
    NGINX.path()


@dataclass
class Tally:
    errors: list[str] = field(default_factory=list)
    cut: list[tuple[float, int]] = field(default_factory=list)  # (when, table): ended without Engine.IO's close packet
    closed: int = 0  # connections the server closed with the packet (a hand-over)
    reconnects: int = 0
    # Reconnection attempts the router answered with an HTTP error (502: for a moment it had no
    # process it could reach for the table): the client tries again, as the browser's does.
    refused: int = 0
    sent: int = 0


class Player:
    """One seat over a raw WebSocket, reconnecting (through the router) whenever its socket
    ends, as the browser's Socket.IO client does.  Keeps every table state it was shown."""

    def __init__(self, router_url: str, token_: str, game_id: int, tally: Tally, rng: random.Random) -> None:
        self.url = (router_url.replace("http://", "ws://", 1).rstrip("/")
                    + f"/{GAME_PATH}/?table={game_id}&EIO=4&transport=websocket")
        self.token, self.game_id, self.tally, self.rng = token_, game_id, tally, rng
        self.you: int | None = None
        self.version = -1
        self.status = "running"
        self.shown: dict[int, tuple[str, ...]] = {}  # version → the moves shown with it
        self.ws = None
        self.scheduled = -1  # the version this seat's next move is planned for
        self.pending: asyncio.TimerHandle | None = None
        self.stopping = False
        self.holding = False  # plans and sends no more moves (the table is about to be resigned)
        self.task: asyncio.Task | None = None

    async def _open(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(self.url, compression=None, max_size=None, ping_interval=None, open_timeout=10)
        if not (await self.ws.recv()).startswith("0"):
            raise RuntimeError("no Engine.IO open packet")
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

    async def run(self) -> None:
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        first = True
        while not self.stopping:
            try:
                await self._open()
            except InvalidStatus:
                self.tally.refused += 1
                await asyncio.sleep(0.2)
                continue
            except (TimeoutError, OSError, RuntimeError, ConnectionClosed):
                await asyncio.sleep(0.2)  # the router has no process for the table yet: try again
                continue
            if not first:
                self.tally.reconnects += 1
            first = False
            # A move planned on the connection before is dropped: the table as this connection
            # finds it says whose turn it is.
            if self.pending is not None:
                self.pending.cancel()
            self.scheduled = -1
            told = False
            try:
                async for frame in self.ws:
                    if frame.startswith("42"):
                        event, data = json.loads(frame[2:])[:2]
                        if event == "table:state":
                            self.on_state(data)
                        elif event == "error":
                            self.tally.errors.append(str(data.get("code") if isinstance(data, dict) else data))
                    elif frame == "2":
                        await self.ws.send("3")
                    elif frame == "1":  # Engine.IO close: the server sends this socket away
                        told = True
            except ConnectionClosed:
                pass
            if self.stopping:
                break
            if told:
                self.tally.closed += 1
            else:
                self.tally.cut.append((time.monotonic(), self.game_id))

    def on_state(self, data: dict) -> None:
        if data.get("game_id") not in (None, self.game_id) or data["version"] < self.version:
            return
        self.version, self.status = data["version"], data["status"]
        self.shown[data["version"]] = tuple(data["moves"])
        if self.you is None:
            self.you = data["you"]
        view = data["view"]
        if data["status"] != "running" or view.get("to_move") != self.you:
            return
        moves = [m["text"] for m in view.get("legal_moves", [])]
        if moves and data["version"] != self.scheduled:  # a state shown again (a rejoin) plans no second move
            self.scheduled = data["version"]
            self.pending = asyncio.get_running_loop().call_later(self.rng.uniform(*THINK_S), self.send,
                                                                 data["version"], self.rng.choice(moves))

    def send(self, version: int, text: str) -> None:
        if version != self.version or self.stopping or self.holding or self.ws is None:
            return
        self.tally.sent += 1
        frame = "42" + json.dumps(["table:move", {"game_id": self.game_id, "version": version, "move": text}])
        asyncio.get_running_loop().create_task(self._send(frame))

    async def _send(self, frame: str) -> None:
        try:
            await self.ws.send(frame)
        except Exception:
            pass  # the socket is going: the move never left, and the table will say whose turn it is

    def hold(self) -> None:
        """Send no further move: a move planned now would cross a resignation the test sends."""
        self.holding = True
        if self.pending is not None:
            self.pending.cancel()

    async def stop(self) -> None:
        self.stopping = True
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            await self.task


SOCKETS_METRIC = "spielcenter_game_sockets"


def sockets_on(games: list[ServiceProcess]) -> list[float]:
    """Open sockets per game process (0 for a stopped one), from each process's /metrics."""
    counts = []
    for game in games:
        if not (game.process and game.process.poll() is None):
            counts.append(0.0)
            continue
        samples = scrape(f"{game.url}/metrics")
        # value() reads a missing series as 0: a renamed metric would make every process look idle.
        assert (SOCKETS_METRIC, ()) in samples, f"{game.url}/metrics has no {SOCKETS_METRIC}"
        counts.append(value(samples, SOCKETS_METRIC))
    return counts


def stop_gracefully(game: ServiceProcess) -> float:
    """SIGTERM, as Kubernetes sends after the preStop pause; seconds until the process exited."""
    assert game.process is not None
    began = time.monotonic()
    game.process.send_signal(signal.SIGTERM)
    status = game.process.wait(timeout=3 * HAND_OVER_S + 10)
    assert status == 0, f"the game process exited with {status}:\n{game.log()}"
    exit_s = time.monotonic() - began
    # Its last words: every socket closed in time (the log file takes every start of the process).
    last = [json.loads(line) for line in game.log_path.read_text().splitlines()
            if '"tables handed over"' in line][-1]
    assert last["unfinished"] == 0 and last["sockets"] >= 1, last
    return exit_s


def rolling_restart(cluster: tuple[NginxRouter, list[ServiceProcess]], infra: Infra, tables: int,
                    restarts: int, phase_s: float) -> dict:
    router, games = cluster
    pool = db.make_pool(infra.database_url, max_size=2)
    try:
        accounts = players(pool, 2 * tables)
        game_ids = [new_game(pool, "hexagon", (accounts[2 * i].id, accounts[2 * i + 1].id), seed=i)
                    for i in range(tables)]
        return run_async(lambda: _play(router, games, pool, accounts, game_ids, restarts, phase_s))
    finally:
        pool.close()


async def _play(router: NginxRouter, games: list[ServiceProcess], pool, accounts, game_ids: list[int],  # noqa: ANN001
                restarts: int, phase_s: float) -> dict:
    tally = Tally()
    rng = random.Random(20)
    seats = [Player(router.url, token(accounts[2 * i + k]), game_id, tally, random.Random(rng.random()))
             for i, game_id in enumerate(game_ids) for k in (0, 1)]
    for seat in seats:
        seat.task = asyncio.get_running_loop().create_task(seat.run())
    report: dict = {"tables": len(game_ids), "stops": []}
    began = time.monotonic()
    try:
        await asyncio.sleep(phase_s)
        counts = await asyncio.to_thread(sockets_on, games)
        first = counts.index(max(counts))  # the process with more sockets first, then each in turn
        for turn in range(restarts):
            counts = await asyncio.to_thread(sockets_on, games)
            victim_index = (first + turn) % len(games)
            victim = games[victim_index]
            # A stop of a process without sockets would hand nothing over and prove nothing.
            assert counts[victim_index] > 0, f"the process to stop holds no sockets: {counts}"
            before = {seat.game_id: seat.version for seat in seats}
            stopped_at = time.monotonic() - began
            exit_s = await asyncio.to_thread(stop_gracefully, victim)
            await asyncio.sleep(phase_s / 2)
            starting = time.monotonic()
            await asyncio.to_thread(victim.start)
            start_s = time.monotonic() - starting
            await asyncio.sleep(phase_s)
            stalled = sorted({seat.game_id for seat in seats
                              if seat.status == "running" and seat.version <= before[seat.game_id]})
            report["stops"].append({"at_s": round(stopped_at, 1), "sockets_before": counts, "exit_s": round(exit_s, 2),
                                    "start_s": round(start_s, 2), "stalled": stalled})
    finally:
        await asyncio.gather(*(seat.stop() for seat in seats))
    # What the clients were shown against what PostgreSQL holds, once the last writes are in.
    lost, twice = [], []
    for game_id in game_ids:
        row = await asyncio.to_thread(load, pool, game_id)
        # A Battlehexagon table's version counts its moves, and its ending once more.
        if row.version != len(row.moves) + (0 if row.running else 1):
            twice.append(game_id)
        stored = tuple(row.moves)
        for seat in (s for s in seats if s.game_id == game_id):
            for version, moves in seat.shown.items():
                if stored[:len(moves)] != moves or version > row.version:
                    lost.append((game_id, version))
    report.update(moves_sent=tally.sent, errors=tally.errors,
                  cut=[(round(when - began, 1), game_id) for when, game_id in tally.cut], handed_over=tally.closed,
                  reconnects=tally.reconnects, refused=tally.refused, lost=lost, twice=twice,
                  moves_stored=sum(len((load(pool, g)).moves) for g in game_ids))
    return report


def assert_rollout_lost_nothing(report: dict) -> None:
    assert report["errors"] == [], report
    assert report["cut"] == [], report  # every socket of a stopping process was handed over, none dropped
    assert report["handed_over"] >= 1 and report["reconnects"] >= report["handed_over"], report
    assert report["lost"] == [] and report["twice"] == [], report
    for stop in report["stops"]:
        assert stop["stalled"] == [], report  # every running table went on after the restart
        assert stop["exit_s"] < 2 * HAND_OVER_S + 5, report


def test_a_game_process_restarted_gracefully_under_load_loses_no_move(cluster, infra) -> None:  # noqa: ANN001
    report = rolling_restart(cluster, infra, tables=12, restarts=1, phase_s=4)
    print(json.dumps(report))
    assert_rollout_lost_nothing(report)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_each_game_process_restarted_in_turn_under_load_loses_no_move(cluster, infra) -> None:  # noqa: ANN001
    report = rolling_restart(cluster, infra, tables=60, restarts=4, phase_s=8)
    print(json.dumps(report))
    assert_rollout_lost_nothing(report)
