"""Which tables get a spectator state built: the rule in services.game.fanout.watchers (the
cluster test shows a spectator on another process receiving every change)."""

from __future__ import annotations

from services.game.fanout.watchers import Watchers


def test_a_table_gets_its_spectator_state_when_watched_here_or_said_so_by_redis() -> None:
    here = {9}
    watchers = Watchers(None, lambda: [], lambda game_id: game_id in here)  # type: ignore[arg-type]
    assert not watchers.likely(1) and watchers.likely(9)  # own spectators: always
    # Believed unwatched, but the mark is there: the spectator state is still to be sent, once.
    assert watchers.learn(1, True) is True
    assert watchers.likely(1) and watchers.learn(1, True) is False
    # The mark ran out: no more spectator states for it.
    assert watchers.learn(1, False) is False and not watchers.likely(1)
    here.clear()
    assert watchers.learn(9, False) is False and not watchers.likely(9)


def test_the_heartbeat_refreshes_the_marks_of_the_rooms_watched_here(infra) -> None:  # noqa: ANN001
    """python-socketio's rooms hold None (every socket) and each socket's own room beside the
    table rooms: the heartbeat must pass over them (it crashed on None every beat, so a mark
    ran out 10 s after the spectator sat down)."""
    import redis

    from services.game.fanout.watchers import TTL_S, key

    client = redis.Redis.from_url(infra.redis_url)
    client.delete(key(41), key(42))
    rooms = {None: {"sid-a": "e1", "sid-b": "e2"}, "sid-a": {"sid-a": "e1"}, "game:41": {"sid-a": "e1"},
             "game:41:watch": {"sid-a": "e1"}, "game:42:seat:0": {"sid-b": "e2"}, "game:43:watch": {}}
    watchers = Watchers(client, lambda: ((room, len(members)) for room, members in rooms.items()), lambda g: False)
    watchers.heartbeat()
    assert client.exists(key(41)) and 0 < client.ttl(key(41)) <= TTL_S
    assert not client.exists(key(42)) and not client.exists(key(43))  # a seat's room, an empty watch room
