"""``python -m services.ai_worker.review``: select, enqueue, show progress, survive Ctrl-C, never work twice."""

from __future__ import annotations

import datetime as dt
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from services.ai_worker.players import PLAYERS
from services.ai_worker.review import ensure_reviews, review_seats, send_unsent
from tests.ai.game_rows import insert_finished, play_out
from tests.stack import ROOT, CeleryWorker, Infra, start_infra

HEXAGON = PLAYERS["hexagon"]


@pytest.fixture(scope="module")
def infra(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Infra]:
    """PostgreSQL and Redis of this module alone: it counts every task its worker receives, and in the shared
    database a review another module left unfinished is sent again by any batch worker that starts."""
    with start_infra(tmp_path_factory.mktemp("review_batch")) as infra:
        yield infra


def _user(db: psycopg.Connection, name: str) -> int:
    return db.execute("INSERT INTO users (name, name_key) VALUES (%s, %s) RETURNING id",
                      (name, name.casefold())).fetchone()[0]


def _quick_game(seed: int) -> tuple[list[str], list[int | None], object]:
    """A short Battlehexagon game: Mittel (seat 1) beats Leicht (seat 0) quickly."""
    rng = random.Random(seed)
    from shared.games import get_game

    def choose(state, seat, _legal):  # noqa: ANN001, ANN202
        view = get_game("hexagon").view(state, seat)
        return HEXAGON.PLAYER.choose_move(view, "leicht" if seat == 0 else "mittel", time.monotonic() + 0.01, rng)

    return play_out("hexagon", {}, seed, choose)


@pytest.fixture
def dated_games(db: psycopg.Connection) -> dict[str, object]:
    """Six finished games on 2025-03-01 … 03-06; Jörg plays in four of them (seat 0 or 1)."""
    suffix = str(time.time_ns())[-9:]
    joerg, mia = _user(db, f"Jörg{suffix}"), _user(db, f"Mia{suffix}")
    seating = [(joerg, mia), (mia, joerg), (joerg, None), (mia, None), (None, joerg), (mia, mia)]
    ids = []
    for day, users in enumerate(seating, start=1):
        moves, seats, final = _quick_game(day)
        finished = dt.datetime(2025, 3, day, 12, 0, tzinfo=dt.UTC)
        ids.append(insert_finished(db, "hexagon", {}, day, moves, seats, final, users, finished))
    return {"ids": ids, "seating": seating, "joerg": joerg, "name": f"jörg{suffix}".upper()}


def test_selection_by_dates_player_and_seat(db: psycopg.Connection, dated_games: dict) -> None:
    ids, seating = dated_games["ids"], dated_games["seating"]
    # 03-02 … 03-05 holds games 2..5; Jörg (name matched case-insensitively) sits in 2 (seat 1), 3 (seat 0), 5 (seat 1).
    got = review_seats(db, dt.date(2025, 3, 2), dt.date(2025, 3, 5), dated_games["name"])
    assert got == [(ids[1], 1), (ids[2], 0), (ids[4], 1)]
    assert [(g, s) for g, s in got if seating[ids.index(g)][s] != dated_games["joerg"]] == []
    assert review_seats(db, dt.date(2025, 3, 6), dt.date(2025, 3, 6), seat=0) == [(ids[5], 0)]
    assert len([g for g, _s in review_seats(db, dt.date(2025, 3, 1), dt.date(2025, 3, 6)) if g in ids]) == 12


def test_enqueue_twice_sends_once_and_a_row_written_but_not_sent_is_sent_later(db: psycopg.Connection,
                                                                                dated_games: dict) -> None:
    ids = dated_games["ids"]
    sent: list[int] = []
    reviews = ensure_reviews(db, [(ids[0], 0), (ids[0], 1)], 20)
    # An interruption right after the rows were written: nothing sent yet.
    assert ensure_reviews(db, [(ids[0], 0), (ids[0], 1)], 20) == reviews
    assert send_unsent(db, reviews, sent.append) == 2 and sent == reviews
    assert send_unsent(db, reviews, sent.append) == 0 and sent == reviews
    db.execute("DELETE FROM reviews WHERE id = ANY(%s)", (reviews,))


def _default_sigint() -> None:
    # A shell without job control starts background commands with SIGINT ignored, and Python
    # keeps an inherited "ignore": under `make test &` the command would never see Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cli(infra: Infra, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "services.ai_worker.review", *args], cwd=ROOT, env=infra.env(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=_default_sigint)


def _process_tree(pid: int) -> list[int]:
    """``pid`` and its children (a prefork worker's pool processes), from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo.extend(children.get(tree[-1], []))
    return tree


def _signal_all(pids: list[int], sig: signal.Signals) -> None:
    for pid in pids:
        os.kill(pid, sig)


def test_batch_command_can_be_interrupted_and_restarted_without_double_work(
        infra: Infra, db: psycopg.Connection, dated_games: dict, batch_worker: CeleryWorker) -> None:
    args = ("--from", "2025-03-01", "--to", "2025-03-06", "--player", dated_games["name"], "--budget-ms", "40",
            "--interval", "0.1")
    # Interrupt while the reviews wait: the worker (parent and prefork child) is stopped, so
    # the interruption cannot come too late however slowly this process is scheduled (waiting
    # for a first finished review did: on a loaded machine all four were done before the
    # signal).  Parts interrupted while running are test_review_resume's subject.
    worker_tree = _process_tree(batch_worker.process.pid)
    _signal_all(worker_tree, signal.SIGSTOP)
    first = _cli(infra, *args)
    try:
        first_line = first.stdout.readline()
        first.send_signal(signal.SIGINT)
        out_first, _ = first.communicate(timeout=30)
        out_first = first_line + out_first
    finally:
        _signal_all(worker_tree, signal.SIGCONT)
        if first.poll() is None:  # never leave a sweeping command behind for the next tests
            first.kill()
    assert first.returncode == 130, out_first
    assert "4 gesamt/total, 0 fertig/done, 4 neu eingereiht/newly queued" in out_first
    assert "Unterbrochen" in out_first and "interrupted" in out_first

    second = _cli(infra, *args)
    out_second, _ = second.communicate(timeout=180)
    assert second.returncode == 0, out_second
    assert "4 gesamt/total" in out_second and "0 neu eingereiht/newly queued" in out_second
    assert "Fertig / done 4/4" in out_second

    rows = db.execute("SELECT r.status, r.attempts, r.moves_done, r.moves_total FROM reviews r"
                      " WHERE r.game_id = ANY(%s)", (dated_games["ids"],)).fetchall()
    assert len(rows) == 4 and all(r[0] == "done" and r[1] == 1 and r[2] == r[3] > 0 for r in rows), rows
    # Each review's task, and each further part's, was sent and run exactly once.
    parts = db.execute("SELECT p.attempts FROM review_parts p JOIN reviews r ON r.id = p.review_id"
                       " WHERE r.game_id = ANY(%s)", (dated_games["ids"],)).fetchall()
    assert len(parts) >= 4 and all(p[0] == 1 for p in parts), parts
    received = re.findall(r"Task ai\.review_game\[([^\]]+)\] received", batch_worker.log_path.read_text())
    assert len(received) == len(set(received)) == len(parts)
    third = _cli(infra, *args)
    out_third, _ = third.communicate(timeout=60)
    assert third.returncode == 0 and "4 fertig/done, 0 neu eingereiht" in out_third
