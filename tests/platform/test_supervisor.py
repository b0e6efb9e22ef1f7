"""``python -m services.supervisor`` (what ``make run`` runs): starts everything, restarts, leaves nothing behind."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

from services.embedded import free_port
from tests.lobby_fixtures import WartesaalClient, guest
from tests.stack import ROOT, wait_until


class SupervisorRun:
    """The supervisor as a subprocess with its output collected line by line."""

    def __init__(self, run_dir: Path, services: str | None) -> None:
        self.run_dir = run_dir
        self.ports = {"LOBBY_PORT": free_port(), "GAME_PORT": free_port(), "RATING_PORT": free_port()}
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY")}
        env.update({k: str(v) for k, v in self.ports.items()})
        env.update(SPIELCENTER_RUN_DIR=str(run_dir), AI_WORKER_CONCURRENCY="1", PYTHONUNBUFFERED="1")
        env.pop("SPIELCENTER_SERVICES", None)
        env.pop("PUBLIC_URL", None)
        if services is not None:
            env["SPIELCENTER_SERVICES"] = services
        self.lines: list[str] = []
        self.process = subprocess.Popen([sys.executable, "-m", "services.supervisor"], cwd=ROOT, env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        start_new_session=True)
        threading.Thread(target=self._collect, daemon=True).start()

    def _collect(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for_line(self, text: str, timeout: float = 120, after: int = 0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, line in enumerate(self.lines[after:], start=after):
                if text in line:
                    return i
            if self.process.poll() is not None and not any(text in line for line in self.lines[after:]):
                break
            time.sleep(0.1)
        raise AssertionError(f"no line with {text!r}; output:\n" + "\n".join(self.lines[-60:]))

    def events(self, msg: str) -> list[dict]:
        found = []
        for line in self.lines:
            if line.startswith("{"):
                entry = json.loads(line)
                if entry.get("logger") == "supervisor" and entry.get("msg") == msg:
                    found.append(entry)
        return found

    def started_pid(self, service: str) -> int:
        return [e["pid"] for e in self.events("started") if e["service"] == service][-1]


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is gone for our purposes
    except OSError:
        return False


def _sessions(run: SupervisorRun) -> set[int]:
    """The supervisor runs in a session of its own; each child it started leads one more,
    and so does PostgreSQL's postmaster (pg_ctl calls setsid)."""
    pid_file = run.run_dir / "pg" / "postmaster.pid"
    postmaster = {int(pid_file.read_text().split()[0])} if pid_file.exists() else set()
    redis = {e["pid"] for e in run.events("embedded Redis running")}  # started with setsid too
    return {run.process.pid} | {e["pid"] for e in run.events("started")} | postmaster | redis


