"""A Redis Sentinel group for failover tests: Debian's ``redis-server`` as a primary and a replica,
and one ``redis-sentinel`` watching them (``make setup`` installs both when root).

``REDIS_URL`` for the group is ``redis+sentinel://[:<password>@]127.0.0.1:<sentinel port>/0/<service>``
(``shared.redis_address``).  The Sentinel is told to act fast (the primary is down after 1 s
without an answer, a quorum of one), so a test sees the promotion within a few seconds.  With a
password, both servers require it (``requirepass``, and ``masterauth`` for replication) and the
Sentinel uses it to reach them (``auth-pass``); the Sentinel itself asks for none.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from services.embedded import EmbeddedRedis, free_port, start_redis

SERVICE = "spielcenter"
DOWN_AFTER_MS = 1000


def binaries() -> tuple[str, str] | None:
    """Debian's redis-server and redis-sentinel, or None when either is missing."""
    server, sentinel = shutil.which("redis-server"), shutil.which("redis-sentinel")
    return (server, sentinel) if server and sentinel else None


def _command(*words: str) -> bytes:
    return (f"*{len(words)}\r\n" + "".join(f"${len(w)}\r\n{w}\r\n" for w in words)).encode()


def _ask(port: int, *words: str, password: str | None = None) -> bytes:
    """One command's answer (after AUTH when a password is given; its +OK is left out)."""
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        if password is not None:
            s.sendall(_command("AUTH", password))
            if not s.recv(64).startswith(b"+OK"):
                raise OSError(f"AUTH refused on port {port}")
        s.sendall(_command(*words))
        time.sleep(0.05)
        return s.recv(4096)


@dataclass
class SentinelGroup:
    primary: EmbeddedRedis
    replica: EmbeddedRedis
    sentinel: subprocess.Popen
    sentinel_port: int
    password: str | None = None
    _stopped: list = field(default_factory=list)

    @property
    def url(self) -> str:
        credentials = f":{self.password}@" if self.password else ""
        return f"redis+sentinel://{credentials}127.0.0.1:{self.sentinel_port}/0/{SERVICE}"

    def primary_port(self) -> int | None:
        """The primary's port as the Sentinel names it now."""
        try:
            reply = _ask(self.sentinel_port, "SENTINEL", "get-master-addr-by-name", SERVICE)
        except OSError:
            return None
        lines = reply.decode(errors="replace").split("\r\n")
        ports = [line for line in lines if line.isdigit()]
        return int(ports[0]) if ports else None

    def replica_in_sync(self) -> bool:
        """The replica has its primary's link up (so what was written has reached it)."""
        try:
            return b"master_link_status:up" in _ask(self.replica.port, "INFO", "replication", password=self.password)
        except OSError:
            return False

    def knows_replica(self) -> bool:
        """The Sentinel has found the replica (it can fail over to it)."""
        try:
            return str(self.replica.port).encode() in _ask(self.sentinel_port, "SENTINEL", "replicas", SERVICE)
        except OSError:
            return False

    def refuses_without_password(self) -> bool:
        """Both servers answer a command without AUTH with NOAUTH."""
        return all(_ask(server.port, "PING").startswith(b"-NOAUTH") for server in (self.primary, self.replica))

    def kill_primary(self) -> None:
        self.primary.process.kill()
        self.primary.process.wait()

    def stop(self) -> None:
        if self.sentinel.poll() is None:
            self.sentinel.terminate()
            try:
                self.sentinel.wait(10)
            except subprocess.TimeoutExpired:
                self.sentinel.kill()
                self.sentinel.wait()
        self.replica.stop()
        self.primary.stop()


def _require_password(server: EmbeddedRedis, password: str) -> None:
    # Set once the server answers: start_redis waits for an unauthenticated PONG.
    if not _ask(server.port, "CONFIG", "SET", "requirepass", password).startswith(b"+OK"):
        raise RuntimeError(f"redis on port {server.port} did not take its password")


def start_sentinel_group(data_dir: Path, password: str | None = None) -> SentinelGroup:
    found = binaries()
    if found is None:
        raise RuntimeError("redis-server and redis-sentinel are needed (apt-get install redis-sentinel)")
    server, sentinel_binary = found
    auth = ("--masterauth", password) if password else ()
    primary = start_redis(data_dir / "primary", binary=server, extra_args=auth)
    if password:
        _require_password(primary, password)
    replica = start_redis(data_dir / "replica", binary=server,
                          extra_args=("--replicaof", "127.0.0.1", str(primary.port), *auth))
    if password:
        _require_password(replica, password)
    port = free_port()
    # The Sentinel rewrites its configuration file as it learns the group: one of its own.
    conf = data_dir / "sentinel.conf"
    conf.write_text("\n".join([
        f"port {port}", "bind 127.0.0.1", "daemonize no", f"dir {data_dir}",
        f"logfile {data_dir / 'sentinel.log'}",
        f"sentinel monitor {SERVICE} 127.0.0.1 {primary.port} 1",
        *([f"sentinel auth-pass {SERVICE} {password}"] if password else []),
        f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}",
        f"sentinel failover-timeout {SERVICE} 10000",
        f"sentinel parallel-syncs {SERVICE} 1",
    ]) + "\n")
    process = subprocess.Popen([sentinel_binary, str(conf)], stdin=subprocess.DEVNULL, start_new_session=True)
    group = SentinelGroup(primary, replica, process, port, password)
    deadline = time.monotonic() + 15
    while not (group.primary_port() == primary.port and group.replica_in_sync() and group.knows_replica()):
        if process.poll() is not None or time.monotonic() > deadline:
            group.stop()
            raise RuntimeError(f"the Sentinel group did not form; see {data_dir}")
        time.sleep(0.1)
    return group
