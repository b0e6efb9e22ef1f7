"""``python -m services.supervisor``: the whole Spielcenter on one machine (what ``make run`` runs).

1. Unless ``DATABASE_URL`` / ``REDIS_URL`` are set, start an embedded PostgreSQL and
   Redis with their data under ``.run/`` (kept across restarts; Redis append-only).
2. ``SECRET_KEY``: from the environment, else generated once into ``.run/secret_key``.
3. Apply the migrations, start the services (lobby, game, rating, Celery worker on
   both queues), wait until each is healthy and print ``Open <lobby URL>``.
4. Restart a child that dies, with exponential back-off, and the embedded Redis when it
   dies (on its port, with its append-only file).
5. On Ctrl-C (SIGINT) or SIGTERM stop every child (its whole process group, so
   Celery's pool processes too), then Redis and PostgreSQL: nothing is left behind.

Development knobs, read only here (not deployment settings):
``SPIELCENTER_SERVICES`` — comma-separated subset of ``lobby,game,rating,worker``
(default: all); ``SPIELCENTER_RUN_DIR`` — instead of ``<repo>/.run``.
"""

from __future__ import annotations

import ctypes
import logging
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import requests

from services import embedded
from shared import db, logs, settings

ROOT = Path(__file__).resolve().parent.parent
ALL_SERVICES = ("lobby", "game", "rating", "worker")
START_TIMEOUT_S = 90
STOP_TIMEOUT_S = 15
BACKOFF_MAX_S = 30.0
# A child that stayed up this long is considered fixed: its next crash restarts at once.
STABLE_AFTER_S = 30.0

log = logging.getLogger("supervisor")


@dataclass
class ChildSpec:
    name: str
    argv: list[str]
    health_url: str | None  # HTTP services: ready when /readyz says 200
    ready_line: str | None = None  # others: ready when their output contains this
    env: dict[str, str] = field(default_factory=dict)


