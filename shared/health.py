"""``/healthz`` and ``/metrics`` for every HTTP service.

/healthz answers 200 only when PostgreSQL and Redis both answer, 503 otherwise, so
an orchestrator takes a service out of rotation when its backing stores are gone.
/metrics is the Prometheus text format of this process's registry.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, jsonify
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest


def health_blueprint(checks: dict[str, Callable[[], bool]]) -> Blueprint:
    """A blueprint with /healthz running ``checks`` (name → callable returning bool) and /metrics."""
    bp = Blueprint("health", __name__)

    @bp.get("/healthz")
    def healthz():  # noqa: ANN202  (Flask view)
        results = {}
        for name, check in checks.items():
            try:
                results[name] = bool(check())
            except Exception:
                results[name] = False
        ok = all(results.values())
        return jsonify({"ok": ok, "checks": results}), (200 if ok else 503)

    @bp.get("/metrics")
    def metrics():  # noqa: ANN202
        return Response(generate_latest(), mimetype=CONTENT_TYPE_LATEST)

    return bp


def redis_check(client) -> Callable[[], bool]:  # noqa: ANN001  (redis.Redis)
    def check() -> bool:
        return bool(client.ping())

    return check
