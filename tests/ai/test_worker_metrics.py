"""A Celery worker is observable: its main process serves the children's metrics, its log is JSON lines,
and it sends Celery's task events.

A real prefork worker (``interactive_worker``, one child) takes a computer move sent the
way the game service sends it; the worker's ``/metrics`` shows the task counted by task
and queue, the search observed, the task in flight while it ran, the queue wait from the
``sent_at`` header, and a move answered after its deadline as a miss.  A task that raises
counts as failed; a task whose child is killed mid-search is delivered again, counts as
retried when it starts again, and is answered.  An event receiver on the broker, as Flower
runs one, sees the worker and every step of a task, from sent to succeeded or failed.
"""

from __future__ import annotations

import json
import queue
import signal
import threading
import time
import uuid

import psutil

from shared.ai_protocol import MoveRequest, new_request
from shared.games import get_game
from tests.ai.remote_match import MatchDriver, sender_app
from tests.metrics_scrape import scrape_until, value
from tests.stack import CeleryWorker, Infra, wait_until

MOVE = {"task": "ai.move", "queue": "interactive"}
ENDS = ("succeeded", "failed", "retried")  # how a started try is accounted for once it ended


def _hexagon_request(budget: float) -> MoveRequest:
    """A move for a middle-game position, where the search uses its whole budget (no opening book)."""
    game = get_game("hexagon")
    state = game.new_game(game.default_options(), 3)
    for _ in range(8):
        seat = game.to_move(state)[0]
        state = game.apply(state, sorted(m.text for m in game.legal_moves(state, seat))[0], seat)
    seat = game.to_move(state)[0]
    return new_request("move", "hexagon", f"t-metrics-{uuid.uuid4().hex[:8]}", 8, seat, game.view(state, seat),
                       "stark", budget)


def _settled(url: str) -> dict:
    """A scrape after every task the worker took so far was counted to its end (an answer is on
    the stream a moment before the child counts its task as succeeded)."""
    def done(s: dict) -> bool:
        # A try whose child was killed never ends; the broker's next delivery of it counts as retried.
        finished = sum(value(s, f"spielcenter_ai_tasks_{end}_total", **MOVE) for end in ENDS)
        return (value(s, "spielcenter_ai_tasks_in_flight", queue="interactive") == 0
                and value(s, "spielcenter_ai_tasks_started_total", **MOVE) == finished)

    samples = scrape_until(url, done, 10)
    assert done(samples), "the worker's counts did not settle"
    return samples


def _answered(driver: MatchDriver, request: MoveRequest) -> bool:
    return any(json.loads(fields["answer"])["request_id"] == request.request_id
               for _id, fields in driver.redis.xrevrange(driver.inbox.stream, count=200))


def test_a_computer_move_moves_the_worker_counters_and_its_search_time(
        interactive_worker: CeleryWorker, driver: MatchDriver) -> None:
    url = interactive_worker.metrics_url
    before = _settled(url)
    request = _hexagon_request(1.0)
    driver.requester.request(request)

    # While the child searches, the main process counts the task as in flight (the scaling signal).
    busy = scrape_until(url, lambda s: value(s, "spielcenter_ai_tasks_in_flight", queue="interactive") == 1, 5)
    assert value(busy, "spielcenter_ai_tasks_in_flight", queue="interactive") == 1
    wait_until(lambda: _answered(driver, request), 15, "the worker's answer on the stream")
    after = _settled(url)

    for counter in ("spielcenter_ai_tasks_started_total", "spielcenter_ai_tasks_succeeded_total"):
        assert value(after, counter, **MOVE) == value(before, counter, **MOVE) + 1, counter
    assert value(after, "spielcenter_ai_tasks_failed_total", **MOVE) == value(
        before, "spielcenter_ai_tasks_failed_total", **MOVE)
    searches = value(after, "spielcenter_ai_search_seconds_count", game="hexagon", kind="move") - value(
        before, "spielcenter_ai_search_seconds_count", game="hexagon", kind="move")
    searched = value(after, "spielcenter_ai_search_seconds_sum", game="hexagon", kind="move") - value(
        before, "spielcenter_ai_search_seconds_sum", game="hexagon", kind="move")
    assert searches == 1
    assert 0.3 < searched < 1.5  # a search of most of its one-second budget, not an instant answer
    assert value(after, "spielcenter_ai_queue_wait_seconds_count", **MOVE) == value(
        before, "spielcenter_ai_queue_wait_seconds_count", **MOVE) + 1
    assert value(after, "spielcenter_ai_deadline_misses_total", game="hexagon", kind="move") == value(
        before, "spielcenter_ai_deadline_misses_total", game="hexagon", kind="move")
    assert value(after, "spielcenter_ai_tasks_in_flight", queue="interactive") == 0


