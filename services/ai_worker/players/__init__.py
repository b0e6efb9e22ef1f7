"""The computer opponents, one module per game, each with the same API.

``PLAYER.choose_move(view, strength, deadline, rng) -> str`` (a :class:`.player.Player`),
``analyse(view, deadline, rng, limit) -> [(move_text, value)]``,
``value_of(view, move_text, deadline, rng) -> float`` and ``REVIEW_THRESHOLDS``.  Heavy search runs only in the Celery workers: import this
package there, never in a Socket.IO process.

``PLAYERS`` maps a game name to its module; one line per game so that the engineers
of different games add theirs without touching each other's.
"""

from __future__ import annotations

import importlib
from types import ModuleType

PLAYERS: dict[str, ModuleType] = {}
PLAYERS["hexagon"] = importlib.import_module("services.ai_worker.players.hexagon")
PLAYERS["bullet"] = importlib.import_module("services.ai_worker.players.bullet")
PLAYERS["general"] = importlib.import_module("services.ai_worker.players.general")
PLAYERS["hanse"] = importlib.import_module("services.ai_worker.players.hanse")
