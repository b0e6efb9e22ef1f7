"""Real nginx with the deploy's own routing (``deploy/nginx.conf``) in front of local processes.

The benchmark and the tests route exactly as production does: the file is taken as it is,
only its upstream ``server`` lines are replaced by the local processes' addresses, its
``listen`` by a local port, and the Docker DNS ``resolver`` (and the servers' ``resolve``
flag, which Debian's nginx before 1.27.3 does not know) left out.  Debian's ``nginx`` is
installed by ``make setup`` when it is missing and the user is root; :func:`ensure_nginx`
does the same for a benchmark run on a machine set up before.

``python -m bench.nginx_router --port P --lobby URL[,URL…] --game URL[,URL…]`` runs it in
the foreground (Ctrl-C stops it).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
DEPLOY_CONF = ROOT / "deploy" / "nginx.conf"
NGINX_PATHS = ("/usr/sbin/nginx", "/usr/bin/nginx")


def nginx_binary() -> str | None:
    found = shutil.which("nginx")
    return found or next((p for p in NGINX_PATHS if os.access(p, os.X_OK)), None)


def ensure_nginx() -> str:
    """The nginx binary, installed from Debian's packages first when missing and we are root."""
    binary = nginx_binary()
    if binary is not None:
        return binary
    if os.geteuid() != 0:
        raise RuntimeError("nginx is missing (apt-get install nginx as root, or make setup as root)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", "nginx"], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("nginx did not install")
    return binary


def _server_lines(urls: list[str], parameters: str) -> str:
    lines = []
    for url in urls:
        parts = urlsplit(url)
        lines.append(f"    server {parts.hostname or '127.0.0.1'}:{parts.port or 80} {parameters};")
    return "\n".join(lines)


def _deploy_parameters(body: str) -> str:
    """The parameters of an upstream's ``server`` line in deploy/nginx.conf (``max_fails=0``), without
    ``resolve`` (there is no DNS here); a set-aside of 5 s after a failure where it gives none."""
    for line in body.splitlines():
        words = line.strip().rstrip(";").split()
        if words[:1] == ["server"]:
            kept = [w for w in words[2:] if w != "resolve"]
            if kept:
                return " ".join(kept)
    return "max_fails=1 fail_timeout=5s"


def routing_config(conf: str, port: int, upstreams: dict[str, list[str]]) -> str:
    """``deploy/nginx.conf`` with each named upstream's servers replaced by ``upstreams[name]``,
    listening on 127.0.0.1:``port``."""
    conf = re.sub(r"^\s*resolver\s[^;]*;\s*$", "", conf, flags=re.M)

    def replace(match: re.Match[str]) -> str:
        name, body = match.group(1), match.group(2)
        if name not in upstreams:
            raise ValueError(f"no servers given for upstream {name}")
        kept = "\n".join(line for line in body.splitlines() if line.strip() and not line.strip().startswith("server "))
        return f"upstream {name} {{\n{kept}\n{_server_lines(upstreams[name], _deploy_parameters(body))}\n}}"

    conf = re.sub(r"upstream\s+(\S+)\s*\{([^}]*)\}", replace, conf)
    conf, listens = re.subn(r"^(\s*)listen\s+80\s*;", rf"\1listen 127.0.0.1:{port};", conf, flags=re.M)
    if listens != 1:
        raise ValueError("deploy/nginx.conf: expected one `listen 80;`")
    return conf


def main_config(site: str, workdir: Path, workers: int) -> str:
    """A whole nginx.conf around the site, everything it writes under ``workdir``."""
    temp = {name: workdir / name for name in ("client", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir(exist_ok=True)
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers read and write the temp dirs above
    return f"""{user}worker_processes {workers};
daemon off;
pid {workdir / 'nginx.pid'};
error_log {workdir / 'error.log'} warn;
worker_rlimit_nofile 65536;
events {{ worker_connections 16384; }}
http {{
    access_log off;
    client_body_temp_path {temp['client']};
    proxy_temp_path {temp['proxy']};
    fastcgi_temp_path {temp['fastcgi']};
    uwsgi_temp_path {temp['uwsgi']};
    scgi_temp_path {temp['scgi']};
{site}
}}
"""


class NginxRouter:
    """nginx routing like the deploy to ``lobby`` and ``game`` processes; a context manager."""

    def __init__(self, port: int, lobby: list[str], game: list[str], workdir: Path | None = None,
                 workers: int = 1, site: str | None = None) -> None:
        """``site``: the site configuration in place of ``deploy/nginx.conf`` (one an operator edited)."""
        self.port = port
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="spielcenter-nginx-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.workers = workers
        self.site = site if site is not None else DEPLOY_CONF.read_text(encoding="utf-8")
        self.conf = self.workdir / "nginx.conf"
        self._write(lobby, game)
        self.process: subprocess.Popen | None = None

    def _write(self, lobby: list[str], game: list[str]) -> None:
        site = routing_config(self.site, self.port, {"lobby": lobby, "game": game, "game_http": game})
        self.conf.write_text(main_config(site, self.workdir, self.workers), encoding="utf-8")

    def reroute(self, lobby: list[str], game: list[str], timeout: float = 10) -> None:
        """New upstream servers, as a deploy's nginx learns of a process added or removed
        (``nginx -s reload``); returns once new workers serve and the old ones accept no more.

        An old worker keeps its open connections (and the old upstreams for them) until they
        end, but stops accepting only when the master's shutdown message reaches it, after the
        new workers started: a connection in between would still be routed by the old ring.
        nginx renames such a worker "worker process is shutting down" as it closes its
        listening sockets."""
        import psutil

        assert self.process is not None
        before = set(self.pids[1:])
        self._write(lobby, game)
        self.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                children = [c for c in psutil.Process(self.process.pid).children()
                            if c.status() != psutil.STATUS_ZOMBIE]
                workers = {c.pid for c in children if c.pid not in before}
                old_accepting = [c for c in children if c.pid in before
                                 and "shutting down" not in " ".join(c.cmdline())]
            except psutil.Error:
                workers, old_accepting = set(), [None]
            if len(workers) >= self.workers and not old_accepting:
                return
            time.sleep(0.05)
        raise RuntimeError("nginx did not reload in time")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pids(self) -> list[int]:
        """The master and its workers (for CPU accounting)."""
        import psutil

        if self.process is None:
            return []
        try:
            master = psutil.Process(self.process.pid)
            return [master.pid, *(child.pid for child in master.children(recursive=True))]
        except psutil.Error:
            return []

    def start(self, timeout: float = 10) -> NginxRouter:
        binary = ensure_nginx()
        check = subprocess.run([binary, "-t", "-c", str(self.conf)], capture_output=True, text=True)
        if check.returncode != 0:
            raise RuntimeError(f"nginx refuses the configuration:\n{check.stderr}")
        self.process = subprocess.Popen([binary, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                        stderr=open(self.workdir / "stderr.log", "wb"))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited: {(self.workdir / 'error.log').read_text(errors='replace')}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("nginx did not listen in time")

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: workers finish, then exit
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> NginxRouter:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--lobby", required=True, help="lobby URLs, comma-separated")
    parser.add_argument("--game", required=True, help="game-service URLs, comma-separated")
    args = parser.parse_args()
    router = NginxRouter(args.port, args.lobby.split(","), args.game.split(","))
    with router:
        print(f"nginx on {router.url} (config {router.conf})", flush=True)
        try:
            assert router.process is not None
            router.process.wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
