"""The open sockets of each session in one process, ended when it logs out.

A socket is authenticated once, at its connect; a socket opened before a logout would
otherwise keep acting for the user.  Logging out (``shared.session_tokens.log_out``)
records the session in ``ended_sessions`` and announces it on the live channel
:data:`CHANNEL`.  Every Socket.IO process (lobby and game) keeps one
:class:`SessionSockets`: which of its sockets belong to which session.  It hears the
announcement, ends the session's sockets there and says so (a list in Redis,
:func:`heard_key`); the announcement waits for every process that heard it (up to
:data:`CONFIRM_WAIT_S`), so the logout's answer comes when no socket of the session acts
any more: an event sent right after it would otherwise still be accepted by a process
that had not heard yet.  In case the announcement was missed (Redis away for a moment, a
socket that connected while it went out) each process asks PostgreSQL every
:data:`SWEEP_SECONDS` which of its sessions have ended.  Each socket of an ended session is
told ``session_ended`` and disconnected by the callback it was registered with; until then
:meth:`SessionSockets.check` refuses every event it sends.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis
from psycopg_pool import ConnectionPool

from shared import bus, redis_address
from shared.schemas.mechanism import ProtocolError
from shared.socket_errors import error_payload

CHANNEL = bus.channel("sessions", "ended")
SWEEP_SECONDS = 1.0
# A process that has not ended its sockets by then is stuck; its sweep ends them later.
CONFIRM_WAIT_S = 1.0

log = logging.getLogger("session_sockets")

EndSocket = Callable[[], None]


def end_socket(socketio: Any, sid: str, lang: str) -> None:
    """Tell socket ``sid`` its session logged out, then disconnect it: straight to the socket,
    not through the queue, so that the error arrives before the disconnect."""
    socketio.emit("error", error_payload("session_ended", lang), to=sid, ignore_queue=True)
    socketio.server.disconnect(sid, namespace="/", ignore_queue=True)


def heard_key(session_id: str) -> str:
    """The list each process that heard the end of ``session_id`` pushes to once its sockets are ended."""
    return f"sessions:ended-here:{session_id}"


def announce(client: redis.Redis, session_id: str, wait_s: float = CONFIRM_WAIT_S) -> int:
    """Tell every process now that ``session_id`` has ended (already recorded in PostgreSQL), and
    return once each one that heard it has ended its sockets of it (at most ``wait_s``): how many did."""
    listening = bus.publish(client, CHANNEL, {"sid": session_id})
    confirmed = 0
    deadline = time.monotonic() + wait_s
    try:
        while confirmed < listening and (left := deadline - time.monotonic()) > 0:
            if client.blpop([heard_key(session_id)], timeout=left) is None:
                break
            confirmed += 1
    finally:
        client.delete(heard_key(session_id))
    if confirmed < listening:
        log.warning("not every process confirmed a session's end",
                    extra={"fields": {"listening": listening, "confirmed": confirmed}})
    return confirmed


class SessionSockets:
    """This process's sockets per session id; ends those of sessions that logged out."""

    def __init__(self, pool: ConnectionPool, redis_url: str) -> None:
        """``pool``: rows as dicts (``shared.db.make_pool``)."""
        self._pool = pool
        self._redis_url = redis_url
        self._sockets: dict[str, dict[str, EndSocket]] = {}  # session id → socket id → how to end it
        self._ended: set[str] = set()  # sessions with sockets here that have ended

    def opened(self, session_id: str, socket_id: str, end: EndSocket) -> None:
        """``socket_id`` acts for ``session_id``; ``end()`` tells it why and disconnects it."""
        self._sockets.setdefault(session_id, {})[socket_id] = end

    def closed(self, session_id: str, socket_id: str) -> None:
        sockets = self._sockets.get(session_id)
        if sockets is None:
            return
        sockets.pop(socket_id, None)
        if not sockets:
            del self._sockets[session_id]
            self._ended.discard(session_id)

    def check(self, session_id: str) -> None:
        """Refuse an event of a socket whose session has ended (before its disconnect is through)."""
        if session_id in self._ended:
            raise ProtocolError("session_ended")

    def end(self, session_ids: Iterable[str]) -> int:
        """Refuse and disconnect every socket here of ``session_ids``; return how many were ended."""
        ended = 0
        for session_id in session_ids:
            sockets = self._sockets.get(session_id)
            if not sockets or session_id in self._ended:
                continue
            self._ended.add(session_id)
            for socket_id, end in list(sockets.items()):
                try:
                    end()
                    ended += 1
                except Exception:
                    log.exception("ending a socket of a logged-out session failed",
                                  extra={"fields": {"socket": socket_id}})
        return ended

    def sweep(self) -> int:
        """Ask PostgreSQL which sessions with sockets here have ended, and end them."""
        open_ids = [sid for sid in self._sockets if sid not in self._ended]
        if not open_ids:
            return 0
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT sid FROM ended_sessions WHERE sid = ANY(%s)", (open_ids,)).fetchall()
        return self.end(row["sid"] for row in rows)

    def run_listener(self, sleep: Callable[[float], None]) -> None:
        """Hear :func:`announce` for ever (reconnecting after a Redis outage); never returns."""
        while True:
            client = redis_address.client(self._redis_url, socket_connect_timeout=2)
            try:
                with bus.Subscription(client, CHANNEL) as subscription:
                    while True:
                        message = subscription.get(timeout=SWEEP_SECONDS)
                        if message is not None and isinstance(message[1].get("sid"), str):
                            session_id = message[1]["sid"]
                            self.end([session_id])
                            self._confirm(client, session_id)
            except Exception as exc:
                log.warning("session end listener failed; retrying", extra={"fields": {"error": repr(exc)}})
            finally:
                client.close()
            sleep(1.0)

    @staticmethod
    def _confirm(client: redis.Redis, session_id: str) -> None:
        """Tell :func:`announce` that this process has ended its sockets of ``session_id``."""
        with client.pipeline() as pipe:
            pipe.rpush(heard_key(session_id), 1).expire(heard_key(session_id), 60).execute()

    def run_sweeper(self, sleep: Callable[[float], None]) -> None:
        """:meth:`sweep` every :data:`SWEEP_SECONDS` for ever; never returns."""
        while True:
            try:
                self.sweep()
            except Exception as exc:
                log.warning("session end sweep failed; retrying", extra={"fields": {"error": repr(exc)}})
            sleep(SWEEP_SECONDS)
