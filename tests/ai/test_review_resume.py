"""A whole batch worker killed mid-review: another worker finishes the review promptly, no move judged twice.

SIGKILL of the worker's main process and its prefork children leaves the task's
message unacknowledged in Redis until the broker's one-hour visibility timeout; the
part's heartbeat in PostgreSQL (migration 0014) goes stale within seconds instead, and
the batch command (or a live worker) sends the part again.  A part whose worker died
after taking its message but before starting it has no heartbeat: it is sent again once
the batch queue is empty and it was handed out longer ago than the same limit.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from services.ai_worker.review_task import REVIEW_LOCK_SPACE, count_points, part_bounds, replay_points
from shared.games import get_game
from tests.ai.game_rows import insert_finished, play_out, random_chooser
from tests.stack import ROOT, CeleryWorker, Infra, start_infra

DAY = dt.date(2024, 2, 29)  # no other test writes games finished on this day
STORED = re.compile(r"review (\d+) part (\d+) stored ply (\d+)")


@pytest.fixture(scope="module")
def infra(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Infra]:
    """PostgreSQL and Redis of this module alone: it waits for its worker to take a review task, any, and in the shared
    database a review another module left unfinished is sent again by any batch worker that starts."""
    with start_infra(tmp_path_factory.mktemp("review_resume")) as infra:
        yield infra


def test_parts_cover_every_point_once_in_order() -> None:
    assert part_bounds(0, 12) == []
    for n in (1, 11, 12, 13, 25, 100, 5000):
        bounds = part_bounds(n, 12)
        covered = [i for first, end in bounds for i in range(first, end)]
        assert covered == list(range(n))
        assert all(end - first <= 12 for first, end in bounds) or len(bounds) == 99
        assert len(bounds) <= 99 and max(e - f for f, e in bounds) - min(e - f for f, e in bounds) <= 1


def test_a_part_replays_exactly_its_own_points() -> None:
    moves, seats, _final = play_out("bullet", {"win_target": 4, "move_limit": 100}, 7, random_chooser(7))
    options = get_game("bullet").normalize_options({"win_target": 4, "move_limit": 100})
    every = list(replay_points("bullet", options, 7, moves, seats, 0))
    assert count_points("bullet", options, 7, moves, seats, 0) == len(every) > 12
    for first, end in part_bounds(len(every), 12):
        assert list(replay_points("bullet", options, 7, moves, seats, 0, wanted=range(first, end))) == every[first:end]


def _kill_whole_worker(worker: CeleryWorker) -> None:
    """SIGKILL the worker's main process and its prefork children at once (a dead machine)."""
    pid = worker.process.pid
    children = [int(p) for p in subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                                                text=True).stdout.split()]
    for target in (pid, *children):
        try:
            os.kill(target, signal.SIGKILL)
        except ProcessLookupError:
            pass
    worker.process.wait()


def _stored_plies(log_path: Path, review_id: int) -> list[int]:
    return [int(m.group(3)) for m in STORED.finditer(log_path.read_text()) if int(m.group(1)) == review_id]


