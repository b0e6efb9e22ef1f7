"""Delivery of computer moves: stale answers dropped, hints to the asker, queues kept apart, killed workers.

Real PostgreSQL, Redis and prefork Celery workers (``tests/stack.py``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import psycopg
import pytest

from shared import auth_token
from shared.ai_protocol import DELIVERY_MARGIN, AnswerInbox, MoveAnswer, new_request
from shared.games import get_game
from tests.ai.game_rows import insert_finished, play_out, random_chooser
from tests.ai.remote_match import MatchDriver, MatchResult
from tests.stack import TEST_SECRET, CeleryWorker, SocketProbe, wait_child_busy, wait_until


def _legal(game_name: str, state, seat: int) -> set[str]:  # noqa: ANN001
    return {m.text for m in get_game(game_name).legal_moves(state, seat)}


def _answered(driver: MatchDriver, request_id: str) -> bool:
    """Whether the worker's answer to ``request_id`` is on the answer stream (among the newest entries)."""
    return any(json.loads(fields["answer"])["request_id"] == request_id
               for _id, fields in driver.redis.xrevrange(driver.inbox.stream, count=200))


def test_an_answer_for_a_table_that_moved_on_is_dropped(driver: MatchDriver, interactive_worker) -> None:  # noqa: ANN001
    game = get_game("hexagon")
    state = game.new_game(game.default_options(), 5)
    table_ply = {"t-stale": 0}
    old = new_request("move", "hexagon", "t-stale", 0, 0, game.view(state, 0), "mittel", 0.1)
    driver.requester.request(old)
    # The human took over / a takeback: the table moves on before the answer is read.
    state = game.apply(state, next(iter(_legal("hexagon", state, 0))), 0)
    table_ply["t-stale"] = 1
    wait_until(lambda: _answered(driver, old.request_id), 10, "the answer for ply 0 on the stream")

    def is_current(answer: MoveAnswer) -> bool:
        return table_ply.get(answer.table_id) == answer.ply

    applied: list[MoveAnswer] = []
    polled = driver.inbox.poll(is_current, applied.append, block_ms=500)
    assert [a.request_id for a in polled.stale] == [old.request_id] and applied == []

    fresh = new_request("move", "hexagon", "t-stale", 1, 1, game.view(state, 1), "mittel", 0.1)
    driver.requester.request(fresh)
    give_up = time.monotonic() + 10
    while not applied and time.monotonic() < give_up:
        driver.inbox.poll(is_current, applied.append, block_ms=200)
    assert [a.request_id for a in applied] == [fresh.request_id]
    assert applied[0].move in _legal("hexagon", state, 1)
    # Both entries are acknowledged: nothing stays pending for this group.
    assert driver.redis.xpending(driver.inbox.stream, driver.inbox.group)["pending"] == 0


def test_a_failed_apply_stays_pending_and_is_claimed_again(driver: MatchDriver, interactive_worker) -> None:  # noqa: ANN001
    game = get_game("hexagon")
    state = game.new_game(game.default_options(), 6)
    request = new_request("move", "hexagon", "t-retry", 0, 0, game.view(state, 0), "leicht", 0.1)
    driver.requester.request(request)
    wait_until(lambda: _answered(driver, request.request_id), 10, "the answer on the stream")

    def broken_apply(answer: MoveAnswer) -> None:
        raise RuntimeError("database down")

    first = driver.inbox.poll(lambda a: a.table_id == "t-retry", broken_apply, block_ms=500)
    assert [a.request_id for a in first.failed] == [request.request_id]
    other = AnswerInbox(driver.redis, driver.inbox.group, "second-process", claim_idle_ms=100)
    # Claimable once the failed entry has been idle longer than the other process's claim_idle_ms.
    wait_until(lambda: (pending := driver.redis.xpending_range(driver.inbox.stream, driver.inbox.group, "-", "+", 10))
               and all(p["time_since_delivered"] > other.claim_idle_ms for p in pending),
               5, "the failed entry to be idle for 100 ms")
    applied: list[MoveAnswer] = []
    second = other.claim_abandoned(lambda a: a.table_id == "t-retry", applied.append)
    assert [a.request_id for a in second.applied] == [request.request_id] == [a.request_id for a in applied]


