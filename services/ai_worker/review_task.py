"""``ai.review_game``: review one seat of a finished game, move by move (queue ``batch``).

For each move the reviewed seat made while it alone was to move (setup actions and
seatless steps are not judged), the task replays the game to that point, builds the
seat's ``view`` and asks the game's player for the strong level's best moves
(``analyse``) and the value of the move played (``value_of``, unless ``analyse``
already valued it).  ``loss = max(0, best - played)`` is classed by the player's
``REVIEW_THRESHOLDS``: green below ``yellow_from``, yellow below ``red_from``, red
from there on.

In parts: the first task of a review (``review_game(review_id)``) splits the judged
moves into parts of at most ``PART_POINTS`` consecutive ones (``review_parts``, migration
0014), sends ``review_game(review_id, part)`` for parts 1, 2 … to the batch queue and
judges part 0 itself.  Several workers so share one long review, and a batch ends on
one short part rather than on one whole game.  The review is done when its last part is.
A review of a running game asked for again later gets parts for the moves made since.

Idempotent and resumable: every judged move is one ``review_moves`` row (primary key
``(review_id, ply)``) committed on its own, and a task skips the plies already stored,
so a redelivered task continues after the last stored move.  Two deliveries of one part
never work at once: the task holds a PostgreSQL advisory lock on the part for its run
(released by the server when a killed worker's connection drops).  A killed prefork
child's task is redelivered at once (``task_reject_on_worker_lost``); a killed *whole*
worker's message would wait for the broker's one-hour visibility timeout, so each part
keeps a heartbeat (``review_parts.heartbeat_at``, set with every stored move) and a
running part silent for longer than ``review.stale_limit_s`` is sent again by the batch
command, by every batch worker when it finished a part, when it starts and every
``IDLE_SWEEP_S`` (``review.resend_stale``).  The same sweep sends again a part handed out
(``sent_at``) that no worker started within that limit while the batch queue is empty:
its worker died between taking the message and marking the part running.  A long part
re-sends itself every ``CHUNK_SECONDS`` so no single task comes near the visibility timeout.

Progress goes to Socket.IO room ``review:<id>`` as ``review_progress`` {review_id,
done, total, ply, class} and finally ``review_done`` {review_id, status}.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
from celery.signals import worker_ready
from psycopg.rows import dict_row

from services.ai_worker import worker_metrics
from services.ai_worker.app import BATCH, app
from services.ai_worker.move_task import player_for
from services.ai_worker.ping import emitter
from shared import settings
from shared.games import get_game

log = logging.getLogger("ai.review")

REVIEW_LOCK_SPACE = 727_100  # advisory lock keys (727_100 + part, review_id): one per review part
LOCK_WAIT_S = 5.0  # a redelivery may find the dead worker's lock for a moment
CHUNK_SECONDS = 600.0
# A review is split into parts of at most this many judged moves (see the module doc).
PART_POINTS = 12
MAX_PARTS = 99  # per planning; lock keys 727_100 + part stay below 728_000 (parts of later moves add up)
VALUE_SHARE = 0.25  # of a move's budget spent on value_of when analyse did not value the move played
ALTERNATIVES = 5  # best moves stored with each judged move
EVERY_MOVE = 1_000_000  # an analyse limit no position reaches
IDLE_SWEEP_S = 15.0  # a batch worker looks for work of dead workers this often, busy or not
SWEEP_CONNECT_TIMEOUT_S = 3


@dataclass(frozen=True)
class ReviewPoint:
    ply: int  # index into the game's moves
    view: dict[str, Any]
    played: str


def _seat_turns(game_name: str, options: dict, seed: int, moves: list[str], seats: list[int | None], seat: int,
                reshuffles: list | tuple) -> Iterator[tuple[Any, Any, int, str]]:
    """(engine, state, ply, move) before each move ``seat`` made while it alone was to move."""
    game = get_game(game_name)
    state = game.new_game(options, seed)
    for ply, (text, mover) in enumerate(zip(moves, seats, strict=True)):
        for at, mark in reshuffles:
            if at == ply:
                state = game.after_takeback(state, int(mark))
        if mover == seat and game.to_move(state) == (seat,):
            yield game, state, ply, text
        state = game.apply(state, text, mover)


def replay_points(game_name: str, options: dict, seed: int, moves: list[str], seats: list[int | None],
                  seat: int, reshuffles: list | tuple = (), wanted: range | None = None) -> Iterator[ReviewPoint]:
    """Every move ``seat`` made while it alone was to move, with the view it had then.

    ``reshuffles``: the ``(ply, mark)`` of each take-back (``games.reshuffles``: a Battlehanse
    mix seed, the Battlegeneral ranks a fight showed), applied before move ``ply`` as the
    game service applied them (``Game.after_takeback``).
    ``wanted``: only these points (by their index among all of them); views are built for
    them alone and the replay stops after the last (a part does not pay for the others)."""
    for index, (game, state, ply, text) in enumerate(_seat_turns(game_name, options, seed, moves, seats, seat,
                                                                 reshuffles)):
        if wanted is not None and index >= wanted.stop:
            return
        if wanted is None or index in wanted:
            yield ReviewPoint(ply, game.view(state, seat), text)


def count_points(game_name: str, options: dict, seed: int, moves: list[str], seats: list[int | None],
                 seat: int, reshuffles: list | tuple = ()) -> int:
    """How many points :func:`replay_points` yields, without building a view."""
    return sum(1 for _ in _seat_turns(game_name, options, seed, moves, seats, seat, reshuffles))


def classify(loss: float, thresholds: tuple[float, float]) -> str:
    yellow_from, red_from = thresholds
    if loss >= red_from:
        return "red"
    if loss >= yellow_from:
        return "yellow"
    return "green"


def judge(player: Any, point: ReviewPoint, budget: float, rng: random.Random) -> dict[str, Any]:
    """Best move, its value, the played move's value, the loss and the class for one point.

    One search values every legal move (``analyse`` without a limit: all four players rank
    them all anyway), so the move played is valued by the same search as the best one;
    only a move the ranking leaves out costs a ``value_of`` of its own."""
    ranked = [(m, float(v)) for m, v in player.analyse(point.view, time.monotonic() + budget, rng, limit=EVERY_MOVE)]
    alternatives = ranked[:ALTERNATIVES]
    best, best_value = ranked[0]
    known = dict(ranked)
    if point.played in known:
        played_value = known[point.played]
    else:
        played_value = float(player.value_of(point.view, point.played, time.monotonic() + budget * VALUE_SHARE, rng))
    loss = max(0.0, best_value - played_value)
    return {"played": point.played, "best": best, "best_value": best_value, "played_value": played_value,
            "loss": loss, "class": classify(loss, player.REVIEW_THRESHOLDS), "alternatives": alternatives}


def _connect() -> psycopg.Connection:
    """A connection whose commits do not wait for the disk (``synchronous_commit=off``).

    A worker stores one judged move about every budget; waiting for the WAL flush cost
    5–6 ms of each (``bench.ai --timeline``), time in which the worker searches nothing.
    What a review writes can be computed again: a PostgreSQL crash loses at most the last
    ~0.6 s of commits (3 × ``wal_writer_delay``), and a part resent after it judges just
    those moves again.  Other sessions see a commit at once, as before, so the part locks,
    the stored moves and the heartbeats mean what they did."""
    return psycopg.connect(settings.load().database_url, autocommit=True, row_factory=dict_row,
                           options="-c synchronous_commit=off")


def part_bounds(n_points: int, part_points: int = PART_POINTS) -> list[tuple[int, int]]:
    """``[first, end)`` of each part: as few parts as ``part_points`` allows, of near-equal size."""
    if n_points <= 0:
        return []
    n_parts = min(MAX_PARTS, -(-n_points // part_points))
    cuts = [k * n_points // n_parts for k in range(n_parts + 1)]
    return list(zip(cuts, cuts[1:], strict=False))


def _lock(conn: psycopg.Connection, review_id: int, part: int) -> bool:
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        got = conn.execute("SELECT pg_try_advisory_lock(%s, %s) AS ok",
                           (REVIEW_LOCK_SPACE + part, review_id)).fetchone()
        if got["ok"]:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)


def _emit(event: str, review_id: int, data: dict[str, Any]) -> None:
    try:
        emitter().emit(event, {"review_id": review_id, **data}, namespace="/", room=f"review:{review_id}")
    except Exception:  # progress is live news only; the database holds the truth
        log.warning("progress emit failed", exc_info=True)


def _replay_args(row: dict[str, Any]) -> tuple:
    return (row["game"], row["options"], row["seed"], row["moves"], row["move_seats"], row["seat"],
            row["reshuffles"])


def _fail(conn: psycopg.Connection, review_id: int, error: str) -> str:
    conn.execute("UPDATE reviews SET status = 'failed', error = %s, finished_at = now()"
                 " WHERE id = %s AND status <> 'done'", (error, review_id))
    _emit("review_done", review_id, {"status": "failed"})
    return "failed"


def _send_part(review_id: int, part: int) -> None:
    review_game.apply_async(args=[review_id, part])


def _plan_parts(conn: psycopg.Connection, review_id: int, n_points: int, restart: bool) -> int | None:
    """Mark the review running, write parts for the points no part covers yet (all of them
    the first time; the moves made since, when a review of a running game is asked for
    again), send the task of every part handed out but the first, and return that first one
    (None: nothing left to do).

    ``restart`` (the review was queued anew after it ended, or is new): parts left undone
    are handed out again.  Handing out (``sent_at``) commits together with the review's
    'running' before any send: a worker dying before or while it sends leaves parts marked
    sent that no queue holds, which ``review.resend_stale`` sends again once the batch queue
    is empty; no state is left that no rule covers.  A concurrent coordinator writes the
    same parts (ON CONFLICT) and may send a part twice at worst, which the part's lock and
    the stored moves make harmless."""
    with conn.transaction():
        conn.execute("UPDATE reviews SET status = 'running', attempts = attempts + 1,"
                     " started_at = coalesce(started_at, now()), moves_total = %s,"
                     " moves_done = (SELECT count(*) FROM review_moves WHERE review_id = %s) WHERE id = %s",
                     (n_points, review_id, review_id))
        known = conn.execute("SELECT coalesce(max(end_point), 0) AS covered, coalesce(max(part) + 1, 0) AS next"
                             " FROM review_parts WHERE review_id = %s", (review_id,)).fetchone()
        handed = set()
        for offset, (first, end) in enumerate(part_bounds(n_points - known["covered"])):
            row = conn.execute("INSERT INTO review_parts (review_id, part, first_point, end_point, sent_at)"
                               " VALUES (%s, %s, %s, %s, now()) ON CONFLICT DO NOTHING RETURNING part",
                               (review_id, known["next"] + offset, known["covered"] + first,
                                known["covered"] + end)).fetchone()
            if row is not None:
                handed.add(row["part"])
        if restart:
            handed |= {r["part"] for r in conn.execute("UPDATE review_parts SET status = 'queued', sent_at = now()"
                                                       " WHERE review_id = %s AND status <> 'done' RETURNING part",
                                                       (review_id,))}
        todo = conn.execute("SELECT min(part) AS first FROM review_parts WHERE review_id = %s AND status <> 'done'",
                            (review_id,)).fetchone()["first"]
    for part in sorted(handed - {todo}):
        _send_part(review_id, part)
    return todo


def _finish_if_complete(conn: psycopg.Connection, review_id: int) -> str:
    """Mark the review done when every part is; the statement runs after this part's own
    'done' committed, so of two parts finishing together the later one sees both.  The
    count of judged moves is taken anew (each stored move only added one to it)."""
    done = conn.execute(
        "UPDATE reviews SET status = 'done', finished_at = now(),"
        " moves_done = (SELECT count(*) FROM review_moves WHERE review_id = %s) WHERE id = %s AND status = 'running'"
        " AND NOT EXISTS (SELECT 1 FROM review_parts WHERE review_id = %s AND status <> 'done') RETURNING id",
        (review_id, review_id, review_id)).fetchone()
    if done is not None:
        _emit("review_done", review_id, {"status": "done"})
        return "done"
    return "part done"


def _run_part(conn: psycopg.Connection, review_id: int, part: int, game_row: dict[str, Any], player: Any,
              started: float) -> str:
    """Judge the part's points not stored yet; the caller holds the part's lock."""
    bounds = conn.execute("SELECT first_point, end_point, status FROM review_parts WHERE review_id = %s AND part = %s",
                          (review_id, part)).fetchone()
    if bounds is None:
        return "missing"
    if bounds["status"] == "done":
        return _finish_if_complete(conn, review_id)
    conn.execute("UPDATE review_parts SET status = 'running', attempts = attempts + 1, heartbeat_at = now(),"
                 " sent_at = coalesce(sent_at, now()) WHERE review_id = %s AND part = %s", (review_id, part))
    try:
        mine = list(replay_points(*_replay_args(game_row), wanted=range(bounds["first_point"], bounds["end_point"])))
    except Exception as exc:
        log.exception("review %s cannot replay its game", review_id)
        return _fail(conn, review_id, f"{type(exc).__name__}: {exc}")
    budget = game_row["budget_ms"] / 1000
    log.info("review %s part %s started: %s points (task set up in %.3f s)", review_id, part, len(mine),
             time.monotonic() - started)
    stored = {r["ply"] for r in conn.execute("SELECT ply FROM review_moves WHERE review_id = %s AND ply = ANY(%s)",
                                             (review_id, [p.ply for p in mine]))}
    for point in mine:
        if point.ply in stored:
            continue
        if time.monotonic() - started > CHUNK_SECONDS:
            _send_part(review_id, part)  # continue in a fresh task; our lock goes with this connection
            return "continued"
        judging = time.monotonic()
        try:
            verdict = judge(player, point, budget, random.Random(f"{review_id}:{point.ply}"))
        except Exception as exc:  # a player bug must not leave the review "running" forever
            log.exception("review %s failed at ply %s", review_id, point.ply)
            return _fail(conn, review_id, f"ply {point.ply}: {type(exc).__name__}: {exc}")
        judged = time.monotonic()
        try:
            # One statement, one round trip: with every core searching, each extra round trip
            # waits for PostgreSQL to be scheduled (measured: bench.ai --timeline).
            review = conn.execute(
                "WITH stored AS (INSERT INTO review_moves (review_id, ply, played, best, best_value, played_value,"
                " loss, class, alternatives) VALUES (%(review)s, %(ply)s, %(played)s, %(best)s, %(best_value)s,"
                " %(played_value)s, %(loss)s, %(class)s, %(alternatives)s) ON CONFLICT DO NOTHING RETURNING 1),"
                " beat AS (UPDATE review_parts SET heartbeat_at = now() WHERE review_id = %(review)s"
                " AND part = %(part)s)"
                " UPDATE reviews SET moves_done = moves_done + (SELECT count(*) FROM stored) WHERE id = %(review)s"
                " RETURNING moves_done, moves_total, status",
                {"review": review_id, "part": part, "ply": point.ply, "played": verdict["played"],
                 "best": verdict["best"], "best_value": verdict["best_value"],
                 "played_value": verdict["played_value"], "loss": verdict["loss"], "class": verdict["class"],
                 "alternatives": json.dumps(verdict["alternatives"])}).fetchone()
        except psycopg.errors.ForeignKeyViolation:
            # A Zug zurück dropped this review of a running game: its moves may be gone.
            log.info("review %s was dropped meanwhile", review_id)
            return "dropped"
        if review is None:
            return "dropped"
        worker_metrics.REVIEW_MOVES_JUDGED.labels(game_row["game"]).inc()
        _emit("review_progress", review_id, {"done": review["moves_done"], "total": review["moves_total"],
                                             "ply": point.ply, "class": verdict["class"]})
        # One line per stored move: the resume test reads them to prove no move was judged twice.
        log.info("review %s part %s stored ply %s (judged in %.3f s, stored and told in %.3f s)", review_id, part,
                 point.ply, judged - judging, time.monotonic() - judged)
        if review["status"] == "failed":  # another part failed: the rest is wasted work
            return "failed"
    conn.execute("UPDATE review_parts SET status = 'done', heartbeat_at = now() WHERE review_id = %s AND part = %s",
                 (review_id, part))
    worker_metrics.REVIEW_PARTS_DONE.labels(game_row["game"]).inc()
    log.info("review %s part %s done", review_id, part)
    return _finish_if_complete(conn, review_id)


@app.task(name="ai.review_game", ignore_result=True, soft_time_limit=CHUNK_SECONDS * 3, time_limit=CHUNK_SECONDS * 4)
def review_game(review_id: int, part: int | None = None) -> str:
    """Review (or continue reviewing) ``reviews.id = review_id``; returns what became of it.

    Without ``part`` (as the batch command and the game service send it): replay the
    game, write the review's parts, send the tasks of all but the first part still to do,
    and judge that one.  With ``part``: judge that part."""
    started = time.monotonic()
    with _connect() as conn:
        row = conn.execute(
            "SELECT r.status, r.seat, r.budget_ms, g.game, g.options, g.seed, g.moves, g.move_seats, g.reshuffles,"
            " g.status AS gs"
            " FROM reviews r JOIN games g ON g.id = r.game_id WHERE r.id = %s", (review_id,)).fetchone()
        if row is None or row["status"] in ("done", "failed"):
            return row["status"] if row else "missing"
        # A running game is reviewed up to its last move: a player against the computer asks
        # on the Rundentafel (the game service allows nothing else while a game runs).
        if row["gs"] not in ("finished", "running"):
            conn.execute("UPDATE reviews SET status = 'failed', error = 'game not finished', finished_at = now()"
                         " WHERE id = %s", (review_id,))
            return "failed"
        try:
            player = player_for(row["game"])
            n_points = count_points(*_replay_args(row)) if part is None else 0
        except Exception as exc:
            log.exception("review %s cannot replay its game", review_id)
            return _fail(conn, review_id, f"{type(exc).__name__}: {exc}")
        if part is None:
            try:
                part = _plan_parts(conn, review_id, n_points, restart=row["status"] == "queued")
            except psycopg.errors.ForeignKeyViolation:
                return "dropped"
            if part is None:
                return _finish_if_complete(conn, review_id)
        if not _lock(conn, review_id, part):
            log.info("review %s part %s is being worked on elsewhere", review_id, part)
            return "busy"
        outcome = _run_part(conn, review_id, part, row, player, started)
        if outcome in ("part done", "done"):
            _resend_stale(conn)
        return outcome


def _resend_stale(conn: psycopg.Connection) -> None:
    """Every live batch worker looks for parts of dead workers when it finished one."""
    from services.ai_worker.review import WHY, resend_stale

    try:
        for review_id, part, why in resend_stale(conn, _send_part):
            log.info("review %s part %s sent again (%s)", review_id, part, WHY[why][1])
    except Exception:  # the batch command looks too; a failed look must not fail this review
        log.warning("looking for stale review parts failed", exc_info=True)


@worker_ready.connect
def _look_for_stale_parts(sender: Any = None, **_kwargs: object) -> None:
    """A (re)started worker sends again the parts a dead worker left; a batch worker then
    looks again every ``IDLE_SWEEP_S`` on its consumer's timer (the main process's event loop,
    no thread beside the prefork children), so lost work goes on when no part finishes and
    no batch command waits either (a Rückblick asked for at a table)."""
    _sweep_from_main_process()
    timer = getattr(sender, "timer", None)
    if timer is not None and BATCH in (app.amqp.queues.consume_from or {}):
        timer.call_repeatedly(IDLE_SWEEP_S, _sweep_from_main_process)


def _sweep_from_main_process() -> None:
    try:
        # A short connect timeout: the main process also fetches every queue's messages.
        with psycopg.connect(settings.load().database_url, autocommit=True, row_factory=dict_row,
                             connect_timeout=SWEEP_CONNECT_TIMEOUT_S) as conn:
            _resend_stale(conn)
    except Exception:
        log.warning("looking for stale review parts failed", exc_info=True)
