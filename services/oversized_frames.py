"""An oversized Socket.IO message is refused with ``payload_too_large``; its socket stays up.

Engine.IO closes a connection whose message exceeds its transport limit
(``max_http_buffer_size``), silently, after holding the whole message in memory (a
WebSocket message of any size was first collected in full).  Here a message is never
kept beyond that limit: over a WebSocket the rest of a longer message is dropped as it
arrives; a long-polling POST body over it is read away unkept.  In its place the socket
receives the event :data:`shared.socket_errors.OVERSIZED_EVENT`, whose handler answers
with the ``error`` that an oversized but deliverable event gets.

``install(app, socketio, path)`` after creating the ``SocketIO`` server, on the lobby and on
the game service.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import simple_websocket
from engineio.async_drivers import gevent as gevent_driver
from flask import Flask
from flask_socketio import SocketIO
from wsproto.events import BytesMessage, Event, TextMessage

from shared.socket_errors import OVERSIZED_EVENT

# Ends a message whose middle was dropped; no Engine.IO packet ends so.
_CUT_MARK = "\x00\x00oversized\x00\x00"
# What the socket receives instead: an Engine.IO message (4) carrying a Socket.IO event (2).
OVERSIZED_PACKET = f'42["{OVERSIZED_EVENT}"]'
_DRAIN_CHUNK = 64 * 1024


class _TrimmedConnection:
    """A wsproto connection whose messages never grow past ``limit``: beyond it the data is dropped
    and the message's end marked with :data:`_CUT_MARK`."""

    def __init__(self, connection: Any, limit: int) -> None:
        self._connection = connection
        self._limit = limit
        self._size = 0  # of the message coming in so far

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)

    def events(self) -> Iterator[Event]:
        for event in self._connection.events():
            if isinstance(event, TextMessage | BytesMessage):
                self._size += len(event.data)
                if self._size > self._limit:
                    text = isinstance(event, TextMessage)
                    data = (_CUT_MARK if text else _CUT_MARK.encode()) if event.message_finished else (
                        "" if text else b"")
                    event = type(event)(data=data, frame_finished=event.frame_finished,
                                        message_finished=event.message_finished)
                if event.message_finished:
                    self._size = 0
            yield event


class _TrimmingServer(simple_websocket.Server):
    def __init__(self, environ: dict, *, limit: int, **kwargs: Any) -> None:
        self._limit = limit
        super().__init__(environ, **kwargs)

    def handshake(self) -> None:
        super().handshake()
        # Every message after the handshake is read through the trimming connection.
        self.ws = _TrimmedConnection(self.ws, self._limit)


class OversizeAwareWebSocket(gevent_driver.WebSocketWSGI):
    """Engine.IO's gevent WebSocket, with an oversized message turned into :data:`OVERSIZED_PACKET`."""

    def __init__(self, handler: Callable, server: Any) -> None:
        super().__init__(handler, server)
        self._limit = server.max_http_buffer_size

    def __call__(self, environ: dict, start_response: Callable) -> Any:
        # As SimpleWebSocketWSGI.__call__, with the trimming server.
        self.ws = _TrimmingServer(environ, limit=self._limit, **self.server_args)
        ret = self.app(self)
        if self.ws.mode == "gunicorn":
            raise StopIteration()
        if self.ws.mode == "werkzeug":
            raise ConnectionError()
        return ret

    def wait(self) -> Any:
        data = super().wait()
        if isinstance(data, str) and data.endswith(_CUT_MARK):
            return OVERSIZED_PACKET
        if isinstance(data, bytes) and data.endswith(_CUT_MARK.encode()):
            return OVERSIZED_PACKET
        return data


class OversizedPolling:
    """WSGI middleware: a long-polling POST to the Socket.IO path over ``limit`` is read away
    and delivered as :data:`OVERSIZED_PACKET`."""

    def __init__(self, app: Callable, path: str, limit: int) -> None:
        self.app, self.path, self.limit = app, "/" + path.strip("/"), limit

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO", "").rstrip("/") == self.path:
            try:
                length = int(environ.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > self.limit:
                body = environ["wsgi.input"]
                while length > 0:
                    chunk = body.read(min(length, _DRAIN_CHUNK))
                    if not chunk:
                        break
                    length -= len(chunk)
                packet = OVERSIZED_PACKET.encode()
                environ["wsgi.input"] = io.BytesIO(packet)
                environ["CONTENT_LENGTH"] = str(len(packet))
        return self.app(environ, start_response)


def install(app: Flask, socketio: SocketIO, path: str) -> None:
    """Refuse oversized messages on ``socketio`` (served by ``app`` at ``path``) instead of dropping the socket."""
    eio = socketio.server.eio
    eio._async = dict(eio._async, websocket=OversizeAwareWebSocket)  # this server's own copy
    app.wsgi_app = OversizedPolling(app.wsgi_app, path, eio.max_http_buffer_size)
