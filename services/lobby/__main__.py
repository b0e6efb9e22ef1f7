"""``python -m services.lobby``: the lobby service on LOBBY_PORT."""

from gevent import monkey

monkey.patch_all()  # first: psycopg, redis and the Socket.IO queue must see patched sockets

import gc  # noqa: E402
import signal  # noqa: E402

import gevent  # noqa: E402
import psycopg.waiting  # noqa: E402

from services.lobby.app import create_lobby  # noqa: E402
from shared import settings as settings_module  # noqa: E402
from shared.db import migrate  # noqa: E402
from shared.logs import configure, event  # noqa: E402


def main() -> None:
    # A late monkey patch would leave psycopg on its blocking C wait (stack-pitfalls §2).
    assert psycopg.waiting.wait is not getattr(psycopg.waiting, "wait_c", None), "psycopg would block the hub"
    settings = settings_module.load()
    log = configure("lobby", settings.log_level)
    applied = migrate(settings.database_url)
    lobby = create_lobby(settings, log)
    lobby.start_background()

    def stop() -> None:
        event(log, "stopping", process=lobby.presence.process_id)
        lobby.shutdown()
        lobby.socketio.stop()

    gevent.signal_handler(signal.SIGTERM, stop)
    gevent.signal_handler(signal.SIGINT, stop)
    # Everything loaded so far lives as long as the process: keep it out of GC scans.
    gc.collect()
    gc.freeze()
    event(log, "listening", port=settings.lobby_port, migrations_applied=applied, process=lobby.presence.process_id)
    lobby.socketio.run(lobby.app, host=settings.bind_host, port=settings.lobby_port, log_output=False)


main()