def test_hint_reaches_the_asking_account_only(game_service, driver: MatchDriver, celery_sender_app,
                                              interactive_worker) -> None:  # noqa: ANN001
    from shared.ai_protocol import celery_sender

    asker = SocketProbe(game_service.url, auth_token.issue(41, "hanna", TEST_SECRET), "game/socket.io").connect()
    other = SocketProbe(game_service.url, auth_token.issue(42, "otto", TEST_SECRET), "game/socket.io").connect()
    try:
        game = get_game("hexagon")
        state = game.new_game(game.default_options(), 8)
        request = new_request("hint", "hexagon", "t-hint", 0, 0, game.view(state, 0), "stark", 0.3, user_id=41)
        celery_sender(celery_sender_app)(request)
        hint = asker.wait_for("ai_hint", timeout=20)
        assert hint["request_id"] == request.request_id and hint["table_id"] == "t-hint" and hint["ply"] == 0
        assert hint["move"] in _legal("hexagon", state, 0) and isinstance(hint["value"], float)
        assert [e for e in other.drain(quiet=0.5) if e[0] == "ai_hint"] == []
    finally:
        asker.close()
        other.close()


@pytest.fixture
def finished_hexagon_games(infra) -> list[int]:  # noqa: ANN001
    moves, seats, final = play_out("hexagon", {}, 21, random_chooser(21))
    with psycopg.connect(infra.database_url, autocommit=True) as conn:
        return [insert_finished(conn, "hexagon", {}, 21, moves, seats, final) for _ in range(12)]


@pytest.mark.serial  # asserts how late computer moves arrive
def test_a_flood_of_reviews_does_not_delay_moves(infra, log_dir: Path, driver: MatchDriver, interactive_worker,
                                                 celery_sender_app, finished_hexagon_games: list[int]) -> None:  # noqa: ANN001
    from services.ai_worker.review import send_unsent

    with CeleryWorker(infra, log_dir, queues="batch", concurrency=1) as batch_worker, \
            psycopg.connect(infra.database_url, autocommit=True) as conn:
        ids = [conn.execute("INSERT INTO reviews (game_id, seat, budget_ms) VALUES (%s, %s, 300) RETURNING id",
                            (gid, seat)).fetchone()[0] for gid in finished_hexagon_games for seat in (0, 1)]
        send_unsent(conn, ids, lambda rid: celery_sender_app.send_task("ai.review_game", args=[rid]))
        give_up = time.monotonic() + 60  # the batch child warms up its players first
        while conn.execute("SELECT count(*) FROM reviews WHERE id = ANY(%s) AND status = 'running'",
                           (ids,)).fetchone()[0] != 1:
            assert time.monotonic() < give_up, batch_worker.log_path.read_text()[-3000:]
            time.sleep(0.1)
        result = driver.play("hexagon", ("stark", "mittel"), budget=0.2, seed=3)
        assert result.outcome is not None and result.rerequests == 0
        assert max(t.late for t in result.timings) <= DELIVERY_MARGIN
        # The batch queue is still far from empty: the moves did not wait for it.
        queued = conn.execute("SELECT count(*) FROM reviews WHERE id = ANY(%s) AND status = 'queued'",
                              (ids,)).fetchone()[0]
        assert queued >= len(ids) - 4
        batch_worker.kill()
        conn.execute("DELETE FROM reviews WHERE id = ANY(%s)", (ids,))
    # What the killed batch worker left in the broker must not reach later tests' workers.
    driver.redis.delete("batch")


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _receiver(workers: list[CeleryWorker], request_id: str, timeout: float = 10) -> CeleryWorker:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        for worker in workers:
            if request_id in worker.log_path.read_text():
                return worker
        time.sleep(0.02)
    raise TimeoutError("no worker received the request")


