"""Live updates over Redis pub/sub: JSON in, JSON out, on the documented channel names."""

from __future__ import annotations

import pytest
import redis

from shared import bus


def test_channel_names_follow_the_scheme() -> None:
    assert bus.channel("lobby") == "sc:live:lobby"
    assert bus.channel("game", 17) == "sc:live:game:17"
    with pytest.raises(ValueError):
        bus.channel("game", "a:b")
    with pytest.raises(ValueError):
        bus.channel()


def test_subscribers_get_published_payloads_and_only_their_channels(infra) -> None:
    client = redis.Redis.from_url(infra.redis_url)
    game = bus.channel("game", 4711)
    with bus.Subscription(client, game) as one_game, bus.Subscription(client, "sc:live:game:*") as all_games:
        assert bus.publish(client, bus.channel("game", 4712), {"ply": 1}) == 1  # only the pattern listener
        assert bus.publish(client, game, {"ply": 2, "move": "e2-e4", "text": "Zug ä"}) == 2
        assert one_game.get(timeout=2) == (game, {"ply": 2, "move": "e2-e4", "text": "Zug ä"})
        assert all_games.get(timeout=2) == ("sc:live:game:4712", {"ply": 1})
        assert all_games.get(timeout=2) == (game, {"ply": 2, "move": "e2-e4", "text": "Zug ä"})
        assert one_game.get(timeout=0.2) is None


def test_publishing_outside_the_live_namespace_is_refused(infra) -> None:
    with pytest.raises(ValueError):
        bus.publish(redis.Redis.from_url(infra.redis_url), "flask-socketio", {"x": 1})
