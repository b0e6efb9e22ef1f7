"""What a Celery worker of ``services.ai_worker.app`` sets up around its tasks: JSON logs and metrics.

Connected to Celery's signals when ``services.ai_worker.app`` is imported, so before the
worker program sends the first of them:

- ``import_modules`` (main process, as the worker starts, before it imports the task
  modules): an empty ``PROMETHEUS_MULTIPROC_DIR`` for the children's counts
  (``worker_metrics`` says why).
- ``celeryd_init``: no banner, so stdout carries JSON lines only.
- ``setup_logging``: ``shared.logs`` instead of Celery's own formatting (a receiver
  here also keeps Celery from redirecting stdout), Python warnings included.
- ``worker_ready`` (main process): the metrics server on ``AI_WORKER_METRICS_PORT``.
- ``worker_process_init`` (each child): every task, game and kind series at 0.
- ``task_prerun`` / ``task_success`` / ``task_failure``: the task counters; a try the broker
  delivered again counts as retried at its start (``worker_metrics``).
- ``before_task_publish`` (any process that sends a task): the ``sent_at`` header the
  worker measures the queue wait from.

This module must not import prometheus_client at import time (see ``import_modules``).
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
import time
from typing import Any

from celery.signals import (
    before_task_publish,
    celeryd_init,
    import_modules,
    setup_logging,
    task_failure,
    task_prerun,
    task_success,
    worker_process_init,
    worker_ready,
)

from shared import logs, settings

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
SENT_AT_HEADER = "sent_at"

log = logging.getLogger("ai.worker")


def prepare_metrics_directory() -> str:
    """An empty multiprocess directory for this worker's children, named in the environment they inherit."""
    if "prometheus_client" in sys.modules and MULTIPROC_ENV not in os.environ:
        # The library chose its in-process value store already: the children's counts would not reach /metrics.
        raise RuntimeError("prometheus_client was imported before the worker set PROMETHEUS_MULTIPROC_DIR")
    path = os.environ.get(MULTIPROC_ENV)
    if path:
        # Left by an earlier run of this worker (a restarted container keeps its /tmp):
        # those children's counts would be summed into this run's.
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path, exist_ok=True)
    else:
        path = tempfile.mkdtemp(prefix="spielcenter-worker-metrics-")
        os.environ[MULTIPROC_ENV] = path
    return path


@import_modules.connect
def _before_the_task_modules(**_kwargs: object) -> None:
    prepare_metrics_directory()


@celeryd_init.connect
def _before_the_worker(instance: Any = None, options: dict | None = None, **_kwargs: object) -> None:
    # Already here, not only at setup_logging: Celery warns about running as root next.
    _json_logs((options or {}).get("loglevel"))
    if instance is not None:
        instance.quiet = True  # the start-up banner is plain text; worker_ready logs its facts as JSON


@setup_logging.connect
def _json_logs(loglevel: int | str | None = None, **_kwargs: object) -> None:
    level = loglevel if loglevel is not None else settings.load().log_level
    logs.configure("ai_worker", logging.getLevelName(level) if isinstance(level, int) else str(level).upper())
    logging.captureWarnings(True)  # warnings.warn (Celery's, numba's) as JSON lines, not stderr text


@worker_ready.connect
def _serve_metrics(sender: Any = None, **_kwargs: object) -> None:
    from services.ai_worker import worker_metrics

    app = sender.app if sender is not None else None
    queues = tuple(sorted((app.amqp.queues.consume_from or {}).keys())) if app is not None else ()
    config = settings.load()
    logs.event(log, "worker ready", hostname=getattr(sender, "hostname", None), queues=list(queues),
               concurrency=getattr(getattr(sender, "pool", None), "limit", None),
               metrics_port=config.ai_worker_metrics_port)
    if config.ai_worker_metrics_port:
        worker_metrics.serve(config.ai_worker_metrics_port, config.bind_host, queues)


@worker_process_init.connect
def _series_at_zero(**_kwargs: object) -> None:
    from services.ai_worker import worker_metrics
    from services.ai_worker.app import app
    from services.ai_worker.players import PLAYERS

    worker_metrics.initialise(app, tuple(sorted(PLAYERS)))


@task_prerun.connect
def _task_started(task: Any = None, **_kwargs: object) -> None:
    from services.ai_worker import worker_metrics

    worker_metrics.observe_started(task)


@task_success.connect
def _task_succeeded(sender: Any = None, **_kwargs: object) -> None:
    from services.ai_worker import worker_metrics

    worker_metrics.TASKS_SUCCEEDED.labels(sender.name, worker_metrics.task_queue(sender)).inc()


@task_failure.connect
def _task_failed(sender: Any = None, **_kwargs: object) -> None:
    from services.ai_worker import worker_metrics

    worker_metrics.TASKS_FAILED.labels(sender.name, worker_metrics.task_queue(sender)).inc()


@before_task_publish.connect
def _stamp_sent_at(headers: dict | None = None, **_kwargs: object) -> None:
    if headers is not None:
        headers.setdefault(SENT_AT_HEADER, time.time())
