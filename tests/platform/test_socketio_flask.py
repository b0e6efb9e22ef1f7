"""Socket.IO events on a SocketIOFlask app leave no reference cycles behind (services/socketio_flask.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from flask import Flask
from flask_socketio import SocketIO
from werkzeug.test import EnvironBuilder

from services.socketio_flask import SocketIOFlask

EVENTS = 50


@pytest.fixture
def collector_off() -> Iterator[None]:
    """Only reference counting frees objects while the test counts cycles."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _cycles_per_event(app: Flask, path: str) -> float:
    socketio = SocketIO(app, async_mode="threading", path=path)
    answers: list[int] = []

    @socketio.on("ping")
    def ping(n: int) -> None:
        answers.append(n)

    client = socketio.test_client(app)
    assert client.is_connected()
    gc.collect()
    for n in range(EVENTS):
        client.emit("ping", n)
    freed = gc.collect()
    client.disconnect()
    assert answers == list(range(EVENTS))  # every event reached its handler
    return freed / EVENTS


@pytest.mark.usefixtures("collector_off")
def test_plain_flask_leaves_a_cycle_per_event() -> None:
    """What SocketIOFlask avoids: the failed URL match of every event (a NotFound with its traceback)."""
    assert _cycles_per_event(Flask("plain"), "socket.io") >= 20


@pytest.mark.usefixtures("collector_off")
def test_socketio_events_leave_no_cycles() -> None:
    # Flask-SocketIO's test client always handshakes at /socket.io.
    assert _cycles_per_event(SocketIOFlask("routed", socketio_path="socket.io"), "socket.io") == 0


def _cycles_per_request_context(app: Flask) -> float:
    """The request context Flask-SocketIO pushes per event, from the game service's handshake environ."""
    environ = EnvironBuilder("/game/socket.io/", query_string="EIO=4&transport=websocket").get_environ()
    gc.collect()
    for _ in range(EVENTS):
        with app.request_context(environ):
            pass
    return gc.collect() / EVENTS


@pytest.mark.usefixtures("collector_off")
def test_the_game_services_path_is_not_routed() -> None:
    assert _cycles_per_request_context(Flask("plain")) >= 20
    assert _cycles_per_request_context(SocketIOFlask("routed", socketio_path="game/socket.io")) == 0


def test_other_paths_are_still_routed() -> None:
    app = SocketIOFlask("routed", socketio_path="game/socket.io")

    @app.get("/health")
    def health() -> str:
        return "ok"

    client = app.test_client()
    assert client.get("/health").text == "ok"
    assert client.get("/nowhere").status_code == 404
    assert client.get("/game/socket.io-not").status_code == 404