def _processes_in(sessions: set[int]) -> set[int]:
    """Every live process in ``sessions`` or whose parent leads one of them (PostgreSQL's helpers
    each call setsid).  Session ids survive fork, exec and the process-title rewriting that
    PostgreSQL and Redis do, so nothing we started can hide."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            state, parent, session = fields[0], int(fields[1]), int(fields[3])
            if state != "Z" and (session in sessions or parent in sessions):
                found.add(int(entry.name))
    return found


def _finish(run: SupervisorRun) -> None:
    """After a failed assertion: still stop everything the run started."""
    if run.process.poll() is None:
        run.process.send_signal(signal.SIGINT)
        try:
            run.process.wait(60)
        except subprocess.TimeoutExpired:
            run.process.kill()


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def _healthy(port: int) -> bool:
    try:
        return requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def _stop(run: SupervisorRun) -> None:
    """Ctrl-C in a terminal: SIGINT to the whole foreground process group, not just the supervisor."""
    os.killpg(run.process.pid, signal.SIGINT)
    assert run.process.wait(60) == 0
    stop_at = run.wait_for_line('"stop requested"', timeout=5)
    run.wait_for_line('"all stopped"', timeout=5, after=stop_at)
    # Every service shut down while PostgreSQL and Redis were still there: no errors on the way out.
    errors = [line for line in run.lines[stop_at:] if line.startswith("{") and json.loads(line)["level"] == "error"]
    assert errors == []


def test_supervisor_starts_restarts_and_stops_everything(tmp_path) -> None:
    run_dir = tmp_path / "run"
    run = SupervisorRun(run_dir, None)  # exactly what `make run` starts
    try:
        run.wait_for_line("Spielcenter läuft / is running: lobby, game, rating, worker")
        assert f"Open http://localhost:{run.ports['LOBBY_PORT']}" in run.lines
        assert all(_healthy(port) for port in run.ports.values())
        redis_port = run.events("embedded Redis running")[0]["port"]
        postmaster = int((run_dir / "pg" / "postmaster.pid").read_text().split()[0])
        secret = run_dir / "secret_key"
        assert secret.stat().st_mode & 0o777 == 0o600 and len(secret.read_text()) >= 40

        # A crashed child is noticed and restarted.
        first_game = run.started_pid("game")
        os.kill(first_game, signal.SIGKILL)
        run.wait_for_line('"child exited; restarting"', timeout=10)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (run.started_pid("game") != first_game
                                                     and _healthy(run.ports["GAME_PORT"])):
            time.sleep(0.2)
        assert run.started_pid("game") != first_game and _healthy(run.ports["GAME_PORT"])

        # The embedded Redis dies: the supervisor starts it again (its port, its data) and says so,
        # and the lobby's handlers work again without any restart of theirs.
        first_redis = run.events("embedded Redis running")[0]["pid"]
        os.kill(first_redis, signal.SIGKILL)
        run.wait_for_line('"embedded Redis exited; restarting"', timeout=10)
        wait_until(lambda: len(run.events("embedded Redis running")) == 2, 30, "Redis to be started again")
        again = run.events("embedded Redis running")[-1]
        assert again["pid"] != first_redis and again["port"] == redis_port and _running(again["pid"])
        lobby_url = f"http://127.0.0.1:{run.ports['LOBBY_PORT']}"
        wait_until(lambda: _healthy(run.ports["LOBBY_PORT"]), 30, "the lobby to reach Redis again")
        client = WartesaalClient(lobby_url, guest(lobby_url))
        try:
            client.wait_for("players", timeout=30)
            client.emit("chat:send", {"text": "Redis ist wieder da"})
            client.wait_for("chat:message", lambda p: p["message"]["text"] == "Redis ist wieder da", timeout=30)
            assert not client.received("error")
        finally:
            client.close()

        redis_pid = run.events("embedded Redis running")[-1]["pid"]
        ours = _processes_in(_sessions(run))
        expected = {run.process.pid, run.started_pid("lobby"), run.started_pid("game"), run.started_pid("rating"),
                    run.started_pid("worker"), postmaster, redis_pid}
        assert expected <= ours and len(ours) >= len(expected) + 4  # + Celery's pool child, PostgreSQL's helpers
        _stop(run)
    finally:
        _finish(run)

    # PostgreSQL's last helpers exit right after the postmaster: wait for them to be gone.
    wait_until(lambda: not [pid for pid in ours if _running(pid)]
               and not _processes_in(_sessions(run) | {postmaster}), 10, "every process of the run to exit")
    assert not [pid for pid in ours if _running(pid)]
    assert _processes_in(_sessions(run) | {postmaster}) == set()
    assert all(_port_free(p) for p in (*run.ports.values(), redis_port))

    # Data and the secret survive: a second start reuses them and has nothing to migrate.
    key = secret.read_text()
    again = SupervisorRun(run_dir, "rating")
    try:
        again.wait_for_line("Spielcenter läuft / is running: rating")
        assert again.events("migrations")[0]["applied"] == []
        assert secret.read_text() == key
        _stop(again)
    finally:
        _finish(again)
    wait_until(lambda: not _processes_in(_sessions(again)), 10, "every process of the second run to exit")
    assert _processes_in(_sessions(again)) == set()
