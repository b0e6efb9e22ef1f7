"""Game options: ``layout`` (standard|belgisch|deutsch), ``win_target`` (6|4), ``move_limit`` (None|100)."""

from __future__ import annotations

from typing import Any

from shared.games.base import BadOptions
from shared.games.bullet.board import LAYOUTS

DEFAULTS: dict[str, Any] = {"layout": "standard", "win_target": 6, "move_limit": None}
WIN_TARGETS = (6, 4)
MOVE_LIMITS = (None, 100)


def normalize(options: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults filled in, every value checked; BadOptions for anything else."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadOptions("bad_options", "Optionen müssen ein Objekt sein", "Options must be an object")
    unknown = sorted(set(options) - set(DEFAULTS), key=str)
    if unknown:
        raise BadOptions("unknown_option", f"Unbekannte Option: {unknown[0]}", f"Unknown option: {unknown[0]}")
    result = dict(DEFAULTS)
    result.update(options)
    if result["layout"] not in LAYOUTS:
        raise BadOptions(
            "bad_layout",
            f"Unbekannte Aufstellung: {result['layout']!r} (standard, belgisch, deutsch)",
            f"Unknown layout: {result['layout']!r} (standard, belgisch, deutsch)",
        )
    target = result["win_target"]
    if isinstance(target, bool) or target not in WIN_TARGETS:
        raise BadOptions(
            "bad_win_target",
            f"Siegziel muss 6 oder 4 sein, nicht {target!r}",
            f"Win target must be 6 or 4, not {target!r}",
        )
    limit = result["move_limit"]
    if isinstance(limit, bool) or limit not in MOVE_LIMITS:
        raise BadOptions(
            "bad_move_limit",
            f"Zuglimit ist aus (None) oder 100, nicht {limit!r}",
            f"Move limit is off (None) or 100, not {limit!r}",
        )
    return result
