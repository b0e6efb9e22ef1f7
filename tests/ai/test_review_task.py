"""``ai.review_game`` through a real batch worker: classes of planted moves, live progress, resuming after a kill."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time

import psycopg
import redis

from services.ai_worker.players import PLAYERS
from services.ai_worker.review_task import classify, replay_points
from shared.games import get_game
from tests.ai.game_rows import insert_finished, play_out
from tests.metrics_scrape import scrape, scrape_until, value
from tests.stack import CeleryWorker, Infra, wait_until

HEXAGON = PLAYERS["hexagon"]
# The planted blunder gives up at least this many cells more than the red threshold.
BLUNDER_GAP = 3.0


def planted_hexagon_game() -> tuple[list[str], list[int | None], object, int, int]:
    """A finished Battlehexagon game where Rubin (seat 0) plays one clear best move and one clear blunder.

    Moves are random until a position offers both a move that stands out (Stark's
    value at least 1 cell above the next) and one that gives up more than the red
    threshold + BLUNDER_GAP; there Rubin plays the outstanding move, and at its next such
    position the worst one.  Afterwards both sides play Leicht so the game ends soon.
    """
    rng = random.Random(5)
    red_from = HEXAGON.REVIEW_THRESHOLDS[1]
    plants: dict[str, int] = {}

    def choose(state, seat, legal):  # noqa: ANN001, ANN202
        game = get_game("hexagon")
        ply = len(game.history(state))
        view = game.view(state, seat)
        if seat == 0 and ply >= 8 and len(plants) < 2:
            ranked = HEXAGON.analyse(view, time.monotonic() + 0.3, random.Random(ply), limit=1000)
            if len(ranked) >= 3:
                (best, best_value), (_, second_value), (worst, worst_value) = ranked[0], ranked[1], ranked[-1]
                if "best" not in plants and best_value - second_value >= 1.0:
                    plants["best"] = ply
                    return best
                if "best" in plants and "blunder" not in plants and best_value - worst_value >= red_from + BLUNDER_GAP:
                    plants["blunder"] = ply
                    return worst
        if len(plants) < 2:
            return rng.choice(legal)
        # Mittel against Leicht ends the game within a few dozen moves.
        return HEXAGON.PLAYER.choose_move(view, "leicht" if seat == 0 else "mittel", time.monotonic() + 0.05, rng)

    moves, seats, final = play_out("hexagon", {}, 9, choose)
    assert len(plants) == 2, "no position for both plants in this game"
    return moves, seats, final, plants["best"], plants["blunder"]


def socketio_events(client: redis.Redis, room: str) -> tuple[redis.client.PubSub, list]:
    """Listen on the Socket.IO message queue for emits to ``room`` (what a browser in it would get)."""
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe("flask-socketio")
    return pubsub, []


def drain_emits(pubsub: redis.client.PubSub, room: str, into: list, quiet: float = 0.5,
                until: str | None = None, timeout: float = 30) -> list:
    """Collect (event, data) emitted to ``room`` until ``until`` was emitted (if given) and then
    nothing came for ``quiet`` seconds."""
    last = time.monotonic()
    give_up = last + timeout
    while time.monotonic() - last < quiet or (until is not None and until not in (event for event, _ in into)):
        assert time.monotonic() < give_up, f"no {until!r} emitted to {room} within {timeout} s: {into[-5:]}"
        message = pubsub.get_message(timeout=0.05)
        if message is None:
            continue
        last = time.monotonic()
        data = json.loads(message["data"])
        if data.get("method") == "emit" and data.get("room") == room:
            into.append((data["event"], data["data"][0]))
    return into


def wait_status(db: psycopg.Connection, review_id: int, status: str, timeout: float) -> None:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        if db.execute("SELECT status FROM reviews WHERE id = %s", (review_id,)).fetchone()[0] == status:
            return
        time.sleep(0.1)
    raise TimeoutError(f"review {review_id} not {status} within {timeout} s")


def test_classify_by_thresholds() -> None:
    assert [classify(x, (1.0, 3.0)) for x in (0.0, 0.99, 1.0, 2.99, 3.0, 40.0)] == [
        "green", "green", "yellow", "yellow", "red", "red"]


def test_replay_points_are_the_seats_own_moves_with_its_view() -> None:
    moves, seats, _final = play_out("hexagon", {}, 3, lambda _s, _seat, legal: legal[-1])
    points = list(replay_points("hexagon", get_game("hexagon").default_options(), 3, moves, seats, 1))
    assert [p.ply for p in points] == [i for i, s in enumerate(seats) if s == 1]
    assert all(p.view["seat"] == 1 and p.view["to_move"] == 1 and p.played == moves[p.ply] for p in points)


def test_review_classes_a_planted_best_move_green_and_a_blunder_red(infra: Infra, db: psycopg.Connection,
                                                                   batch_worker: CeleryWorker,
                                                                   celery_sender_app, redis_client) -> None:  # noqa: ANN001
    moves, seats, final, best_ply, blunder_ply = planted_hexagon_game()
    game_id = insert_finished(db, "hexagon", {}, 9, moves, seats, final)
    review_id = db.execute("INSERT INTO reviews (game_id, seat, budget_ms) VALUES (%s, 0, 150) RETURNING id",
                           (game_id,)).fetchone()[0]
    pubsub, seen = socketio_events(redis_client, f"review:{review_id}")
    before = scrape(batch_worker.metrics_url)
    celery_sender_app.send_task("ai.review_game", args=[review_id])
    wait_status(db, review_id, "done", 120)
    rows = {r[0]: r[1:] for r in db.execute(
        "SELECT ply, class, loss, played, best FROM review_moves WHERE review_id = %s", (review_id,))}
    # The worker's metrics count every judged move and part (the last part is counted as it ends).
    parts = db.execute("SELECT count(*) FROM review_parts WHERE review_id = %s", (review_id,)).fetchone()[0]
    after = scrape_until(batch_worker.metrics_url, lambda s: value(
        s, "spielcenter_ai_review_parts_done_total", game="hexagon") >= value(
        before, "spielcenter_ai_review_parts_done_total", game="hexagon") + parts)
    for metric, grew in (("spielcenter_ai_review_parts_done_total", parts),
                         ("spielcenter_ai_review_moves_judged_total", len(rows))):
        assert value(after, metric, game="hexagon") == value(before, metric, game="hexagon") + grew, metric
    assert set(rows) == {i for i, s in enumerate(seats) if s == 0}
    assert rows[best_ply][0] == "green" and rows[best_ply][1] < HEXAGON.REVIEW_THRESHOLDS[0], rows[best_ply]
    assert rows[blunder_ply][0] == "red" and rows[blunder_ply][1] >= HEXAGON.REVIEW_THRESHOLDS[1], rows[blunder_ply]
    total, done, status = db.execute("SELECT moves_total, moves_done, status FROM reviews WHERE id = %s",
                                     (review_id,)).fetchone()
    assert (total, done, status) == (len(rows), len(rows), "done")
    # review_done is emitted just after 'done' commits: wait for it, then for nothing more to come.
    events = drain_emits(pubsub, f"review:{review_id}", seen, until="review_done")
    progress = [data for event, data in events if event == "review_progress"]
    assert [p["done"] for p in progress] == list(range(1, len(rows) + 1))
    assert events[-1] == ("review_done", {"review_id": review_id, "status": "done"})
    pubsub.close()
    # A second delivery of a finished review does nothing.
    again = celery_sender_app.send_task("ai.review_game", args=[review_id])
    # It has had its chance once the worker logged the task as finished.
    wait_until(lambda: f"Task ai.review_game[{again.id}] succeeded" in batch_worker.log_path.read_text(), 30,
               lambda: "the second delivery to run\n" + batch_worker.log_path.read_text()[-3000:])
    assert db.execute("SELECT attempts FROM reviews WHERE id = %s", (review_id,)).fetchone()[0] == 1


def _child(worker: CeleryWorker) -> int:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(worker.process.pid)], capture_output=True, text=True)
    return int(out.stdout.split()[0])


def test_a_review_killed_mid_way_resumes_after_the_last_stored_move(db: psycopg.Connection,
                                                                   batch_worker: CeleryWorker,
                                                                   celery_sender_app) -> None:  # noqa: ANN001
    rng = random.Random(12)
    moves, seats, final = play_out("hexagon", {}, 12, lambda _s, _seat, legal: rng.choice(legal))
    game_id = insert_finished(db, "hexagon", {}, 12, moves, seats, final)
    review_id = db.execute("INSERT INTO reviews (game_id, seat, budget_ms) VALUES (%s, 1, 100) RETURNING id",
                           (game_id,)).fetchone()[0]
    child = _child(batch_worker)  # found before the review starts: ps is slow on a loaded machine
    celery_sender_app.send_task("ai.review_game", args=[review_id])
    give_up = time.monotonic() + 60
    while db.execute("SELECT count(*) FROM review_moves WHERE review_id = %s", (review_id,)).fetchone()[0] < 3:
        assert time.monotonic() < give_up
        time.sleep(0.05)
    os.kill(child, signal.SIGKILL)  # the prefork child dies mid-review
    killed_at = db.execute("SELECT now()").fetchone()[0]
    before = {r[0]: r[1] for r in db.execute("SELECT ply, created_at FROM review_moves WHERE review_id = %s",
                                             (review_id,))}
    assert len(before) < seats.count(1), "the review ended before the kill: nothing was resumed"
    wait_status(db, review_id, "done", 120)
    after = {r[0]: r[1] for r in db.execute("SELECT ply, created_at FROM review_moves WHERE review_id = %s",
                                            (review_id,))}
    assert set(after) == {i for i, s in enumerate(seats) if s == 1}
    assert all(after[ply] == created for ply, created in before.items())  # stored moves were not redone
    assert all(created > killed_at for ply, created in after.items() if ply not in before)
    attempts, done = db.execute("SELECT attempts, moves_done FROM reviews WHERE id = %s", (review_id,)).fetchone()
    assert attempts == 2 and done == len(after)


def test_the_readme_table_of_review_thresholds_matches_the_players() -> None:
    import services.ai_worker as package

    documented = {}
    for line in package.__doc__.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[0] in PLAYERS:
            documented[parts[0]] = (float(parts[2]), float(parts[3]))
    assert documented == {name: tuple(module.REVIEW_THRESHOLDS) for name, module in PLAYERS.items()}
