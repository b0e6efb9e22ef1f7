"""A Flask app that serves Socket.IO: no URL matching for Socket.IO events.

Flask-SocketIO pushes a request context for every event, built from the environ of the
socket's handshake request.  That path is the Socket.IO endpoint, and no Flask route
serves it: Engine.IO's middleware answers it before Flask sees it.  So, on every event,
Flask matched that path against its URL map, failed, and kept the ``NotFound`` on the
request with its traceback.  The frames in that traceback hold the request context, and
the request context holds the exception: a reference cycle of 56 objects per event
(frames, cells, the request, its headers, the URL adapter).  Reference counting cannot
free a cycle; only the cyclic collector can.  In the game service at 500 moves a second,
the cycles filled generation 0 every ~1.6 s, and each collection stopped the event loop
for 60–80 ms (bench/tables.py with a collector callback, session 6).  That was the tables'
p99.

Socket.IO events get no URL adapter here, so no match, no exception, no cycle, and no
time spent on matching.  Socket.IO handlers therefore cannot call ``url_for``; none does.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Request
from werkzeug.routing import MapAdapter


class SocketIOFlask(Flask):
    """Flask, except that requests to ``socketio_path`` (Socket.IO events) are not routed."""

    def __init__(self, import_name: str, *, socketio_path: str, **kwargs: Any) -> None:
        super().__init__(import_name, **kwargs)
        self.socketio_path = "/" + socketio_path.strip("/")

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        if request is not None and request.environ.get("PATH_INFO", "").rstrip("/") == self.socketio_path:
            return None
        return super().create_url_adapter(request)
