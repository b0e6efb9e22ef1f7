"""Battlebullet computer opponents, in process (no Celery): speed and a mini-ladder.

``python -m bench.ai_bullet [games] [budget_s]`` prints one JSON object; :func:`run`
returns it.  Figures:

* ``stark`` — over every Stark move of the ladder: nodes per second, mean depth
  reached, and the share of moves answered within ``budget_s`` + 10 %;
* ``ladder`` — Stark vs Mittel and Mittel vs Leicht, ``games`` games each, colours
  alternating, layouts cycling (Standard, Belgisches, Deutsches Gänseblümchen), win
  target 6 and 4 alternating, always with the move limit of 100 moves per side so
  every game ends: the stronger side's score share (a draw counts half).  Target ≥ 0.75.

Every player gets ``budget_s`` per move (Mittel stops at its 3 plies earlier).

Stark's current figures and their commands are in docs/performance.md (computer players);
``bench.bullet_stark`` compares it with the previous Stark.
"""

from __future__ import annotations

import random
from typing import Any

from bench import inprocess_ladder
from services.ai_worker.players import bullet as player

LAYOUTS = ("standard", "belgisch", "deutsch")
TARGETS = (6, 4)
BUDGET_S = 1.8


def options_for(i: int) -> dict[str, Any]:
    return {"layout": LAYOUTS[(i // 2) % len(LAYOUTS)], "win_target": TARGETS[(i // 6) % 2], "move_limit": 100}


def seed_for(rng: random.Random) -> int:
    return 0  # Battlebullet has no chance; the seed only names the game


def run(games: int = 20, budget_s: float = BUDGET_S) -> dict[str, Any]:
    return inprocess_ladder.run("bullet", player, options_for, seed_for, games, budget_s)


if __name__ == "__main__":
    inprocess_ladder.main(run, BUDGET_S)
