"""``/livez``, ``/readyz`` (and ``/healthz``) and ``/metrics`` for every HTTP service.

Two questions an orchestrator asks, kept apart so that a blip of a shared store does not
restart every process at once:

- ``/livez``: is this process alive?  200 whenever its event loop gets to answer and its own
  vital parts run (e.g. the rating service's consumer greenlet); it asks no store.  A liveness probe restarts only a process that hangs, never one whose PostgreSQL or
  Redis is away (a restart would not bring them back, and would drop every socket).
- ``/readyz``: can it serve now?  200 only when PostgreSQL and Redis both answer and the
  process is not stopping, 503 otherwise (JSON with each check), so a readiness probe takes it
  out of rotation while it cannot serve and puts it back when it can.

``/healthz`` is ``/readyz`` under its older name, for monitors set up against it.
/metrics is the Prometheus text format of this process's registry.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, jsonify
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest


def _run(checks: dict[str, Callable[[], bool]]) -> dict[str, bool]:
    results = {}
    for name, check in checks.items():
        try:
            results[name] = bool(check())
        except Exception:
            results[name] = False
    return results


def health_blueprint(checks: dict[str, Callable[[], bool]], stopping: Callable[[], bool] = lambda: False,
                     vital: dict[str, Callable[[], bool]] | None = None) -> Blueprint:
    """A blueprint with /livez, /readyz (and /healthz), and /metrics.

    ``checks`` (name → callable returning bool) are what /readyz asks: the stores.  ``vital``
    ones are parts of the process itself, which a restart would mend: both endpoints ask them.
    ``stopping()`` true makes /readyz 503: the process is handing its work over."""
    bp = Blueprint("health", __name__)
    vital = vital or {}

    @bp.get("/livez")
    def livez():  # noqa: ANN202  (Flask view)
        results = _run(vital)
        ok = all(results.values())
        return jsonify({"ok": ok, "checks": results}), (200 if ok else 503)

    def readyz():  # noqa: ANN202
        results = _run({**checks, **vital})
        draining = stopping()
        ok = all(results.values()) and not draining
        return jsonify({"ok": ok, "checks": results, "stopping": draining}), (200 if ok else 503)

    bp.add_url_rule("/readyz", "readyz", readyz, methods=["GET"])
    bp.add_url_rule("/healthz", "healthz", readyz, methods=["GET"])

    @bp.get("/metrics")
    def metrics():  # noqa: ANN202
        return Response(generate_latest(), mimetype=CONTENT_TYPE_LATEST)

    return bp


def redis_check(client) -> Callable[[], bool]:  # noqa: ANN001  (redis.Redis)
    def check() -> bool:
        return bool(client.ping())

    return check
