"""``ai.move`` and ``ai.hint``: one computer decision, always by the deadline.

Both take a :class:`shared.ai_protocol.MoveRequest` as a dict.  The wall-clock
deadline becomes a monotonic one minus ``WORKER_SAFETY_MARGIN`` and ``WORKER_SAFETY_SHARE``
of the time left; the player's search returns its best move so far when that comes, so
the answer is never late because a search overran.  ``soft_time_limit`` / ``time_limit`` are backstops only, for a player
that hangs outright.

``ai.move`` writes a :class:`MoveAnswer` to the ``ai:answers`` stream (durable: the
game service consumes it); ``ai.hint`` emits ``ai_hint`` to the asker's Socket.IO room
``user:<uid>`` (a lost hint costs a click).  A redelivered task (worker child killed)
simply decides again: the receiver keeps the first answer for the ply and drops the
rest.
"""

from __future__ import annotations

import gc
import inspect
import logging
import os
import random
import socket
import time
from types import ModuleType

import redis
from celery.signals import worker_process_init

from services.ai_worker.app import app
from services.ai_worker.ping import emitter
from shared import settings
from shared.ai_protocol import WORKER_SAFETY_MARGIN, WORKER_SAFETY_SHARE, MoveAnswer, MoveRequest, publish_answer

log = logging.getLogger("ai.move")

# A decision gets at least this long even when the request arrives late: a move a
# little late is still better than none, and the receiver decides whether it is stale.
MIN_SEARCH = 0.02
SOFT_LIMIT_S = 60
HARD_LIMIT_S = 90

_redis: redis.Redis | None = None
_redis_pid: int | None = None


def answer_client() -> redis.Redis:
    """This process's Redis client for the answer stream (prefork children must not share one)."""
    global _redis, _redis_pid
    if _redis is None or _redis_pid != os.getpid():
        _redis = redis.Redis.from_url(settings.load().redis_url, decode_responses=True)
        _redis_pid = os.getpid()
    return _redis


def player_for(game: str) -> ModuleType:
    """The computer player module of ``game`` (``choose_move``, ``analyse``, ``value_of``)."""
    from services.ai_worker.players import PLAYERS

    try:
        return PLAYERS[game]
    except KeyError:
        raise ValueError(f"no computer player for {game!r}") from None


def monotonic_deadline(epoch_deadline: float, margin: float = WORKER_SAFETY_MARGIN,
                       share: float = WORKER_SAFETY_SHARE) -> float:
    """The monotonic clock value matching ``epoch_deadline`` minus ``margin`` and ``share`` of
    the time left (never before now + MIN_SEARCH)."""
    now_mono = time.monotonic()
    left = epoch_deadline - time.time()
    return max(now_mono + left - margin - share * max(left, 0.0), now_mono + MIN_SEARCH)


def _takes_stats(player: ModuleType) -> bool:
    return "stats" in inspect.signature(player.choose_move).parameters


def decide(request: MoveRequest, stats: dict[str, int] | None = None) -> tuple[str, float | None]:
    """The move for ``request`` (and its value for hints), by the request's deadline.

    ``stats`` receives the search's ``nodes`` / ``depth`` when the player reports them
    (hexagon and bullet do); the benchmark reads them from the answer.
    """
    player = player_for(request.game)
    # Seeded by the request: a redelivered task makes the same choice.
    rng = random.Random(request.request_id)
    deadline = monotonic_deadline(request.deadline)
    if request.kind == "hint":
        best = player.analyse(request.view, deadline, rng, limit=1)
        return best[0][0], float(best[0][1])
    if stats is not None and _takes_stats(player):
        return player.choose_move(request.view, request.strength, deadline, rng, stats=stats), None
    return player.choose_move(request.view, request.strength, deadline, rng), None


def _worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


@app.task(name="ai.move", ignore_result=True, soft_time_limit=SOFT_LIMIT_S, time_limit=HARD_LIMIT_S)
def move(request_data: dict) -> str | None:
    """Decide a computer move and put the answer on the ``ai:answers`` stream."""
    request = MoveRequest.from_dict(request_data)
    error = None
    chosen: str | None = None
    stats: dict[str, float] = {"started_at": time.time()}  # epoch: the bench splits queueing from searching
    started = time.monotonic()
    try:
        chosen, _ = decide(request, stats)
    except Exception as exc:  # the game service must hear of it, or the table waits forever
        log.exception("computer move failed", extra={"fields": {"request_id": request.request_id}})
        error = {"code": "ai_failed", "de": f"Der Computer konnte nicht ziehen ({type(exc).__name__}).",
                 "en": f"The computer could not move ({type(exc).__name__})."}
    answer = MoveAnswer(request.request_id, request.game, request.table_id, request.ply, request.seat, chosen,
                        request.deadline, time.time(), _worker_name(), request.attempt, error,
                        {**stats, "search_ms": round((time.monotonic() - started) * 1000, 1)})
    publish_answer(answer_client(), answer)
    return chosen


@app.task(name="ai.hint", ignore_result=True, soft_time_limit=SOFT_LIMIT_S, time_limit=HARD_LIMIT_S)
def hint(request_data: dict) -> str:
    """Send the strong level's move for a human seat to the asker's sockets."""
    request = MoveRequest.from_dict(request_data)
    chosen, value = decide(request)
    emitter().emit("ai_hint", {"request_id": request.request_id, "table_id": request.table_id, "ply": request.ply,
                               "seat": request.seat, "move": chosen, "value": value},
                   namespace="/", room=f"user:{request.user_id}")
    return chosen


@worker_process_init.connect
def _warm_up(**_kwargs: object) -> None:
    """Import (and so JIT-compile) every player in each new child before it takes a task.

    A first call that compiles numba kernels cannot be interrupted by a deadline; doing
    it here keeps the first real move in time.
    """
    from shared.games import GAME_NAMES, get_game

    try:
        from services.ai_worker.players import PLAYERS
    except ImportError:
        return
    for name in GAME_NAMES:
        if name not in PLAYERS:
            continue
        game = get_game(name)
        state = game.new_game(game.default_options(), 1)
        seats = game.to_move(state)
        if not seats:
            continue
        view = game.view(state, seats[0])
        for strength in ("leicht", "mittel", "stark"):
            try:
                PLAYERS[name].choose_move(view, strength, time.monotonic() + 0.05, random.Random(0))
            except Exception:
                log.exception("warm-up of %s/%s failed", name, strength)
    # Everything loaded so far (Celery, numba, the players' tables: ~140k objects) lives as
    # long as the process.  Frozen, a full collection no longer walks it: unfrozen, one
    # took 0.1–0.2 s under load, and when it fell between the search and the answer the
    # move came late.
    gc.collect()
    gc.freeze()
    log.info("computer players warmed up in process %s", os.getpid())
