"""The Celery application ``services.ai_worker.app`` (broker and results on REDIS_URL, one server or a
Sentinel group: ``shared.redis_address``).

Two queues so batch work can never starve a player waiting for a move:
``interactive`` (``ai.move``, ``ai.hint``, ``ai.ping``) and ``batch`` (``ai.review*``, ``ai.puzzles``).
``make run`` starts one worker on both queues; a deployment runs one worker per
queue.  Tasks deliver their answers through the Socket.IO message queue or the
database, so results are not stored by default.

Crash safety: a task is acknowledged only after it ran (``task_acks_late``), a worker
reserves one task at a time (``worker_prefetch_multiplier=1``), and a child killed
mid-task (SIGKILL, OOM) puts the task back (``task_reject_on_worker_lost``); tasks
must therefore be idempotent.  ``VISIBILITY_TIMEOUT`` is the one value used for
the broker and the result backend: an unacknowledged task is redelivered after it,
so it must exceed the longest task time limit plus queueing delay.

The event stream is on (``worker_send_task_events``, ``task_send_sent_event``), so Flower
and ``celery events`` see every task from sent to done; ``worker_start`` (imported here so
its signal receivers are connected before the worker program starts) sets up JSON logs
and the worker's Prometheus metrics.

This module must stay free of gevent: the worker is a plain prefork process, and
the game service imports it only to send tasks.
"""

from __future__ import annotations

from celery import Celery
from kombu import Queue

from services.ai_worker import worker_start  # noqa: F401  (connects the worker's signal receivers)
from shared import redis_address, settings

INTERACTIVE = "interactive"
BATCH = "batch"
VISIBILITY_TIMEOUT = 3600  # seconds; far above any AI time limit (seconds to minutes)

app = Celery("spielcenter", include=["services.ai_worker.ping", "services.ai_worker.move_task",
                                      "services.ai_worker.review_task", "services.ai_worker.puzzles"])
_redis = redis_address.celery_settings(settings.load().redis_url)
app.conf.update(
    broker_url=_redis["broker_url"],
    result_backend=_redis["result_backend"],
    task_queues=(Queue(INTERACTIVE), Queue(BATCH)),
    task_default_queue=BATCH,
    task_routes={
        "ai.move": {"queue": INTERACTIVE},
        "ai.hint": {"queue": INTERACTIVE},
        "ai.ping": {"queue": INTERACTIVE},
        "ai.review*": {"queue": BATCH},
        "ai.puzzles": {"queue": BATCH},
    },
    task_acks_late=True,
    worker_prefetch_multiplier=1,
    task_reject_on_worker_lost=True,
    task_ignore_result=True,
    broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT, **_redis["transport_options"]},
    result_backend_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT, **_redis["transport_options"]},
    visibility_timeout=VISIBILITY_TIMEOUT,
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
    worker_send_task_events=True,
    task_send_sent_event=True,
)