def test_a_move_answered_after_its_deadline_counts_as_a_miss(
        interactive_worker: CeleryWorker, driver: MatchDriver, celery_sender_app) -> None:  # noqa: ANN001
    before = _settled(interactive_worker.metrics_url)
    late = _hexagon_request(-0.5)  # already past its deadline when sent; no expiry, so a worker takes it
    celery_sender_app.send_task("ai.move", args=[late.to_dict()], task_id=late.request_id)
    wait_until(lambda: _answered(driver, late), 15, "the late answer on the stream")
    after = scrape_until(interactive_worker.metrics_url,
                         lambda s: value(s, "spielcenter_ai_deadline_misses_total", game="hexagon", kind="move")
                         > value(before, "spielcenter_ai_deadline_misses_total", game="hexagon", kind="move"))
    assert value(after, "spielcenter_ai_deadline_misses_total", game="hexagon", kind="move") == value(
        before, "spielcenter_ai_deadline_misses_total", game="hexagon", kind="move") + 1


def test_the_worker_logs_json_lines_only(interactive_worker: CeleryWorker, driver: MatchDriver) -> None:
    request = _hexagon_request(0.2)
    driver.requester.request(request)
    wait_until(lambda: _answered(driver, request), 15, "the worker's answer on the stream")
    # Celery logs the task's success from the main process once the child reported it.
    wait_until(lambda: request.request_id in interactive_worker.log_path.read_text(), 10, "the task's log line")
    lines = [line for line in interactive_worker.log_path.read_text().splitlines() if line.strip()]
    entries = []
    for line in lines:
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            raise AssertionError(f"not a JSON line in the worker's log: {line!r}") from None
    assert all({"ts", "level", "service", "logger", "msg"} <= entry.keys() for entry in entries)
    ready = [e for e in entries if e["msg"] == "worker ready"]
    assert ready and ready[0]["queues"] == ["interactive"]
    assert any(request.request_id in e["msg"] and "succeeded" in e["msg"] for e in entries)
    assert time.time() - entries[-1]["ts"] < 60


def _count(samples: dict, end: str) -> float:
    return value(samples, f"spielcenter_ai_tasks_{end}_total", **MOVE)


def test_a_task_that_raises_counts_as_failed(interactive_worker: CeleryWorker, celery_sender_app) -> None:  # noqa: ANN001
    before = _settled(interactive_worker.metrics_url)
    celery_sender_app.send_task("ai.move", args=[{"not": "a move request"}])
    after = scrape_until(interactive_worker.metrics_url, lambda s: _count(s, "failed") > _count(before, "failed"))
    assert _count(after, "failed") == _count(before, "failed") + 1
    after = _settled(interactive_worker.metrics_url)
    assert _count(after, "started") == _count(before, "started") + 1
    assert _count(after, "succeeded") == _count(before, "succeeded")


def _child(worker: CeleryWorker) -> psutil.Process:
    assert worker.process is not None
    children = psutil.Process(worker.process.pid).children()
    assert len(children) == 1, children  # concurrency 1
    return children[0]


