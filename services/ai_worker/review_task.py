"""``ai.review_game``: review one seat of a finished game, move by move (queue ``batch``).

For each move the reviewed seat made while it alone was to move (setup actions and
seatless steps are not judged), the task replays the game to that point, builds the
seat's ``view`` and asks the game's player for the strong level's best moves
(``analyse``) and the value of the move played (``value_of``, unless ``analyse``
already valued it).  ``loss = max(0, best - played)`` is classed by the player's
``REVIEW_THRESHOLDS``: green below ``yellow_from``, yellow below ``red_from``, red
from there on.

Idempotent and resumable: every judged move is one ``review_moves`` row (primary key
``(review_id, ply)``) committed on its own, and a task skips the plies already stored,
so a redelivered task (worker killed) continues after the last stored move.  Two
deliveries of one review never work at once: the task holds a PostgreSQL advisory
lock on the review for its run (released by the server when a killed worker's
connection drops).  A long review re-sends itself every ``CHUNK_SECONDS`` so no single
task comes near the broker's visibility timeout.

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
from psycopg.rows import dict_row

from services.ai_worker.app import app
from services.ai_worker.move_task import player_for
from services.ai_worker.ping import emitter
from shared import settings
from shared.games import get_game

log = logging.getLogger("ai.review")

REVIEW_LOCK_SPACE = 727_100  # advisory lock key space (first int) of reviews
LOCK_WAIT_S = 15.0  # a redelivery may find the dead worker's lock for a moment
CHUNK_SECONDS = 600.0
VALUE_SHARE = 0.25  # of a move's budget spent on value_of when analyse did not value the move played


@dataclass(frozen=True)
class ReviewPoint:
    ply: int  # index into the game's moves
    view: dict[str, Any]
    played: str


def replay_points(game_name: str, options: dict, seed: int, moves: list[str], seats: list[int | None],
                  seat: int, reshuffles: list | tuple = ()) -> Iterator[ReviewPoint]:
    """Every move ``seat`` made while it alone was to move, with the view it had then.

    ``reshuffles``: the ``(ply, seed)`` of each Zug zurück at a Battlehanse computer table
    (``games.reshuffles``), made before move ``ply`` as the game service made them."""
    game = get_game(game_name)
    state = game.new_game(options, seed)
    for ply, (text, mover) in enumerate(zip(moves, seats, strict=True)):
        for at, mix_seed in reshuffles:
            if at == ply:
                state = game.reshuffle_unseen(state, int(mix_seed))
        if mover == seat and game.to_move(state) == (seat,):
            yield ReviewPoint(ply, game.view(state, seat), text)
        state = game.apply(state, text, mover)


def classify(loss: float, thresholds: tuple[float, float]) -> str:
    yellow_from, red_from = thresholds
    if loss >= red_from:
        return "red"
    if loss >= yellow_from:
        return "yellow"
    return "green"


def judge(player: Any, point: ReviewPoint, budget: float, rng: random.Random) -> dict[str, Any]:
    """Best move, its value, the played move's value, the loss and the class for one point."""
    analyse_deadline = time.monotonic() + budget * (1 - VALUE_SHARE)
    alternatives = [(m, float(v)) for m, v in player.analyse(point.view, analyse_deadline, rng)]
    best, best_value = alternatives[0]
    known = dict(alternatives)
    if point.played in known:
        played_value = known[point.played]
    else:
        played_value = float(player.value_of(point.view, point.played, time.monotonic() + budget * VALUE_SHARE, rng))
    loss = max(0.0, best_value - played_value)
    return {"played": point.played, "best": best, "best_value": best_value, "played_value": played_value,
            "loss": loss, "class": classify(loss, player.REVIEW_THRESHOLDS), "alternatives": alternatives}


def _connect() -> psycopg.Connection:
    return psycopg.connect(settings.load().database_url, autocommit=True, row_factory=dict_row)


def _lock(conn: psycopg.Connection, review_id: int) -> bool:
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        got = conn.execute("SELECT pg_try_advisory_lock(%s, %s) AS ok", (REVIEW_LOCK_SPACE, review_id)).fetchone()
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


@app.task(name="ai.review_game", ignore_result=True, soft_time_limit=CHUNK_SECONDS * 3, time_limit=CHUNK_SECONDS * 4)
def review_game(review_id: int) -> str:
    """Review (or continue reviewing) ``reviews.id = review_id``; returns the final status."""
    started = time.monotonic()
    with _connect() as conn:
        if not _lock(conn, review_id):
            log.info("review %s is being worked on elsewhere", review_id)
            return "busy"
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
        conn.execute("UPDATE reviews SET status = 'running', attempts = attempts + 1,"
                     " started_at = coalesce(started_at, now()) WHERE id = %s", (review_id,))
        try:
            points = list(replay_points(row["game"], row["options"], row["seed"], row["moves"], row["move_seats"],
                                        row["seat"], row["reshuffles"]))
            player = player_for(row["game"])
        except Exception as exc:
            log.exception("review %s cannot replay its game", review_id)
            conn.execute("UPDATE reviews SET status = 'failed', error = %s, finished_at = now() WHERE id = %s",
                         (f"{type(exc).__name__}: {exc}", review_id))
            _emit("review_done", review_id, {"status": "failed"})
            return "failed"
        done = {r["ply"] for r in conn.execute("SELECT ply FROM review_moves WHERE review_id = %s", (review_id,))}
        conn.execute("UPDATE reviews SET moves_total = %s, moves_done = %s WHERE id = %s",
                     (len(points), len(done), review_id))
        budget = row["budget_ms"] / 1000
        for point in points:
            if point.ply in done:
                continue
            if time.monotonic() - started > CHUNK_SECONDS:
                review_game.apply_async(args=[review_id])  # continue in a fresh task; our lock goes with us
                return "continued"
            try:
                verdict = judge(player, point, budget, random.Random(f"{review_id}:{point.ply}"))
            except Exception as exc:  # a player bug must not leave the review "running" forever
                log.exception("review %s failed at ply %s", review_id, point.ply)
                conn.execute("UPDATE reviews SET status = 'failed', error = %s, finished_at = now() WHERE id = %s",
                             (f"ply {point.ply}: {type(exc).__name__}: {exc}", review_id))
                _emit("review_done", review_id, {"status": "failed"})
                return "failed"
            try:
                with conn.transaction():
                    conn.execute(
                        "INSERT INTO review_moves (review_id, ply, played, best, best_value, played_value, loss,"
                        " class, alternatives) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                        (review_id, point.ply, verdict["played"], verdict["best"], verdict["best_value"],
                         verdict["played_value"], verdict["loss"], verdict["class"],
                         json.dumps(verdict["alternatives"])))
                    count = conn.execute("UPDATE reviews SET moves_done = (SELECT count(*) FROM review_moves"
                                         " WHERE review_id = %s) WHERE id = %s RETURNING moves_done",
                                         (review_id, review_id)).fetchone()["moves_done"]
            except psycopg.errors.ForeignKeyViolation:
                # A Zug zurück dropped this review of a running game: its moves may be gone.
                log.info("review %s was dropped meanwhile", review_id)
                return "dropped"
            done.add(point.ply)
            _emit("review_progress", review_id, {"done": count, "total": len(points), "ply": point.ply,
                                                 "class": verdict["class"]})
        conn.execute("UPDATE reviews SET status = 'done', finished_at = now() WHERE id = %s", (review_id,))
        _emit("review_done", review_id, {"status": "done"})
        return "done"