class Child:
    """One supervised process and its restart bookkeeping."""

    def __init__(self, spec: ChildSpec, base_env: dict[str, str]) -> None:
        self.spec = spec
        self.env = {**base_env, **spec.env}
        self.process: subprocess.Popen | None = None
        self.started_at = 0.0
        self.backoff = 1.0
        self.restart_at: float | None = None
        self._ready_line_seen = threading.Event()

    def start(self) -> None:
        self._ready_line_seen.clear()
        self.process = subprocess.Popen(
            self.spec.argv,
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            # Own process group: Ctrl-C reaches only the supervisor, which then stops the
            # children in order, and a stop can signal a child's whole tree at once.
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        self.started_at = time.monotonic()
        threading.Thread(target=self._forward_output, args=(self.process,), daemon=True).start()
        logs.event(log, "started", service=self.spec.name, pid=self.process.pid)

    def _forward_output(self, process: subprocess.Popen) -> None:
        # Children log JSON lines (Celery plain text); pass them through unchanged.
        assert process.stdout is not None
        for raw in iter(process.stdout.readline, b""):
            line = raw.decode(errors="replace")
            if self.spec.ready_line and self.spec.ready_line in line:
                self._ready_line_seen.set()
            sys.stdout.write(line)
            sys.stdout.flush()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def ready(self) -> bool:
        if not self.alive():
            return False
        if self.spec.health_url is not None:
            try:
                return requests.get(self.spec.health_url, timeout=1).status_code == 200
            except requests.RequestException:
                return False
        return self._ready_line_seen.is_set()

    def stop(self) -> None:
        """SIGTERM the child, then SIGKILL whatever is left of its process group.

        Only the child itself gets SIGTERM: Celery's main process then shuts its pool
        down in order (a pool process killed directly would requeue its task).
        """
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            logs.event(log, "did not stop in time; killing", service=self.spec.name, pid=self.process.pid)
        # Also catches grandchildren (Celery's pool) that outlive their parent.
        _signal_group(self.process.pid, signal.SIGKILL)
        self.process.wait()
        logs.event(log, "stopped", service=self.spec.name, pid=self.process.pid, code=self.process.returncode)


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass


_PR_SET_PDEATHSIG = 1
try:
    _prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before any fork
except (OSError, AttributeError):  # not Linux
    _prctl = None


def _die_with_parent() -> None:
    """In the child before exec: get SIGTERM if the supervisor itself is killed (even by SIGKILL)."""
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def selected_services() -> list[str]:
    raw = os.environ.get("SPIELCENTER_SERVICES", ",".join(ALL_SERVICES))
    chosen = [s.strip() for s in raw.split(",") if s.strip()]
    unknown = set(chosen) - set(ALL_SERVICES)
    if unknown or not chosen:
        raise SystemExit(f"SPIELCENTER_SERVICES: unknown {sorted(unknown)}; choose from {','.join(ALL_SERVICES)}")
    return [s for s in ALL_SERVICES if s in chosen]  # start in dependency order


def child_specs(config: settings.Settings, names: list[str]) -> list[ChildSpec]:
    python = sys.executable

    def health(port: int) -> str:
        return f"http://127.0.0.1:{port}/readyz"

    specs = {
        "lobby": ChildSpec("lobby", [python, "-m", "services.lobby"], health(config.lobby_port)),
        "game": ChildSpec("game", [python, "-m", "services.game"], health(config.game_port)),
        "rating": ChildSpec("rating", [python, "-m", "services.rating"], health(config.rating_port)),
        "worker": ChildSpec(
            "worker",
            [python, "-m", "celery", "-A", "services.ai_worker.app", "worker", "-Q", "interactive,batch",
             "-c", str(config.ai_worker_concurrency), "--loglevel", "INFO", "--without-gossip", "--without-mingle",
             "-n", "spielcenter@%h"],
            None,
            ready_line=" ready.",
            # One search per core: numpy's BLAS threads would oversubscribe the prefork pool.
            env={"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"},
        ),
    }
    return [specs[name] for name in names]


def secret_key(run_dir: Path) -> str:
    """SECRET_KEY from the environment, else the one generated on the first run."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = run_dir / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
    return path.read_text().strip()


class Supervisor:
    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.stopping = threading.Event()
        self.cleanups: list[Callable[[], None]] = []
        self.children: list[Child] = []
        self.redis: embedded.EmbeddedRedis | None = None  # the embedded one, when it runs
        self.redis_backoff = 1.0  # seconds before the next try when restarting it failed
        self.redis_retry_at = 0.0

    def request_stop(self, signum: int, _frame: object) -> None:
        logs.event(log, "stop requested", signal=signal.Signals(signum).name)
        self.stopping.set()

    def start_backing_stores(self) -> tuple[str, str]:
        database_url = os.environ.get("DATABASE_URL")
        redis_url = os.environ.get("REDIS_URL")
        if not database_url:
            pg = embedded.start_postgres(self.run_dir / "pg")
            self.cleanups.append(pg.stop)
            database_url = pg.url
            logs.event(log, "embedded PostgreSQL running", data=str(self.run_dir / "pg"))
        if not redis_url:
            self.redis = embedded.start_redis(self.run_dir / "redis")
            self.cleanups.append(lambda: self.redis.stop() if self.redis is not None else None)
            redis_url = self.redis.url
            logs.event(log, "embedded Redis running", port=self.redis.port, pid=self.redis.process.pid)
        return database_url, redis_url

    def restart_redis_if_dead(self) -> None:
        """The embedded Redis died: start it again on its port with its data (append-only
        file), as a child is restarted; the services reconnect by themselves."""
        if self.redis is None or self.redis.process.poll() is None or time.monotonic() < self.redis_retry_at:
            return
        log.error("embedded Redis exited; restarting", extra={"fields": {
            "port": self.redis.port, "code": self.redis.process.returncode}})
        try:
            self.redis = embedded.start_redis(self.run_dir / "redis", port=self.redis.port)
        except (RuntimeError, OSError):
            # Backing off as for a child that keeps dying; the supervisor itself goes on.
            log.exception("embedded Redis did not start; trying again", extra={"fields": {
                "retry_in_s": self.redis_backoff}})
            self.redis_retry_at = time.monotonic() + self.redis_backoff
            self.redis_backoff = min(self.redis_backoff * 2, BACKOFF_MAX_S)
            return
        self.redis_backoff = 1.0
        logs.event(log, "embedded Redis running", port=self.redis.port, pid=self.redis.process.pid)

    def wait_ready(self, child: Child) -> bool:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline and not self.stopping.is_set():
            if child.ready():
                logs.event(log, "ready", service=child.spec.name, pid=child.process.pid)
                return True
            if not child.alive():
                break
            time.sleep(0.2)
        return False

    def watch(self) -> None:
        """Until asked to stop: restart children that died, backing off while they keep dying."""
        while not self.stopping.wait(0.5):
            self.restart_redis_if_dead()
            now = time.monotonic()
            for child in self.children:
                if child.alive():
                    if now - child.started_at > STABLE_AFTER_S:
                        child.backoff = 1.0
                    continue
                if child.restart_at is None:
                    code = child.process.returncode if child.process else None
                    child.restart_at = now + child.backoff
                    log.error("child exited; restarting", extra={"fields": {
                        "service": child.spec.name, "code": code, "restart_in_s": child.backoff}})
                    child.backoff = min(child.backoff * 2, BACKOFF_MAX_S)
                elif now >= child.restart_at:
                    child.restart_at = None
                    child.start()

    def run(self) -> int:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, self.request_stop)
        try:
            self.run_dir.mkdir(parents=True, exist_ok=True)
            config = settings.load()
            database_url, redis_url = self.start_backing_stores()
            applied = db.migrate(database_url)
            logs.event(log, "migrations", applied=applied)
            base_env = {
                **os.environ,
                "DATABASE_URL": database_url,
                "REDIS_URL": redis_url,
                "SECRET_KEY": secret_key(self.run_dir),
                "LOBBY_PORT": str(config.lobby_port),
                "GAME_PORT": str(config.game_port),
                "RATING_PORT": str(config.rating_port),
                "PYTHONUNBUFFERED": "1",
            }
            names = selected_services()
            for spec in child_specs(config, names):
                child = Child(spec, base_env)
                self.children.append(child)
                child.start()
                if not self.wait_ready(child):
                    if self.stopping.is_set():
                        return 0
                    log.error("child did not become ready", extra={"fields": {"service": spec.name}})
                    return 1
            if "lobby" in names:
                print(f"Open {config.lobby_url}", flush=True)
            print(f"Spielcenter läuft / is running: {', '.join(names)} (Ctrl-C stops everything)", flush=True)
            self.watch()
            return 0
        finally:
            self.shutdown()

    def shutdown(self) -> None:
        # Children first (they hold connections to the stores), last started first.
        for child in reversed(self.children):
            child.stop()
        for cleanup in reversed(self.cleanups):
            try:
                cleanup()
            except Exception:
                log.exception("cleanup failed")
        logs.event(log, "all stopped")


def main() -> int:
    logs.configure("supervisor", os.environ.get("LOG_LEVEL", "INFO"))
    run_dir = Path(os.environ.get("SPIELCENTER_RUN_DIR", ROOT / ".run"))
    return Supervisor(run_dir).run()


if __name__ == "__main__":
    sys.exit(main())
