"""A table's messages reach only the processes serving it (services.game.fanout.table_channels),
and a change's Redis commands go out in batches, in order (services.game.fanout.redis_batch);
against the real Redis.  The cluster test shows two processes serving one table."""

from __future__ import annotations

import queue
import threading
import time

import redis

from services.game.fanout.redis_batch import RedisBatch
from services.game.fanout.table_channels import TableChannels, game_of_room
from tests.stack import Infra


def test_rooms_name_their_table() -> None:
    assert [game_of_room(r) for r in ("game:12", "game:12:seat:1", "game:12:watch", "user:12", "game:x", None,
                                      "game:12x")] == [12, 12, 12, None, None, None, None]


def _hear(channels: TableChannels, pubsub: redis.client.PubSub, heard: queue.Queue) -> None:
    """The rest of the queue's listener after it attached: confirmations and messages."""
    try:
        for message in pubsub.listen():
            if message["type"] == "subscribe":
                channels.confirmed(message["channel"])
            elif message["type"] == "message":
                heard.put((message["channel"].decode(), message["data"].decode()))
    except Exception:  # closed at the end of the test
        return


def _listener(channels: TableChannels, client: redis.Redis, heard: queue.Queue) -> threading.Thread:
    """What the queue's listener does: attach, then confirmations and messages."""
    pubsub = client.pubsub()
    channels.attach(pubsub)
    thread = threading.Thread(target=_hear, args=(channels, pubsub, heard), daemon=True)
    thread.start()
    return thread


def test_a_process_hears_a_table_only_while_its_sockets_sit_there(infra: Infra) -> None:
    client = redis.Redis.from_url(infra.redis_url)
    channels, heard, resubscribed = TableChannels("chan-test"), queue.Queue(), queue.Queue()
    channels.on_resubscribed = resubscribed.put
    _listener(channels, client, heard)
    sender = redis.Redis.from_url(infra.redis_url)

    def subscribers(game_id: int) -> int:
        return dict(sender.pubsub_numsub(channels.channel(game_id)))[channels.channel(game_id).encode()]

    def subscribers_once_settled(game_id: int, expected: int) -> int:
        """The count, given Redis up to 5 s to notice an unsubscribe or a closed connection."""
        deadline = time.monotonic() + 5
        while subscribers(game_id) != expected and time.monotonic() < deadline:
            time.sleep(0.02)
        return subscribers(game_id)

    # Two rooms of table 5 (a seat and the table room) for one socket, one room of table 6 for another.
    channels.entered("game:5:seat:0")  # returns once Redis confirmed the subscription
    assert subscribers(5) == 1
    channels.entered("game:5")
    channels.entered("game:6:watch")
    channels.entered("user:3")  # not a table: the base channel carries it
    assert sorted(channels.listened()) == ["chan-test", "chan-test:game:5", "chan-test:game:6"]
    assert channels.channel_of_room("game:6:seat:1") == "chan-test:game:6"
    assert channels.channel_of_room("user:3") == channels.channel_of_room(None) == "chan-test"

    sender.publish(channels.channel(7), "for a table served elsewhere")
    sender.publish(channels.channel(5), "five")
    assert heard.get(timeout=5) == ("chan-test:game:5", "five")  # table 7's message never arrived

    channels.left("game:5:seat:0")
    assert subscribers(5) == 1  # the table room still holds the socket
    channels.left("game:5")
    assert subscribers_once_settled(5, 0) == 0 and subscribers(6) == 1
    sender.publish(channels.channel(5), "nobody here any more")
    sender.publish(channels.channel(6), "six")
    sender.publish("chan-test", "base")
    assert [heard.get(timeout=5) for _ in range(2)] == [("chan-test:game:6", "six"), ("chan-test", "base")]
    assert heard.empty()
    channels.left("game:99")  # never entered: nothing happens

    # The listener reconnects (Redis was away): once Redis confirmed every subscription
    # again, the tables served are named, so that their states are sent again.
    channels.detach()
    client.close()
    assert resubscribed.empty()  # the first connect had nothing to catch up
    again = redis.Redis.from_url(infra.redis_url)
    _listener(channels, again, heard)
    assert resubscribed.get(timeout=5) == [6]
    assert subscribers_once_settled(6, 1) == 1  # the closed listener's subscription is gone, the new one stands
    again.close()


def test_changes_go_out_in_order_and_each_gets_its_own_answers(infra: Infra) -> None:
    client = redis.Redis.from_url(infra.redis_url)
    client.delete("batch-test")
    batch = RedisBatch(lambda: client)
    answers: list[tuple[int, list | None]] = []
    done = threading.Event()
    n = 200

    def change(i: int) -> None:
        batch.submit(lambda pipe: (pipe.rpush("batch-test", i), pipe.llen("batch-test")),
                     lambda got: (answers.append((i, got)), i == n - 1 and done.set()))

    threads = [threading.Thread(target=lambda k=k: [change(i) for i in range(k * 50, k * 50 + 50)])
               for k in range(4)]
    for thread in threads:
        thread.start()
        thread.join()  # one submitter after another: their order is the order they submitted in
    assert done.wait(10)
    assert [int(x) for x in client.lrange("batch-test", 0, -1)] == list(range(n))
    # Every change got the answers of its own two commands, whatever batch it was in.
    assert [i for i, _ in answers] == list(range(n))
    assert all(got == [i + 1, i + 1] for i, got in answers)

    # Redis away: every change hears None (after one reconnect attempt), none is lost silently.
    dead = redis.Redis.from_url("redis://127.0.0.1:9/0", socket_connect_timeout=0.5)
    failed = RedisBatch(lambda: dead)
    heard: queue.Queue = queue.Queue()
    for i in range(3):
        failed.submit(lambda pipe: pipe.ping(), lambda got, i=i: heard.put((i, got)))
    assert sorted(heard.get(timeout=10) for _ in range(3)) == [(0, None), (1, None), (2, None)]


class _SlowToConnect(redis.ConnectionPool):
    """A pool whose connections take a while to open, as under load: the window in which the
    listener's PubSub has no connection yet."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.opening = threading.Event()

    def get_connection(self, *args: object, **kwargs: object):  # noqa: ANN201
        self.opening.set()
        connection = super().get_connection(*args, **kwargs)
        time.sleep(0.3)
        return connection


def test_a_table_entered_while_the_listener_connects_is_heard(infra: Infra) -> None:
    pool = _SlowToConnect.from_url(infra.redis_url)
    channels, heard = TableChannels("chan-race"), queue.Queue()

    def listen() -> None:  # attaching in the listener's own thread, as the queue does
        pubsub = redis.Redis(connection_pool=pool).pubsub()
        channels.attach(pubsub)
        _hear(channels, pubsub, heard)

    threading.Thread(target=listen, daemon=True).start()
    assert pool.opening.wait(5)
    channels.entered("game:9")  # a socket sits down while the listener's connection opens
    sender = redis.Redis.from_url(infra.redis_url)
    assert dict(sender.pubsub_numsub(channels.channel(9)))[channels.channel(9).encode()] == 1
    sender.publish(channels.channel(9), "nine")
    sender.publish("chan-race", "base")
    assert {heard.get(timeout=5), heard.get(timeout=5)} == {("chan-race:game:9", "nine"), ("chan-race", "base")}
    pool.disconnect()
