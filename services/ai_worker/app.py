"""The Celery application ``services.ai_worker.app`` (broker and results on REDIS_URL).

Two queues so batch work can never starve a player waiting for a move:
``interactive`` (``ai.move``, ``ai.hint``, ``ai.ping``) and ``batch`` (``ai.review*``).
``make run`` starts one worker on both queues; a deployment runs one worker per
queue.  Tasks deliver their answers through the Socket.IO message queue or the
database, so results are not stored by default.

Crash safety: a task is acknowledged only after it ran (``task_acks_late``), a worker
reserves one task at a time (``worker_prefetch_multiplier=1``), and a child killed
mid-task (SIGKILL, OOM) puts the task back (``task_reject_on_worker_lost``); tasks
must therefore be idempotent.  ``VISIBILITY_TIMEOUT`` is the one value used for
the broker and the result backend: an unacknowledged task is redelivered after it,
so it must exceed the longest task time limit plus queueing delay.

This module must stay free of gevent: the worker is a plain prefork process, and
the game service imports it only to send tasks.
"""

from __future__ import annotations

from celery import Celery
from kombu import Queue

from shared import settings

INTERACTIVE = "interactive"
BATCH = "batch"
VISIBILITY_TIMEOUT = 3600  # seconds; far above any AI time limit (seconds to minutes)

app = Celery("spielcenter", include=["services.ai_worker.ping", "services.ai_worker.move_task",
                                      "services.ai_worker.review_task"])
_redis_url = settings.load().redis_url
app.conf.update(
    broker_url=_redis_url,
    result_backend=_redis_url,
    task_queues=(Queue(INTERACTIVE), Queue(BATCH)),
    task_default_queue=BATCH,
    task_routes={
        "ai.move": {"queue": INTERACTIVE},
        "ai.hint": {"queue": INTERACTIVE},
        "ai.ping": {"queue": INTERACTIVE},
        "ai.review*": {"queue": BATCH},
    },
    task_acks_late=True,
    worker_prefetch_multiplier=1,
    task_reject_on_worker_lost=True,
    task_ignore_result=True,
    broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT},
    result_backend_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT},
    visibility_timeout=VISIBILITY_TIMEOUT,
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
)
