"""``ai.ping``: the smallest task that answers a browser through Socket.IO.

It proves the whole path a real AI move takes: game service → Celery (queue
``interactive``) → worker → Socket.IO message queue in Redis → the game service
process holding the client's socket → the client.
"""

from __future__ import annotations

import os
import socket

import redis
import socketio

from services.ai_worker.app import app
from shared import redis_address, settings

# Flask-SocketIO's default channel; every emitter must use the services' channel.
SOCKETIO_CHANNEL = "flask-socketio"

_emitter: socketio.RedisManager | None = None
_emitter_pid: int | None = None
_redis: redis.Redis | None = None
_redis_pid: int | None = None


def emitter() -> socketio.RedisManager:
    """A write-only Socket.IO emitter, made once per process (prefork children must not share one)."""
    global _emitter, _emitter_pid
    if _emitter is None or _emitter_pid != os.getpid():
        _emitter = socketio.RedisManager(settings.load().redis_url, write_only=True, channel=SOCKETIO_CHANNEL)
        _emitter_pid = os.getpid()
    return _emitter


def redis_client() -> redis.Redis:
    """This process's Redis client (prefork children must not share one)."""
    global _redis, _redis_pid
    if _redis is None or _redis_pid != os.getpid():
        _redis = redis_address.client(settings.load().redis_url, decode_responses=True)
        _redis_pid = os.getpid()
    return _redis


def pending_key(user_id: int) -> str:
    """Marks the one ping of ``user_id`` that may wait in the queue (services.game.sockets)."""
    return f"ping:pending:{user_id}"


@app.task(name="ai.ping", ignore_result=True)
def ping(sid: str, nonce: str, pending: str | None = None) -> None:
    """Send ``pong_worker`` with ``nonce`` to the socket ``sid`` (any game service process holds it),
    after clearing the mark ``pending`` (a client that waits for its answer may ping again at once)."""
    if pending is not None:
        redis_client().delete(pending)
    emitter().emit("pong_worker", {"nonce": nonce, "worker": socket.gethostname(), "pid": os.getpid()},
                   namespace="/", room=sid)
