"""``ai.puzzles`` through a real batch worker: routed to ``batch``, writes what the command writes, and
by default adds to the file (merge) without changing its puzzles."""

from __future__ import annotations

import json
from pathlib import Path

from services.ai_worker.app import BATCH
from services.ai_worker.app import app as worker_app
from services.ai_worker.puzzles import make_puzzles
from tests.stack import CeleryWorker, wait_until


def _read(path: Path) -> dict | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def test_task_on_the_batch_queue_writes_the_commands_file(batch_worker: CeleryWorker, celery_sender_app,  # noqa: ANN001
                                                          tmp_path: Path) -> None:
    assert worker_app.amqp.router.route({}, "ai.puzzles")["queue"].name == BATCH
    out = tmp_path / "hexagon.json"
    celery_sender_app.send_task("ai.puzzles", kwargs={"game": "hexagon", "count": 2, "seed": 5, "out": str(out)})
    written = wait_until(lambda: _read(out), 180, lambda: batch_worker.log_path.read_text()[-2000:])
    assert written == make_puzzles("hexagon", 2, seed=5, log=lambda _line: None)
    # Scheduled as ops would (no seed: the next after the file's runs), it adds to the file and
    # changes none of its puzzles.
    celery_sender_app.send_task("ai.puzzles", kwargs={"game": "hexagon", "count": 1, "out": str(out)})
    merged = wait_until(lambda: (data := _read(out)) and len(data["puzzles"]) == 3 and data, 180,
                        lambda: batch_worker.log_path.read_text()[-2000:])
    assert merged["puzzles"][:2] == written["puzzles"] and [r["seed"] for r in merged["runs"]] == [5, 6]
    assert merged == make_puzzles("hexagon", 1, seed=6, log=lambda _line: None, existing=written)
