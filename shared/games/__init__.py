"""The four rules engines behind one interface (:mod:`shared.games.base`).

``get_game("hexagon")`` returns the engine; engines are imported lazily so that a
service that needs one game does not pay for compiling the others.
"""

from __future__ import annotations

import importlib
from typing import Any

from shared.games.base import (  # noqa: F401  (re-exported)
    BadNotation,
    BadOptions,
    Game,
    GameError,
    IllegalMove,
    MoveInfo,
    Outcome,
)

GAME_NAMES = ("hexagon", "bullet", "general", "hanse")

_cache: dict[str, Game[Any, Any]] = {}


def get_game(name: str) -> Game[Any, Any]:
    """The engine for ``name`` (its state and move types are the engine's own: callers hold
    them opaquely); raises :class:`BadOptions` for an unknown game."""
    if name not in GAME_NAMES:
        raise BadOptions("unknown_game", f"Unbekanntes Spiel: {name!r}", f"Unknown game: {name!r}")
    if name not in _cache:
        module = importlib.import_module(f"shared.games.{name}")
        _cache[name] = module.GAME
    return _cache[name]