def test_a_review_of_a_killed_worker_is_finished_by_another_without_judging_a_move_twice(
        infra: Infra, log_dir: Path, db: psycopg.Connection) -> None:
    moves, seats, final = play_out("hexagon", {}, 31, random_chooser(31))
    game_id = insert_finished(db, "hexagon", {}, 31, moves, seats, final,
                              finished_at=dt.datetime.combine(DAY, dt.time(12), dt.UTC))
    expected = {i for i, s in enumerate(seats) if s == 1}
    assert len(expected) > 2 * 12, "the game is too short to have several parts"

    first = CeleryWorker(infra, log_dir, queues="batch", concurrency=1).start()
    second = CeleryWorker(infra, log_dir, queues="batch", concurrency=1)
    taker = CeleryWorker(infra, log_dir, queues="batch", concurrency=1)
    cli = subprocess.Popen([sys.executable, "-m", "services.ai_worker.review", "--from", DAY.isoformat(),
                            "--to", DAY.isoformat(), "--seat", "1", "--budget-ms", "100", "--stale-after", "3",
                            "--interval", "0.2"], cwd=ROOT, env=infra.env(), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    try:
        review_id = None
        give_up = time.monotonic() + 60
        while review_id is None or db.execute("SELECT count(*) FROM review_moves WHERE review_id = %s",
                                              (review_id,)).fetchone()[0] < 3:
            assert time.monotonic() < give_up and cli.poll() is None, first.log_path.read_text()[-3000:]
            found = db.execute("SELECT id FROM reviews WHERE game_id = %s AND seat = 1", (game_id,)).fetchone()
            review_id = found[0] if found else None
            time.sleep(0.05)
        _kill_whole_worker(first)
        killed = time.monotonic()
        before = {r[0] for r in db.execute("SELECT ply FROM review_moves WHERE review_id = %s", (review_id,))}
        running = db.execute("SELECT count(*) FROM review_parts WHERE review_id = %s AND status = 'running'",
                             (review_id,)).fetchone()[0]
        assert running == 1  # the dead worker's part: only a stale heartbeat can bring it back
        # A worker takes part 1's message and dies before it starts the part: the test holds the
        # part's lock, so the worker cannot get past taking it.  Its message stays unacknowledged
        # in Redis (one hour); the part stays 'queued'.
        with psycopg.connect(infra.database_url, autocommit=True) as holder:
            holder.execute("SELECT pg_advisory_lock(%s, %s)", (REVIEW_LOCK_SPACE + 1, review_id))
            taker.start()
            give_up = time.monotonic() + 30
            while "Task ai.review_game[" not in taker.log_path.read_text():
                assert time.monotonic() < give_up, taker.log_path.read_text()[-3000:]
                time.sleep(0.02)
            _kill_whole_worker(taker)
        assert db.execute("SELECT status FROM review_parts WHERE review_id = %s AND part = 1",
                          (review_id,)).fetchone()[0] == "queued"
        second.start()
        out, _ = cli.communicate(timeout=90)
        took = time.monotonic() - killed
    finally:
        if cli.poll() is None:
            cli.kill()
        second.stop()
        taker.stop()
        first.stop()
    assert cli.returncode == 0, out
    assert took < 60, f"the review took {took:.0f} s after the kill"
    assert "sent again (worker silent)" in out
    # The command or the live worker (whichever looked first once the queue was empty).
    assert f"review {review_id} part 1 sent again (taken, never started)" in out + second.log_path.read_text()
    assert _stored_plies(taker.log_path, review_id) == []
    stored = {r[0] for r in db.execute("SELECT ply FROM review_moves WHERE review_id = %s", (review_id,))}
    assert stored == expected
    # The second worker judged exactly the moves the first had not stored, each once.
    after_kill = _stored_plies(second.log_path, review_id)
    assert sorted(after_kill) == sorted(expected - before)
    assert set(_stored_plies(first.log_path, review_id)) <= before
    status, done, total = db.execute("SELECT status, moves_done, moves_total FROM reviews WHERE id = %s",
                                     (review_id,)).fetchone()
    assert (status, done, total) == ("done", len(expected), len(expected))
    # Only the dead worker's part ran twice (the part whose taker died never started there).
    attempts = [r[0] for r in db.execute("SELECT attempts FROM review_parts WHERE review_id = %s ORDER BY part",
                                         (review_id,))]
    assert sorted(attempts) == [1] * (len(attempts) - 1) + [2]


def test_a_review_asked_again_after_more_moves_judges_only_the_new_ones(infra: Infra, db: psycopg.Connection,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """In process (the task called directly, its sends collected): a Rundentafel review of a running
    game, then the same review queued again once the game went on."""
    from services.ai_worker import review_task

    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(review_task, "_send_part", lambda review_id, part: sent.append((review_id, part)))
    monkeypatch.setattr(review_task, "_emit", lambda *_args: None)
    monkeypatch.setattr(review_task, "_resend_stale", lambda _conn: None)
    monkeypatch.setattr(review_task, "_connect",
                        lambda: psycopg.connect(infra.database_url, autocommit=True, row_factory=psycopg.rows.dict_row))
    moves, seats, final = play_out("hexagon", {}, 41, random_chooser(41))
    expected = [i for i, s in enumerate(seats) if s == 0]
    cut = expected[14] + 1  # the game so far holds 15 moves of seat 0: two parts
    game_id = insert_finished(db, "hexagon", {}, 41, moves[:cut], seats[:cut], final)
    db.execute("UPDATE games SET status = 'running', finished_at = NULL, result = NULL WHERE id = %s", (game_id,))
    review_id = db.execute("INSERT INTO reviews (game_id, seat, budget_ms) VALUES (%s, 0, 5) RETURNING id",
                           (game_id,)).fetchone()[0]

    def run_all() -> None:
        assert review_task.review_game(review_id) in ("part done", "done")
        while sent:
            review_task.review_game(*sent.pop(0))

    run_all()
    first = dict(db.execute("SELECT ply, created_at FROM review_moves WHERE review_id = %s", (review_id,)).fetchall())
    assert sorted(first) == expected[:15]
    assert db.execute("SELECT status FROM reviews WHERE id = %s", (review_id,)).fetchone()[0] == "done"

    db.execute("UPDATE games SET moves = %s, move_seats = %s, move_times = %s WHERE id = %s",
               (moves, seats, [0] * len(moves), game_id))
    db.execute("UPDATE reviews SET status = 'queued', enqueued_at = NULL, finished_at = NULL WHERE id = %s",
               (review_id,))
    run_all()
    after = dict(db.execute("SELECT ply, created_at FROM review_moves WHERE review_id = %s", (review_id,)).fetchall())
    assert sorted(after) == expected
    assert all(after[ply] == created for ply, created in first.items())  # judged once, not again
    status, done, total = db.execute("SELECT status, moves_done, moves_total FROM reviews WHERE id = %s",
                                     (review_id,)).fetchone()
    assert (status, done, total) == ("done", len(expected), len(expected))
    bounds = db.execute("SELECT first_point, end_point FROM review_parts WHERE review_id = %s ORDER BY part",
                        (review_id,)).fetchall()
    assert [i for first_point, end in bounds for i in range(first_point, end)] == list(range(len(expected)))
