"""Operations metrics: each service's /metrics after a real move.

Game service: ``spielcenter_game_move_seconds`` (histogram), ``spielcenter_game_moves_total``, ``spielcenter_game_sockets``,
``spielcenter_game_tables_open``.  Lobby: ``spielcenter_lobby_sockets``, ``spielcenter_celery_queue_length{queue}``,
``spielcenter_games_running{game,mode}``.  Rating: ``spielcenter_rating_games_rated{game}``,
``spielcenter_rating_events_pending``.
"""

from __future__ import annotations

import threading
import uuid
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from shared import scrape_metrics
from tests.lobby_fixtures import WartesaalClient, guest
from tests.metrics_scrape import scrape, scrape_until, value
from tests.stack import Infra, ServiceProcess
from tests.table_client import TableClient, legal_texts, load, my_turn, new_game, players


def test_a_move_shows_in_the_game_service_metrics_and_the_others_export_theirs(
        game_service: ServiceProcess, lobby: ServiceProcess, infra: Infra, log_dir: Path,  # noqa: F811
        pool) -> None:  # noqa: ANN001
    anna, bert = players(pool, 2)
    game_id = new_game(pool, "hexagon", (anna.id, bert.id))
    clients = [TableClient(game_service.url, account).connect() for account in (anna, bert)]
    wartesaal = WartesaalClient(lobby.url, guest(lobby.url))
    try:
        states = [client.join(game_id) for client in clients]
        before = scrape(f"{game_service.url}/metrics")
        mover = next(i for i, state in enumerate(states) if my_turn(state))
        clients[mover].emit("table:move", {"game_id": game_id, "version": states[mover]["version"],
                                           "move": legal_texts(states[mover])[0]})
        clients[mover].state(game_id, lambda s: len(s["moves"]) == 1)
        # The state reaches the players as it is published, a moment before the handler records the move.
        after = scrape_until(f"{game_service.url}/metrics", lambda s: value(s, "spielcenter_game_moves_total", game="hexagon")
                             > value(before, "spielcenter_game_moves_total", game="hexagon"))

        assert value(after, "spielcenter_game_moves_total", game="hexagon") == value(before, "spielcenter_game_moves_total",
                                                                         game="hexagon") + 1
        assert value(after, "spielcenter_game_move_seconds_count", game="hexagon") == value(
            before, "spielcenter_game_move_seconds_count", game="hexagon") + 1
        assert value(after, "spielcenter_game_move_seconds_sum", game="hexagon") > value(before, "spielcenter_game_move_seconds_sum",
                                                                             game="hexagon")
        assert value(after, "spielcenter_game_move_seconds_bucket", game="hexagon", le="+Inf") == value(
            after, "spielcenter_game_move_seconds_count", game="hexagon")
        assert value(after, "spielcenter_game_sockets") >= 2 and value(after, "spielcenter_game_tables_open") >= 1

        # A refused move is counted apart and leaves the latency alone.
        clients[mover].emit("table:move", {"game_id": game_id, "version": 0, "move": "nonsense"})
        clients[mover].error()
        refused = scrape_until(f"{game_service.url}/metrics", lambda s: value(s, "spielcenter_game_moves_refused_total")
                               > value(after, "spielcenter_game_moves_refused_total"))
        assert value(refused, "spielcenter_game_moves_refused_total") == value(after, "spielcenter_game_moves_refused_total") + 1
        assert value(refused, "spielcenter_game_move_seconds_count", game="hexagon") == value(
            after, "spielcenter_game_move_seconds_count", game="hexagon")

        # Both players sit on this process, as the first move's publication told it (Redis counted one
        # listener of the table's channel): the answer is shown to them before its commit.
        shown_before = value(refused, "spielcenter_game_moves_shown_first_total")
        answer = clients[1 - mover].state(game_id, lambda s: len(s["moves"]) == 1)
        clients[1 - mover].emit("table:move", {"game_id": game_id, "version": answer["version"],
                                               "move": legal_texts(answer)[0]})
        clients[mover].state(game_id, lambda s: len(s["moves"]) == 2)
        shown = scrape_until(f"{game_service.url}/metrics", lambda s: value(s, "spielcenter_game_moves_total", game="hexagon")
                             > value(refused, "spielcenter_game_moves_total", game="hexagon"))
        assert value(shown, "spielcenter_game_moves_shown_first_total") >= shown_before + 1
        assert len(load(pool, game_id).moves) == 2

        wartesaal.wait_for("welcome")
        # The cluster-wide series come from the lobby holding the exporter lease (another lobby
        # of this test process may hold it for a moment: METRICS_LEASE_SECONDS is 2 here).
        lobby_samples = scrape_until(f"{lobby.url}/metrics", lambda s: ("spielcenter_celery_queue_length",
                                                           (("queue", "batch"),)) in s)
        assert value(lobby_samples, "spielcenter_lobby_sockets") >= 1
        assert ("spielcenter_celery_queue_length", (("queue", "interactive"),)) in lobby_samples
        assert ("spielcenter_celery_queue_length", (("queue", "batch"),)) in lobby_samples
        assert value(lobby_samples, "spielcenter_games_running", game="hexagon", mode="wartesaal") >= 1
    finally:
        for client in clients:
            client.close()
        threading.Thread(target=wartesaal.close, daemon=True).start()  # its close handshake lingers ~2 s

    rating = ServiceProcess("services.rating", infra, "RATING_PORT", log_dir,
                            EVENT_CONSUMER_NAME=f"rating-metrics-{uuid.uuid4().hex[:6]}").start()
    try:
        rating_samples = scrape_until(f"{rating.url}/metrics", lambda s: ("spielcenter_rating_events_pending", ()) in s)
        assert ("spielcenter_rating_games_rated", ()) in rating_samples
        assert ("spielcenter_rating_events_pending", ()) in rating_samples
    finally:
        rating.stop()


def test_queue_lengths_are_read_from_redis_at_each_scrape(infra: Infra) -> None:
    """The collector against real Redis, on queue names of its own (a worker must not eat them)."""
    client = redis.Redis.from_url(infra.redis_url)
    queues = (f"probe-{uuid.uuid4().hex[:6]}", f"probe-{uuid.uuid4().hex[:6]}")
    try:
        client.rpush(queues[0], "a", "b", "c")
        client.rpush(queues[0] + "\x06\x163", "d")  # a priority message of the same queue
        collector = scrape_metrics.CeleryQueueLengths(client, queues)
        lengths = {s.labels["queue"]: s.value for family in collector.collect() for s in family.samples}
        assert lengths == {queues[0]: 4, queues[1]: 0}
        client.lpop(queues[0])
        lengths = {s.labels["queue"]: s.value for family in collector.collect() for s in family.samples}
        assert lengths[queues[0]] == 3
    finally:
        client.delete(queues[0], queues[0] + "\x06\x163")
        client.close()
    # Redis gone: the series is left out, /metrics still answers.
    nowhere = redis.Redis(port=1, socket_connect_timeout=0.5, retry=Retry(NoBackoff(), 0))
    gone = scrape_metrics.CeleryQueueLengths(nowhere, ("interactive",))
    assert list(gone.collect()) == []
