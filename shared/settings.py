"""Every setting of every service, read once from environment variables.

The defaults work on a developer machine: ``make run`` starts an embedded
PostgreSQL and Redis and passes their URLs to the services it starts.  In a real
deployment every value comes from the environment (compose file, Kubernetes
ConfigMap/Secret); ``tests/deploy/test_deploy.py`` checks that those name exactly the
variables read here.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


@dataclass(frozen=True)
class Settings:
    database_url: str
    redis_url: str
    secret_key: str
    lobby_port: int
    game_port: int
    rating_port: int
    lobby_url: str  # where browsers reach the lobby (printed by `make run`)
    game_url: str  # where the lobby/browser reach the game service
    rating_url: str  # where the lobby's /api/rating proxy reaches the rating service
    log_level: str
    db_pool_max: int
    bind_host: str  # interface the HTTP services listen on (0.0.0.0 inside containers)
    session_max_age: int  # seconds a signed session token (shared/auth_token.py) stays valid
    event_consumer_name: str  # this process's name in Redis stream consumer groups
    event_claim_idle_ms: int  # stream entries pending this long on a dead consumer are taken over
    event_retention_days: float  # processed_events rows kept this long; older events are not applied (event_stream)
    ai_worker_concurrency: int  # prefork children of the Celery worker that `make run` starts
    ai_worker_metrics_port: int  # a Celery worker's main process serves /metrics here (0: off)
    metrics_lease_seconds: float  # one replica exports the cluster-wide gauges; its lease outlives a scrape interval
    presence_ttl_seconds: float  # a lobby process silent this long is taken for dead; its users leave the list
    cookie_secure: bool  # send the session cookie only over HTTPS (true behind TLS in production)
    trusted_proxy_hops: int  # proxies in front of the lobby whose X-Forwarded-For is believed (0: none)
    guests_per_hour: int  # new guests one address may create per hour
    registrations_per_hour: int  # registrations one address may make per hour


def load() -> Settings:
    """Read the environment now (tests change it between service starts)."""
    lobby_port = _int("LOBBY_PORT", 8000)
    game_port = _int("GAME_PORT", 8001)
    rating_port = _int("RATING_PORT", 8002)
    return Settings(
        database_url=os.environ.get("DATABASE_URL", "postgresql://postgres@localhost:5432/spielcenter"),
        redis_url=os.environ.get("REDIS_URL", "redis://localhost:6379/0"),
        secret_key=os.environ.get("SECRET_KEY", "dev-only-secret-change-me"),
        lobby_port=lobby_port,
        game_port=game_port,
        rating_port=rating_port,
        lobby_url=os.environ.get("PUBLIC_URL", f"http://localhost:{lobby_port}"),
        game_url=os.environ.get("GAME_URL", f"http://localhost:{game_port}"),
        rating_url=os.environ.get("RATING_URL", f"http://127.0.0.1:{rating_port}"),
        log_level=os.environ.get("LOG_LEVEL", "INFO"),
        db_pool_max=_int("DB_POOL_MAX", 10),
        bind_host=os.environ.get("BIND_HOST", "127.0.0.1"),
        session_max_age=_int("SESSION_MAX_AGE", 14 * 24 * 3600),
        event_consumer_name=os.environ.get("EVENT_CONSUMER_NAME", f"{socket.gethostname()}-{os.getpid()}"),
        event_claim_idle_ms=_int("EVENT_CLAIM_IDLE_MS", 60_000),
        event_retention_days=float(os.environ.get("EVENT_RETENTION_DAYS", 30)),
        ai_worker_concurrency=_int("AI_WORKER_CONCURRENCY", max(1, (os.cpu_count() or 1))),
        ai_worker_metrics_port=_int("AI_WORKER_METRICS_PORT", 8003),
        metrics_lease_seconds=float(os.environ.get("METRICS_LEASE_SECONDS", 60)),
        presence_ttl_seconds=float(os.environ.get("PRESENCE_TTL_SECONDS", 30)),
        cookie_secure=os.environ.get("COOKIE_SECURE", "false").lower() in ("1", "true", "yes"),
        trusted_proxy_hops=_int("TRUSTED_PROXY_HOPS", 0),
        guests_per_hour=_int("GUESTS_PER_HOUR", 20),
        registrations_per_hour=_int("REGISTRATIONS_PER_HOUR", 10),
    )
