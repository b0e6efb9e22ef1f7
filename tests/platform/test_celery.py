"""The AI path end to end: socket → game service → Celery (interactive) → worker → Socket.IO → socket."""

from __future__ import annotations

import uuid

from services.ai_worker.app import app as celery_app
from shared import auth_token
from tests.stack import TEST_SECRET, SocketProbe

GAME_PATH = "game/socket.io"


def test_ping_worker_round_trip_reaches_the_asking_socket_only(game_service, ai_worker) -> None:
    asker = SocketProbe(game_service.url, auth_token.issue(1, "anna", TEST_SECRET), GAME_PATH).connect()
    bystander = SocketProbe(game_service.url, auth_token.issue(2, "bert", TEST_SECRET), GAME_PATH).connect()
    try:
        nonce = uuid.uuid4().hex
        asker.emit("ping_worker", {"nonce": nonce})
        pong = asker.wait_for("pong_worker", timeout=20)
        assert pong["nonce"] == nonce
        assert isinstance(pong["pid"], int) and pong["pid"] != ai_worker.process.pid  # a prefork child ran it
        assert bystander.drain(quiet=0.5) == []
        assert asker.connected
    finally:
        asker.close()
        bystander.close()


def test_tasks_are_routed_by_name() -> None:
    route = celery_app.amqp.router.route
    assert route({}, "ai.move")["queue"].name == "interactive"
    assert route({}, "ai.hint")["queue"].name == "interactive"
    assert route({}, "ai.ping")["queue"].name == "interactive"
    assert route({}, "ai.review_game")["queue"].name == "batch"
    conf = celery_app.conf
    assert conf.task_acks_late and conf.task_reject_on_worker_lost and conf.worker_prefetch_multiplier == 1
    assert conf.broker_transport_options["visibility_timeout"] == conf.visibility_timeout
    assert conf.result_backend_transport_options["visibility_timeout"] == conf.visibility_timeout


def test_worker_modules_stay_free_of_gevent() -> None:
    """The prefork worker must not import the services' gevent entry points (or gevent at all)."""
    import subprocess
    import sys

    from tests.stack import ROOT

    probe = ("import sys, services.ai_worker.app, services.ai_worker.ping; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'gevent' or m.endswith('__main__')"
             " and m != '__main__'))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         check=True).stdout.strip()
    assert out == "[]"
