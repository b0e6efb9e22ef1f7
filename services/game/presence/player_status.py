"""The players' Wartesaal status while they sit at a Wartesaal table: "spielt", then "frei".

The status lives in the lobby's presence store (``shared.presence``); the Wartesaal
pages hear about the change through the lobby's own Socket.IO channel.
"""

from __future__ import annotations

import redis
import socketio

from shared import presence


class PlayerStatus:
    def __init__(self, client: redis.Redis, redis_url: str) -> None:
        self.redis = client
        self.lobby = socketio.RedisManager(redis_url, channel=presence.LOBBY_CHANNEL, write_only=True)

    def playing(self, user_id: int) -> None:
        presence.set_status(self.redis, user_id, "spielt")
        presence.announce(self.redis, self.lobby)

    def free(self, user_ids: list[int]) -> None:
        for user_id in user_ids:
            presence.set_status(self.redis, user_id, "frei")
        presence.announce(self.redis, self.lobby)
