"""``ai.ping``: the smallest task that answers a browser through Socket.IO.

It proves the whole path a real AI move takes: game service → Celery (queue
``interactive``) → worker → Socket.IO message queue in Redis → the game service
process holding the client's socket → the client.
"""

from __future__ import annotations

import os
import socket

import socketio

from services.ai_worker.app import app
from shared import settings

# Flask-SocketIO's default channel; every emitter must use the services' channel.
SOCKETIO_CHANNEL = "flask-socketio"

_emitter: socketio.RedisManager | None = None
_emitter_pid: int | None = None


def emitter() -> socketio.RedisManager:
    """A write-only Socket.IO emitter, made once per process (prefork children must not share one)."""
    global _emitter, _emitter_pid
    if _emitter is None or _emitter_pid != os.getpid():
        _emitter = socketio.RedisManager(settings.load().redis_url, write_only=True, channel=SOCKETIO_CHANNEL)
        _emitter_pid = os.getpid()
    return _emitter


@app.task(name="ai.ping", ignore_result=True)
def ping(sid: str, nonce: str) -> None:
    """Send ``pong_worker`` with ``nonce`` to the socket ``sid`` (any game service process holds it)."""
    emitter().emit("pong_worker", {"nonce": nonce, "worker": socket.gethostname(), "pid": os.getpid()},
                   namespace="/", room=sid)