def test_a_task_whose_child_is_killed_is_tried_again_and_counts_as_retried(
        interactive_worker: CeleryWorker, driver: MatchDriver) -> None:
    url = interactive_worker.metrics_url
    before = _settled(url)
    request = _hexagon_request(6.0)  # long enough to be killed mid-search
    driver.requester.request(request)
    started = scrape_until(url, lambda s: _count(s, "started") == _count(before, "started") + 1, 10)
    assert _count(started, "started") == _count(before, "started") + 1, "the child did not start the move"
    child = _child(interactive_worker)
    child.send_signal(signal.SIGKILL)  # as the OOM killer would
    child.wait(10)

    # The main process puts the task back (task_reject_on_worker_lost); a new child takes it again.
    wait_until(lambda: _answered(driver, request), 60, "the answer of the move tried again")
    after = _settled(url)
    assert _child(interactive_worker).pid != child.pid
    assert _count(after, "retried") == _count(before, "retried") + 1
    assert _count(after, "started") == _count(before, "started") + 2
    assert _count(after, "succeeded") == _count(before, "succeeded") + 1
    assert _count(after, "failed") == _count(before, "failed")


def _worker_hostname(worker: CeleryWorker) -> str:
    import socket

    name = worker.args[worker.args.index("-n") + 1]
    return name.replace("%h", socket.gethostname())


def test_an_event_receiver_sees_the_worker_and_each_step_of_its_tasks(
        interactive_worker: CeleryWorker, driver: MatchDriver, infra: Infra) -> None:
    """What Flower does: an event receiver on the broker, its events folded into Celery's State."""
    from services.ai_worker.app import app as worker_app

    assert worker_app.conf.worker_send_task_events and worker_app.conf.task_send_sent_event
    sender = sender_app(infra.redis_url)
    sender.conf.task_send_sent_event = worker_app.conf.task_send_sent_event  # as the game service sends
    events: queue.Queue = queue.Queue()
    state = sender.events.State()
    hostname = _worker_hostname(interactive_worker)
    seen: list[dict] = []

    def take(until, timeout: float, what: str) -> None:  # noqa: ANN001
        deadline = time.monotonic() + timeout
        while not until():
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no {what} in the events: {[e['type'] for e in seen]}"
            try:
                event = events.get(timeout=remaining)
            except queue.Empty:
                continue
            state.event(event)
            seen.append(event)

    try:
        with sender.connection_for_read() as connection:
            receiver = sender.events.Receiver(connection, handlers={"*": events.put})
            # wakeup: the receiver asks every worker for a heartbeat once it listens.
            listening = threading.Thread(target=receiver.capture,
                                         kwargs={"limit": None, "timeout": None, "wakeup": True}, daemon=True)
            listening.start()
            try:
                take(lambda: hostname in state.workers and state.workers[hostname].alive, 30, "heartbeat of the worker")
                good = _hexagon_request(0.2)
                sender.send_task("ai.move", args=[good.to_dict()], task_id=good.request_id)
                bad = f"t-events-{uuid.uuid4().hex[:8]}"
                sender.send_task("ai.move", args=[{"not": "a move request"}], task_id=bad)

                def ended(task_id: str) -> bool:
                    return task_id in state.tasks and state.tasks[task_id].state in ("SUCCESS", "FAILURE")

                take(lambda: ended(good.request_id) and ended(bad), 30, "end of both tasks")
            finally:
                receiver.should_stop = True
                listening.join(10)
    finally:
        sender.close()
    steps = {task_id: [e["type"] for e in seen if e.get("uuid") == task_id] for task_id in (good.request_id, bad)}
    # task-sent comes from the sender, the others from the worker: two producers on the event
    # exchange, so the sender's event may arrive after the worker's first (seen in a parallel run).
    for task_id, end in ((good.request_id, "task-succeeded"), (bad, "task-failed")):
        assert sorted(steps[task_id]) == sorted(["task-sent", "task-received", "task-started", end]), steps
        assert [step for step in steps[task_id] if step != "task-sent"] == ["task-received", "task-started", end], steps
    assert state.tasks[good.request_id].name == "ai.move" and state.tasks[good.request_id].worker.hostname == hostname
    assert state.tasks[good.request_id].routing_key == "interactive"
    assert state.tasks[bad].state == "FAILURE" and "ProtocolError" in state.tasks[bad].exception
