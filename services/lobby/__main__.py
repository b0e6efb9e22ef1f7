"""``python -m services.lobby``: the lobby service on LOBBY_PORT."""

from gevent import monkey

monkey.patch_all()  # first: psycopg, redis and the Socket.IO queue must see patched sockets

from services import gevent_start  # noqa: E402
from services.lobby.app import create_lobby  # noqa: E402
from shared import settings as settings_module  # noqa: E402
from shared.logs import configure, event  # noqa: E402


def main() -> None:
    # A late monkey patch would leave psycopg on its blocking C wait (stack-pitfalls §2).
    gevent_start.assert_cooperative_db()
    settings = settings_module.load()
    log = configure("lobby", settings.log_level)
    gevent_start.migrate_at_start(settings.database_url, log)
    lobby = create_lobby(settings, log)
    lobby.start_background()

    def stopping() -> None:
        event(log, "stopping", process=lobby.presence.process_id)
        lobby.shutdown()

    gevent_start.freeze_heap()
    event(log, "listening", port=settings.lobby_port, process=lobby.presence.process_id)
    # A lobby socket lives for as long as its page: waiting for them would only delay the exit.
    gevent_start.serve(lobby.app, settings.bind_host, settings.lobby_port, stopping=stopping, grace_s=1.0)


main()
