"""``ai.move`` and ``ai.hint``: one computer decision, always by the deadline.

Both take a :class:`shared.ai_protocol.MoveRequest` as a dict.  The wall-clock
deadline becomes a monotonic one minus ``WORKER_SAFETY_MARGIN`` and ``WORKER_SAFETY_SHARE``
of the time left; the player's search returns its best move so far when that comes, so
the answer is never late because a search overran.  ``soft_time_limit`` / ``time_limit`` are backstops only, for a player
that hangs outright.

``ai.move`` writes a :class:`MoveAnswer` to the ``ai:answers`` stream (durable: the
game service consumes it); ``ai.hint`` emits ``ai_hint`` to the asker's Socket.IO room
``user:<uid>`` on the table's channel (a lost hint costs a click).  A redelivered task (worker child killed)
simply decides again: the receiver keeps the first answer for the ply and drops the
rest.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import random
import socket
import time
from types import ModuleType

from celery.signals import worker_process_init

from services.ai_worker import worker_metrics
from services.ai_worker.app import app
from services.ai_worker.ping import SOCKETIO_CHANNEL, emitter, redis_client
from services.game.fanout.table_channels import table_channel
from shared.ai_protocol import (
    HINT_ANSWER_TTL_S,
    WORKER_SAFETY_MARGIN,
    WORKER_SAFETY_SHARE,
    MoveAnswer,
    MoveRequest,
    hint_key,
    publish_answer,
)

log = logging.getLogger("ai.move")

# A decision gets at least this long even when the request arrives late: a move a
# little late is still better than none, and the receiver decides whether it is stale.
MIN_SEARCH = 0.02
SOFT_LIMIT_S = 60
HARD_LIMIT_S = 90

def player_for(game: str) -> ModuleType:
    """The computer player module of ``game`` (``PLAYER.choose_move``, ``analyse``, ``value_of``)."""
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


def decide(request: MoveRequest, stats: dict[str, int] | None = None) -> tuple[str, float | None]:
    """The move for ``request`` (and its value for hints), by the request's deadline.

    ``stats`` receives the search's ``nodes`` / ``depth`` (and ``samples``): every player's
    ``search`` takes a ``stats`` dict (``Player``); the benchmark reads them from the answer.
    """
    player = player_for(request.game)
    # Seeded by the request: a redelivered task makes the same choice.
    rng = random.Random(request.request_id)
    deadline = monotonic_deadline(request.deadline)
    if request.kind == "hint":
        best = player.analyse(request.view, deadline, rng, limit=1)
        return best[0][0], float(best[0][1])
    return player.PLAYER.choose_move(request.view, request.strength, deadline, rng, stats=stats), None


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
    publish_answer(redis_client(), answer)
    worker_metrics.observe_search(request.game, request.kind, answer.stats["search_ms"] / 1000, time.time(),
                                  request.deadline)
    return chosen


@app.task(name="ai.hint", ignore_result=True, soft_time_limit=SOFT_LIMIT_S, time_limit=HARD_LIMIT_S)
def hint(request_data: dict) -> str:
    """Send the strong level's move for a human seat to the asker's sockets."""
    request = MoveRequest.from_dict(request_data)
    started = time.monotonic()
    chosen, value = decide(request)
    searched = time.monotonic() - started
    answer = {"request_id": request.request_id, "table_id": request.table_id, "ply": request.ply,
              "seat": request.seat, "move": chosen, "value": value}
    # Kept for the same table version: asked again, the game service answers with it (one search per version).
    redis_client().set(hint_key(request.table_id, request.ply), json.dumps(answer), ex=HINT_ANSWER_TTL_S)
    room = f"user:{request.user_id}"
    # On the table's channel: only the game process serving the table (where the asker's socket
    # at it sits) hears it; every process, only when none serves the table.
    message = {"method": "emit", "event": "ai_hint", "data": [answer], "binary": False, "namespace": "/",
               "room": room, "skip_sid": None, "callback": None, "host_id": emitter().host_id}
    if not redis_client().publish(table_channel(SOCKETIO_CHANNEL, request.table_id), json.dumps(message)):
        emitter().emit("ai_hint", answer, namespace="/", room=room)
    worker_metrics.observe_search(request.game, request.kind, searched, time.time(), request.deadline)
    return chosen


WARMED_UP = "computer players warmed up"  # the log line a test waits for before it sends a task


@worker_process_init.connect
def _warm_up(**_kwargs: object) -> None:
    """Warm each new child up before it takes a task (:func:`warm_up_players`)."""
    warm_up_players()


def warm_up_players() -> None:
    """Import (and so JIT-compile) every player and let each strength choose a move once.

    A first call that compiles numba kernels cannot be interrupted by a deadline; doing
    it here keeps the first real move in time.  Compiled code goes to numba's on-disk
    cache, so ``make test`` calls this once before the suite's processes start workers.
    """
    from shared.games import GAME_NAMES, get_game

    try:
        from services.ai_worker.players import PLAYERS
    except ImportError:
        PLAYERS = {}
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
                PLAYERS[name].PLAYER.choose_move(view, strength, time.monotonic() + 0.05, random.Random(0))
            except Exception:
                log.exception("warm-up of %s/%s failed", name, strength)
    # Everything loaded so far (Celery, numba, the players' tables: ~140k objects) lives as
    # long as the process.  Frozen, a full collection no longer walks it: unfrozen, one
    # took 0.1–0.2 s under load, and when it fell between the search and the answer the
    # move came late.
    gc.collect()
    gc.freeze()
    log.info("%s in process %s", WARMED_UP, os.getpid())
