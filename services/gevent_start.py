"""What every gevent service does between monkey patching and serving.

Each service's ``__main__`` patches first, then calls ``assert_cooperative_db()``,
builds its app, calls ``migrate_at_start`` and ``freeze_heap`` and serves with
``serve``.
"""

from __future__ import annotations

import gc
import logging
import signal
from collections.abc import Callable

import gevent
from gevent.event import Event
from gevent.pool import Pool
from gevent.pywsgi import WSGIHandler, WSGIServer

from shared import db


def assert_cooperative_db() -> None:
    """Fail fast if psycopg was imported before gevent patched ``select``.

    psycopg picks its wait function at import time; the C one blocks the whole hub,
    which shows up only under load as frozen sockets (stack-pitfalls.md §2).
    """
    import psycopg.waiting
    from gevent import monkey

    if not monkey.is_module_patched("select"):
        raise RuntimeError("gevent monkey patching must run before any other import")
    if psycopg.waiting.wait is getattr(psycopg.waiting, "wait_c", None):
        raise RuntimeError("psycopg was imported before gevent patched select; its waits would block the hub")


def migrate_at_start(database_url: str, log: logging.Logger) -> None:
    """Apply pending migrations; the advisory lock in ``shared.db`` serialises concurrent starts."""
    applied = db.migrate(database_url)
    if applied:
        log.info("migrations applied", extra={"fields": {"applied": applied}})


def freeze_heap() -> None:
    """Move everything allocated at start-up out of the GC's reach.

    The imported modules and app objects live forever; freezing them keeps full
    collections short and, in forked workers, avoids copy-on-write of those pages.
    """
    gc.collect()
    gc.freeze()


class ClosingWebSocketHandler(WSGIHandler):
    """pywsgi's handler, except that a connection ends with the WebSocket it carried.

    simple-websocket answers the upgrade on the raw socket, so pywsgi never learns of it
    and, once the app returns, reads the client's last frames (its goodbye, its close
    frame) as the next HTTP request, logging each as an error ("Invalid HTTP method")."""

    def handle_one_response(self) -> None:
        super().handle_one_response()
        if self.environ.get("HTTP_UPGRADE", "").lower() == "websocket":
            self.close_connection = True


def serve(app: object, host: str, port: int, stopping: Callable[[], None] = lambda: None,
          hand_over: Callable[[], None] = lambda: None, grace_s: float = 5.0) -> None:
    """Serve a WSGI app with gevent until SIGTERM/SIGINT, then stop in order and return.

    Stopping: ``stopping`` runs first (the process turns unready, services drop what must not
    be cut short); the listener closes, so a router sends new connections to the other
    processes; ``hand_over`` sends this process's connections away (the game service's sockets
    reconnect to their tables' next owner); the requests still running get up to ``grace_s`` s
    to end, and are killed after that.  Open WebSockets that nobody handed over keep their
    greenlets busy through the whole grace."""
    handlers = Pool()  # unbounded: only there so that stopping can wait for the requests in flight
    server = WSGIServer((host, port), app, log=None, error_log=logging.getLogger("wsgi"),
                        handler_class=ClosingWebSocketHandler, spawn=handlers)
    asked, stopped = Event(), Event()

    def stop() -> None:
        if asked.is_set():  # a second signal while stopping changes nothing
            return
        asked.set()
        try:
            stopping()
            server.close()
            hand_over()
            handlers.join(timeout=grace_s)
            handlers.kill(block=True, timeout=1)
        finally:
            stopped.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        gevent.signal_handler(signum, stop)
    server.start()
    stopped.wait()
