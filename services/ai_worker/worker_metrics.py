"""Prometheus metrics of a Celery worker, served by its main process on ``AI_WORKER_METRICS_PORT``.

The tasks run in prefork children, but only the main process can serve HTTP for the
pod, and a child's counters die with it (``--max-tasks-per-child``, an OOM kill).  So the
children count in prometheus_client's multiprocess mode: every child writes its values
to memory-mapped files of its own (named by pid) in ``PROMETHEUS_MULTIPROC_DIR``, and the
main process sums the files of all children, living and dead, at each scrape.  A
per-child HTTP port would need one scrape target per child and lose a recycled child's
counts; a queue of values sent to the parent would be a second transport to keep alive.

The directory is made (or emptied) by the main process when the worker starts
(``services.ai_worker.worker_start``, at Celery's ``celeryd_init``), before any task module
imports this one, because prometheus_client picks its value store when first imported.
What is only known to the main process, the tasks it took from the broker and has not
finished, is read from Celery's worker state at scrape time (``TasksInFlight``); that
number plus the queue's length is the signal the interactive workers scale on.

Series (all ``spielcenter_ai_…``):

- ``tasks_started_total``, ``tasks_succeeded_total``, ``tasks_failed_total``,
  ``tasks_retried_total`` ``{task,queue}``.  No task here calls ``Task.retry``: a task is tried
  again when the broker delivers it again after a try that did not finish (its child killed, say
  by the kernel's OOM killer, with ``task_reject_on_worker_lost``; a worker stopped while holding
  it; the visibility timeout), and such a try counts as retried when it starts.
  Once every task taken has ended, started = succeeded + failed + retried (each try that did not
  finish is started again);
- ``tasks_in_flight{queue}``: taken from the broker by this worker, not finished;
- ``queue_wait_seconds{task,queue}``: from the send (the ``sent_at`` header the sending
  process stamps) to a child starting the task;
- ``search_seconds{game,kind}`` and ``deadline_misses_total{game,kind}``: a computer move's
  or hint's search, and the answers published after the request's deadline;
- ``review_parts_done_total{game}``, ``review_moves_judged_total{game}``.

The metric objects are created with ``registry=None``: a process that imports the task
modules only to send tasks (the game service) does not export them.
"""

from __future__ import annotations

import fnmatch
import logging
import time
from collections.abc import Iterator
from typing import Any

from prometheus_client import Counter, Histogram

from services.ai_worker.worker_start import SENT_AT_HEADER

log = logging.getLogger("ai.metrics")

_TASK_LABELS = ("task", "queue")
TASKS_STARTED = Counter("spielcenter_ai_tasks_started_total", "Tasks a worker child started", _TASK_LABELS,
                        registry=None)
TASKS_SUCCEEDED = Counter("spielcenter_ai_tasks_succeeded_total", "Tasks that returned", _TASK_LABELS, registry=None)
TASKS_FAILED = Counter("spielcenter_ai_tasks_failed_total", "Tasks that raised", _TASK_LABELS, registry=None)
TASKS_RETRIED = Counter("spielcenter_ai_tasks_retried_total",
                        "Tasks started again after a try that did not finish (delivered again by the broker)",
                        _TASK_LABELS, registry=None)
QUEUE_WAIT = Histogram("spielcenter_ai_queue_wait_seconds", "From sending a task to a worker child starting it",
                       _TASK_LABELS, registry=None,
                       buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900))
# Move budgets are 0.1–1.8 s (hints and Stark up to a few seconds): buckets around them.
SEARCH_SECONDS = Histogram("spielcenter_ai_search_seconds", "Search time of a computer move or hint",
                           ("game", "kind"), registry=None,
                           buckets=(0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.8, 2, 3, 5, 10, 30))
DEADLINE_MISSES = Counter("spielcenter_ai_deadline_misses_total", "Answers published after the request's deadline",
                          ("game", "kind"), registry=None)
REVIEW_PARTS_DONE = Counter("spielcenter_ai_review_parts_done_total", "Review parts judged to their end", ("game",),
                            registry=None)
REVIEW_MOVES_JUDGED = Counter("spielcenter_ai_review_moves_judged_total", "Moves judged and stored by reviews",
                              ("game",), registry=None)


def initialise(app: Any, games: tuple[str, ...]) -> None:
    """Create every series this child can move, at 0 (a worker child at start).

    A series that does not exist yet is not exported, so ``rate()`` over it and an alert on
    it would see nothing until the first failure; at 0 from the start, they see the first one.
    """
    for name in sorted(n for n in app.tasks if not n.startswith("celery.")):
        queue = next((route["queue"] for pattern, route in (app.conf.task_routes or {}).items()
                      if fnmatch.fnmatchcase(name, pattern)), app.conf.task_default_queue)
        for metric in (TASKS_STARTED, TASKS_SUCCEEDED, TASKS_FAILED, TASKS_RETRIED, QUEUE_WAIT):
            metric.labels(name, queue)
    for game in games:
        for kind in ("move", "hint"):
            SEARCH_SECONDS.labels(game, kind)
            DEADLINE_MISSES.labels(game, kind)
        REVIEW_PARTS_DONE.labels(game)
        REVIEW_MOVES_JUDGED.labels(game)


def task_queue(task: Any) -> str:
    """The queue a running task came from (its routing key on the default exchange)."""
    info = getattr(task.request, "delivery_info", None) or {}
    return str(info.get("routing_key") or "unknown")


def observe_started(task: Any) -> None:
    queue = task_queue(task)
    TASKS_STARTED.labels(task.name, queue).inc()
    # kombu marks a message it puts back into the queue (a reject with requeue, a restore of unacknowledged ones).
    if (getattr(task.request, "delivery_info", None) or {}).get("redelivered"):
        TASKS_RETRIED.labels(task.name, queue).inc()
    sent_at = getattr(task.request, SENT_AT_HEADER, None)
    if isinstance(sent_at, int | float):
        QUEUE_WAIT.labels(task.name, queue).observe(max(0.0, time.time() - sent_at))


def observe_search(game: str, kind: str, seconds: float, answered_at: float, deadline: float) -> None:
    SEARCH_SECONDS.labels(game, kind).observe(seconds)
    if answered_at > deadline:
        DEADLINE_MISSES.labels(game, kind).inc()


class TasksInFlight:
    """``spielcenter_ai_tasks_in_flight{queue}`` from the main process's worker state."""

    def __init__(self, queues: tuple[str, ...]) -> None:
        self.queues = queues

    def collect(self) -> Iterator[Any]:
        from celery.worker import state
        from prometheus_client.core import GaugeMetricFamily

        counts = dict.fromkeys(self.queues, 0)
        for request in list(state.reserved_requests):
            queue = (request.delivery_info or {}).get("routing_key") or "unknown"
            counts[queue] = counts.get(queue, 0) + 1
        family = GaugeMetricFamily("spielcenter_ai_tasks_in_flight",
                                   "Tasks this worker took from the broker and has not finished (running or"
                                   " reserved for a free child)", labels=["queue"])
        for queue, n in sorted(counts.items()):
            family.add_metric([queue], n)
        yield family


def serve(port: int, host: str, queues: tuple[str, ...]) -> None:
    """Serve the children's summed metrics and the in-flight gauge on ``host:port`` (a thread)."""
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    registry.register(TasksInFlight(queues))
    try:
        start_http_server(port, addr=host, registry=registry)
    except OSError as exc:  # a second worker on one machine: it runs, unobserved
        log.warning("worker metrics not served on %s:%s: %r", host, port, exc)
        return
    log.info("worker metrics on http://%s:%s/metrics", host, port)
