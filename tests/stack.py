"""Start the real parts for integration tests: PostgreSQL, Redis, services, Celery workers.

Every process runs on a free port with its data in a temporary directory, so several
test runs on one machine never collide.  When ``DATABASE_URL`` / ``REDIS_URL`` are set
(a real server, e.g. in a deployment check), those are used instead of embedded ones.
Services are started as subprocesses through their own entry points, because gevent's
monkey patching must happen before anything else is imported (it cannot happen inside
the pytest process).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import requests

from services.embedded import EmbeddedRedis, free_port, start_postgres, start_redis

ROOT = Path(__file__).resolve().parent.parent
TEST_SECRET = "test-secret"  # SECRET_KEY of every service the test stack starts


def wait_until(condition: Callable[[], object], timeout: float, message: str | Callable[[], str],
               interval: float = 0.05) -> object:
    """The first truthy value of ``condition()``, polled every ``interval`` s for up to ``timeout`` s.

    The wait for an event a test cannot be told of directly (a row, a log line, a process
    gone); on time-out an AssertionError with ``message`` (or what ``message()`` returns)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            what = message if isinstance(message, str) else message()
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)



T = TypeVar("T")


def run_async(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``asyncio.run(make())`` on a thread of its own.

    A browser test's session-wide Playwright keeps an asyncio loop running on the test
    process's main thread, so ``asyncio.run`` there fails in any later test that the
    distribution happens to give the same process; a thread has no running loop."""
    result: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(asyncio.run(make()))
        except BaseException as exc:  # noqa: BLE001  (re-raised on the caller's thread)
            failure.append(exc)

    thread = threading.Thread(target=run, name="run_async")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]

@dataclass
class Infra:
    database_url: str
    redis_url: str
    _stoppers: list = field(default_factory=list)
    redis_server: EmbeddedRedis | None = None  # None when REDIS_URL came from the environment

    def env(self, **extra: str) -> dict[str, str]:
        """The environment a service process needs, plus ``extra``."""
        env = dict(os.environ)
        env.update(
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            SECRET_KEY=TEST_SECRET,
            PYTHONUNBUFFERED="1",
            LOG_LEVEL="INFO",
            # As behind the deploy's nginx: a test names a client's address with X-Forwarded-For.
            TRUSTED_PROXY_HOPS="1",
            # Every test of a process signs up from one address; the sign-up limits have tests of their own.
            GUESTS_PER_HOUR="1000000",
            REGISTRATIONS_PER_HOUR="1000000",
            # Lobbies come and go (some killed) on one Redis: the cluster-wide gauges move on quickly.
            METRICS_LEASE_SECONDS="2",
        )
        env.update({k: str(v) for k, v in extra.items()})
        return env

    def stop(self) -> None:
        for stop in reversed(self._stoppers):
            stop()

    def __enter__(self) -> Infra:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop_redis(self) -> None:
        """Take Redis away (the outage a health check must notice); only for embedded Redis."""
        if self.redis_server is None:
            raise RuntimeError("Redis is not embedded here; refusing to stop a server this test did not start")
        self.redis_server.stop()


def start_infra(tmp: Path) -> Infra:
    from shared.db import migrate

    stoppers = []
    database_url = os.environ.get("DATABASE_URL")
    redis_url = os.environ.get("REDIS_URL")
    if not database_url:
        pg = start_postgres(tmp / "pg")
        stoppers.append(pg.stop)
        database_url = pg.url
    redis = None
    if not redis_url:
        redis = start_redis(tmp / "redis")
        stoppers.append(redis.stop)
        redis_url = redis.url
    migrate(database_url)
    return Infra(database_url, redis_url, stoppers, redis)


def wait_child_busy(parent_pid: int, timeout: float, cpu_s: float = 0.05) -> None:
    """Wait until the first child of ``parent_pid`` (a prefork worker's pool child) has spent
    ``cpu_s`` more seconds of CPU: it is working on the task it took, not waiting for one."""
    import psutil

    child = psutil.Process(parent_pid).children()[0]
    began = sum(child.cpu_times()[:2])
    wait_until(lambda: sum(child.cpu_times()[:2]) >= began + cpu_s, timeout, "the worker's child to search")


class ServiceProcess:
    """One service started as ``python -m MODULE`` with its port in ``port_env``."""

    def __init__(self, module: str, infra: Infra, port_env: str, log_dir: Path, **env: str) -> None:
        self.module = module
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_dir / f"{module.replace('.', '_')}_{self.port}.log"
        self._env = infra.env(**{port_env: str(self.port)}, **env)
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> ServiceProcess:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", self.module], cwd=ROOT, env=self._env, stdout=log, stderr=subprocess.STDOUT
        )
        self.wait_healthy(timeout)
        return self

    def wait_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"{self.module} exited with {self.process.returncode}:\n{self.log()}")
            try:
                if requests.get(self.url + "/readyz", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"{self.module} not healthy after {timeout} s:\n{self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text()[-5000:]
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL: the crash a test wants to survive."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServiceProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class CeleryWorker:
    """A real Celery worker process (prefork) consuming ``queues``."""

    def __init__(self, infra: Infra, log_dir: Path, queues: str = "interactive,batch", concurrency: int = 1) -> None:
        self.log_path = log_dir / f"celery_{queues.replace(',', '_')}_{free_port()}.log"
        self.args = [
            sys.executable, "-m", "celery", "-A", "services.ai_worker.app", "worker",
            "-Q", queues, "-c", str(concurrency), "--loglevel", "INFO", "--without-gossip", "--without-mingle",
            "-n", f"test-{free_port()}@%h",
        ]
        self.concurrency = concurrency
        self.metrics_port = free_port()
        self.metrics_url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        self._env = infra.env(AI_WORKER_METRICS_PORT=str(self.metrics_port))
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 180) -> CeleryWorker:
        """Start the worker and wait until every child has warmed its players up.

        The parent says "ready." before its children compiled the numba kernels; a task
        sent then waits for the compile (15 s of CPU with a cold cache, far more while the
        parallel suite loads the machine), longer than a test waits for an answer."""
        from services.ai_worker.move_task import WARMED_UP

        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        offset = self.log_path.stat().st_size
        self.process = subprocess.Popen(self.args, cwd=ROOT, env=self._env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"celery worker exited:\n{self.log_path.read_text()[-5000:]}")
            text = self.log_path.read_text()[offset:]
            if "ready." in text and text.count(WARMED_UP) >= self.concurrency:
                return self
            time.sleep(0.2)
        raise RuntimeError(f"celery worker not ready:\n{self.log_path.read_text()[-5000:]}")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            # The whole process group would be better, but prefork children die with
            # their parent's pipe; SIGKILL the parent and let the children notice.
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> CeleryWorker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class SocketProbe:
    """A real python-socketio client that records every event it receives.

    ``SocketProbe(url, token, path="game/socket.io").connect()``, then
    ``probe.emit("ping_worker", {...})`` and ``probe.wait_for("pong_worker")``.
    """

    def __init__(self, url: str, token: str | None, path: str = "socket.io", lang: str = "de",
                 headers: dict[str, str] | None = None) -> None:
        import queue

        import socketio

        self.url = url
        self.path = path
        self.auth = {"token": token, "lang": lang} if token is not None else None
        self.headers = headers or {}
        self.events: queue.Queue = queue.Queue()
        self.client = socketio.Client(reconnection=False)
        self.client.on("*", lambda event, *args: self.events.put((event, args[0] if len(args) == 1 else args)))

    def connect(self, timeout: float = 10) -> SocketProbe:
        self.client.connect(self.url, socketio_path=self.path, auth=self.auth, headers=self.headers,
                            transports=["websocket"], wait_timeout=timeout)
        return self

    def emit(self, event: str, data: object) -> None:
        """Emit ``data`` as the event's single argument."""
        self.client.emit(event, (data,))

    def emit_raw(self, event: str, *args: object) -> None:
        """Emit with exactly ``args`` as the event's arguments (none, one, or several)."""
        self.client.emit(event, tuple(args))

    def wait_for(self, event: str, timeout: float = 10, where=lambda data: True) -> object:  # noqa: ANN001
        """The data of the next ``event`` matching ``where``; events before it are dropped."""
        import queue

        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no {event!r} within {timeout} s")
            try:
                name, data = self.events.get(timeout=remaining)
            except queue.Empty as exc:
                raise TimeoutError(f"no {event!r} within {timeout} s") from exc
            if name == event and where(data):
                return data

    def drain(self, quiet: float = 0.5) -> list[tuple[str, object]]:
        """Every event that arrives until none came for ``quiet`` seconds."""
        import queue

        got = []
        while True:
            try:
                got.append(self.events.get(timeout=quiet))
            except queue.Empty:
                return got

    @property
    def connected(self) -> bool:
        return self.client.connected

    def close(self) -> None:
        """Disconnect without waiting: websocket-client lingers up to 3 s for the close frame."""
        if self.client.connected:
            import threading

            threading.Thread(target=self.client.disconnect, daemon=True).start()

    def __enter__(self) -> SocketProbe:
        return self.connect()

    def __exit__(self, *exc: object) -> None:
        self.close()
