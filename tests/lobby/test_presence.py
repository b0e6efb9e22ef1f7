"""Presence across tabs and lobby processes: one entry per person, gone with the last tab or a dead process."""

from __future__ import annotations

import socketio

from shared import presence
from tests.lobby_fixtures import (  # noqa: F401
    WartesaalClient,
    guest,
    names,
    redis_client,
    start_lobby,
)


def entries(players: list[dict], name: str) -> int:
    return sum(1 for p in players if p["name"] == name)


def test_two_tabs_are_one_entry_until_the_last_tab_closes(lobby, second_lobby, redis_client):  # noqa: F811
    watcher = WartesaalClient(lobby.url, guest(lobby.url))
    carla = guest(lobby.url)
    name = carla.user["name"]
    tab_1 = WartesaalClient(lobby.url, carla)
    tab_2 = WartesaalClient(second_lobby.url, carla)  # the second tab landed on the other process
    try:
        tab_1.wait_for("welcome")
        tab_2.wait_for("welcome")
        players = watcher.wait_players(lambda ps: entries(ps, name) == 1)
        assert entries(players, name) == 1
        assert int(redis_client.hget("presence:users", carla.user["id"])) == 2

        tab_1.close()
        # A later join proves the watcher has seen everything up to now; Carla is still there, once.
        late = guest(second_lobby.url)
        late_client = WartesaalClient(second_lobby.url, late)
        try:
            players = watcher.wait_players(lambda ps: late.user["name"] in names(ps))
            assert entries(players, name) == 1
        finally:
            late_client.close()

        tab_2.close()
        watcher.wait_players(lambda ps: name not in names(ps))
        assert redis_client.hget("presence:users", carla.user["id"]) is None
    finally:
        for client in (watcher, tab_1, tab_2):
            client.close()


def test_users_of_a_killed_lobby_process_leave_the_list(lobby, infra, log_dir):  # noqa: F811
    doomed = start_lobby(infra, log_dir)
    watcher = WartesaalClient(lobby.url, guest(lobby.url))
    dora = guest(doomed.url)
    try:
        victim = WartesaalClient(doomed.url, dora)
        victim.wait_for("welcome")
        watcher.wait_players(lambda ps: dora.user["name"] in names(ps))
        doomed.kill()  # SIGKILL: no goodbye, only the missing heartbeat tells
        watcher.wait_players(lambda ps: dora.user["name"] not in names(ps), timeout=15)
        assert watcher.sio.connected
    finally:
        watcher.close()
        doomed.stop()


def status_of(players: list[dict]) -> set[tuple]:
    """(id, name, status) of each listed player (the entries also carry their Elo)."""
    return {(p["user_id"], p["name"], p["status"]) for p in players}


def test_status_change_from_another_service_shows_live(lobby, infra, redis_client):  # noqa: F811
    watcher = WartesaalClient(lobby.url, guest(lobby.url))
    emil = guest(lobby.url)
    emil_client = WartesaalClient(lobby.url, emil)
    # What the game service does when a game starts: mark the player and announce the list.
    emitter = socketio.RedisManager(infra.redis_url, channel=presence.LOBBY_CHANNEL, write_only=True)
    try:
        watcher.wait_players(lambda ps: emil.user["name"] in names(ps))
        presence.set_status(redis_client, emil.user["id"], "spielt")
        presence.announce(redis_client, emitter)
        watcher.wait_players(lambda ps: (emil.user["id"], emil.user["name"], "spielt") in status_of(ps))
        presence.set_status(redis_client, emil.user["id"], "frei")
        presence.announce(redis_client, emitter)
        watcher.wait_players(lambda ps: (emil.user["id"], emil.user["name"], "frei") in status_of(ps))
    finally:
        watcher.close()
        emil_client.close()
