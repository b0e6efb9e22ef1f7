"""The results file every ladder bench shares: one JSON line per game, read back to resume and to sum up.

A ladder appends each finished game to its ``--out`` file, so an interrupted run goes on where it
stopped; the rows of one ladder are picked out by its own key (pairing, effort, sides).  The score
counts a draw as half a win, as the Wilson interval in :func:`bench.ai_general.wilson_interval` does.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Row = dict[str, Any]


def read_rows(out: Path, keep: Callable[[Row], bool]) -> list[Row]:
    """The games in ``out`` that ``keep`` says belong to this ladder (none while the file is missing)."""
    if not out.exists():
        return []
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return [r for r in rows if keep(r)]


def tally(rows: list[Row], side: Callable[[Row], Any]) -> tuple[float, int, int]:
    """Score, wins and draws of the side ``side(row)`` names in each game (its seat or label)."""
    wins = sum(r["winner"] is not None and r["winner"] == side(r) for r in rows)
    draws = sum(r["winner"] is None for r in rows)
    return wins + 0.5 * draws, wins, draws