@pytest.mark.parametrize("what", ["whole_worker", "child"])
def test_a_worker_killed_while_searching_still_gives_the_player_a_move(
        what: str, infra, log_dir: Path, driver: MatchDriver, interactive_worker) -> None:  # noqa: ANN001
    """SIGKILL the worker (or its child) mid-search; a second worker is alive.

    Whole worker: its message stays unacknowledged until the visibility timeout, so the
    requester's re-request after deadline + grace brings the move.  Child: the task is
    requeued at once (reject_on_worker_lost) or, if its deadline passed meanwhile,
    expires, and the re-request brings the move.
    """
    game = get_game("bullet")
    state = game.new_game(game.default_options(), 4)
    budget = 2.0
    with CeleryWorker(infra, log_dir, queues="interactive", concurrency=1) as spare:
        workers = [interactive_worker, spare]
        give_up = time.monotonic() + 120
        while "warmed up" not in spare.log_path.read_text():  # its child takes tasks only after this
            assert time.monotonic() < give_up, spare.log_path.read_text()[-3000:]
            time.sleep(0.1)
        request = new_request("move", "bullet", f"t-kill-{what}", 0, 0, game.view(state, 0), "stark", budget)
        driver.requester.request(request)
        victim = _receiver(workers, request.request_id)
        wait_child_busy(victim.process.pid, 10)  # searching now
        if what == "whole_worker":
            for child in _children(victim.process.pid):
                os.kill(child, signal.SIGKILL)
            victim.kill()
        else:
            os.kill(_children(victim.process.pid)[0], signal.SIGKILL)
        result = MatchResult("bullet", {}, 4, ("stark", "stark"))
        try:
            answer = driver.wait_answer(request.table_id, 0, 0, budget, 60.0, result)
        except TimeoutError as exc:
            logs = "\n\n".join(f"{w.log_path}:\n{w.log_path.read_text()[-2500:]}" for w in workers)
            raise AssertionError(f"{exc}; victim {victim.log_path}; re-requests {result.rerequests}\n{logs}") from exc
        assert answer.move in _legal("bullet", state, 0)
        if what == "whole_worker":
            assert answer.attempt >= 2 and result.rerequests >= 1
        arrived = result.timings[0].arrived
        # Worst case: original deadline + grace, then a fresh budget, plus delivery.
        assert arrived <= request.deadline + driver.requester.grace + budget + DELIVERY_MARGIN + 1.0
        if victim is interactive_worker and what == "whole_worker":
            # Bring the shared worker back for the tests after this one.
            interactive_worker.log_path = log_dir / f"celery_interactive_restarted_{os.getpid()}_{time.time_ns()}.log"
            interactive_worker.start()
            # Until its child has warmed up, short-budget requests expire unanswered.
            give_up = time.monotonic() + 120
            while "warmed up" not in interactive_worker.log_path.read_text():
                assert time.monotonic() < give_up, interactive_worker.log_path.read_text()[-3000:]
                time.sleep(0.1)


@pytest.mark.serial  # a 0.2 s budget: an answer late on a busy machine is asked for again
def test_a_request_nobody_took_before_its_deadline_expires_and_is_sent_again(driver: MatchDriver,
                                                                             interactive_worker) -> None:  # noqa: ANN001
    game = get_game("hexagon")
    state = game.new_game(game.default_options(), 10)
    late = new_request("move", "hexagon", "t-expired", 0, 0, game.view(state, 0), "mittel", -0.5)
    driver.requester.request(late)
    # The worker took it from the queue and dropped it as expired: no answer can come for it.
    wait_until(lambda: f"Discarding revoked task: ai.move[{late.request_id}]" in interactive_worker.log_path.read_text(),
               10, lambda: "the worker to discard the expired request\n" + interactive_worker.log_path.read_text()[-3000:])
    assert driver.inbox.poll(lambda a: a.table_id == "t-expired", lambda a: None, block_ms=300).applied == []
    result = MatchResult("hexagon", {}, 10, ("mittel", "mittel"))
    answer = driver.wait_answer("t-expired", 0, 0, 0.2, 20.0, result)
    assert answer.attempt == 2 and answer.request_id != late.request_id and result.rerequests == 1
    assert answer.move in _legal("hexagon", state, 0)


def test_the_worker_keeps_a_margin_and_a_share_of_the_time_left_for_the_way_back() -> None:
    from services.ai_worker.move_task import MIN_SEARCH, monotonic_deadline
    from shared.ai_protocol import WORKER_SAFETY_MARGIN, WORKER_SAFETY_SHARE

    for left in (0.2, 1.0, 1.8):
        before = time.monotonic()
        deadline = monotonic_deadline(time.time() + left)
        after = time.monotonic()
        stop = left - WORKER_SAFETY_MARGIN - WORKER_SAFETY_SHARE * left
        assert before + stop - 0.01 <= deadline <= after + stop + 0.01
        # The time kept for the way back grows with the budget (stalls on a loaded machine do too).
        assert left - stop >= 0.05 + 0.05 * left
    # A request picked up after its deadline still gets a moment to find a legal move.
    before = time.monotonic()
    assert monotonic_deadline(time.time() - 5) >= before + MIN_SEARCH
