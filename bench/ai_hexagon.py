"""Battlehexagon computer opponents, in process (no Celery): speed and a mini-ladder.

``python -m bench.ai_hexagon [games] [budget_s]`` prints one JSON object; :func:`run`
returns it.  Figures:

* ``stark`` — over every Stark move of the ladder: nodes per second, mean depth
  reached, and the share of moves answered within ``budget_s`` + 10 %;
* ``ladder`` — Stark vs Mittel and Mittel vs Leicht, ``games`` games each, colours
  alternating, maps and end rules cycling (the Zufall map with a new seed each
  time): the stronger side's score share (a draw counts half).  Target ≥ 0.75.

Every player gets ``budget_s`` per move (Mittel stops at its 2 plies earlier).

Measured 2026-11-30, 20 games per pairing at the full 1.0 s, 2 shared cores under
load 4–7: Stark 104k nodes/s, mean depth 4.9, 99.9 % of moves within 1.1 s (worst
1.11 s); Stark vs Mittel 0.975 (19 wins, 1 draw), Mittel vs Leicht 1.0.
"""

from __future__ import annotations

import random
from typing import Any

from bench import inprocess_ladder
from services.ai_worker.players import hexagon as player

MAPS = ("klassisch", "dreiloch", "krater", "burggraben", "saeulen", "zufall")
END_RULES = ("auffuellen", "aussetzen")
BUDGET_S = 1.0


def options_for(i: int) -> dict[str, Any]:
    return {"map": MAPS[(i // 2) % len(MAPS)], "end_rule": END_RULES[(i // 12) % 2]}


def seed_for(rng: random.Random) -> int:
    return rng.randrange(1 << 30)  # a new Zufall map each time


def run(games: int = 20, budget_s: float = BUDGET_S) -> dict[str, Any]:
    return inprocess_ladder.run("hexagon", player, options_for, seed_for, games, budget_s)


if __name__ == "__main__":
    inprocess_ladder.main(run, BUDGET_S)
