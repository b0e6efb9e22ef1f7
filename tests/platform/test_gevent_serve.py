"""``services.gevent_start.serve`` in a real gevent process: a WebSocket ends its TCP
connection, so the client's last frames are not read as the next HTTP request (pywsgi
logged each as an error: "Invalid HTTP method: '\\x88\\x82…'")."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import socketio

from tests.stack import ROOT, free_port, wait_until

# A Socket.IO server as the services run one: patched first, served by gevent_start.serve.
SERVER = """
from gevent import monkey
monkey.patch_all()
import logging, sys
from flask_socketio import SocketIO
from services import gevent_start
from services.socketio_flask import SocketIOFlask
logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(name)s %(message)s")
app = SocketIOFlask(__name__, socketio_path="socket.io")
socketio = SocketIO(app, async_mode="gevent")

@app.get("/ping")
def ping():
    return "pong"

print("listening", flush=True)
gevent_start.serve(app, "127.0.0.1", int(sys.argv[1]))
"""


def _accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def _open_connections(pid: int, port: int) -> list:
    """The server's TCP connections on ``port`` other than its listener."""
    return [c for c in psutil.Process(pid).net_connections("tcp")
            if c.laddr.port == port and c.status != psutil.CONN_LISTEN]


def test_websocket_sessions_that_end_leave_no_error_in_the_log(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen([sys.executable, str(script), str(port)], cwd=ROOT, stdout=out,
                                  stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while "listening" not in log.read_text():
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        # The listener binds just after the line: wait until it accepts a connection.
        wait_until(lambda: _accepts(port), 20, lambda: "the listener\n" + log.read_text())
        # A client that leaves sends "41", engine.io's "1" and a close frame; the server
        # closes on the first, and pywsgi used to read the rest as a request (3 in 10 here).
        for _ in range(20):
            client = socketio.Client()
            client.connect(f"http://127.0.0.1:{port}", transports=["websocket"])
            client.disconnect()
        # Plain HTTP on one kept-alive connection still works after the WebSocket sessions.
        with socket.create_connection(("127.0.0.1", port), timeout=5) as plain:
            for _ in range(2):
                plain.sendall(b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
                answer = b""
                while not answer.endswith(b"pong"):
                    chunk = plain.recv(4096)
                    assert chunk, answer
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 200")
        # The closing frames have been read (or not) once the server has closed every connection:
        # pywsgi logs a frame misread as a request before it closes that connection.
        wait_until(lambda: not _open_connections(server.pid, port), 20,
                   lambda: "the server to close its connections\n" + log.read_text())
    finally:
        server.terminate()
        server.wait(10)
    text = log.read_text()
    assert "Invalid HTTP method" not in text and "ERROR" not in text, text
