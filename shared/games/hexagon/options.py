"""Options of a Battlehexagon game and the :class:`Setup` they produce.

Options (exact keys):

* ``map``: ``klassisch`` (default), ``dreiloch``, ``krater``, ``burggraben``, ``saeulen``,
  ``zufall``;
* ``map_seed``: int, only with ``zufall``; without it the game's seed draws the map;
* ``end_rule``: ``auffuellen`` (default) or ``aussetzen``.

A game begun from a position text takes its holes from the position; its map is
the named map with exactly those holes, else ``eigen`` (a custom board, only ever
produced here, never accepted as an option).
"""

from __future__ import annotations

from typing import Any

from shared.games.base import BadOptions
from shared.games.hexagon.board import PERLE_START, RUBIN_START, mask_of
from shared.games.hexagon.maps import FIXED_HOLES, MAP_NAMES, holes_for, random_holes
from shared.games.hexagon.notation import parse_position, position_text
from shared.games.hexagon.state import Setup

END_RULES = ("auffuellen", "aussetzen")
DEFAULTS: dict[str, Any] = {"map": "klassisch", "end_rule": "auffuellen"}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def normalize_options(options: dict[str, Any] | None) -> dict[str, Any]:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadOptions("bad_options", "Optionen müssen ein Objekt sein", "Options must be an object")
    unknown = sorted(set(options) - {"map", "map_seed", "end_rule"})
    if unknown:
        raise BadOptions(
            "unknown_option",
            f"Unbekannte Option: {', '.join(map(str, unknown))}",
            f"Unknown option: {', '.join(map(str, unknown))}",
        )
    out = dict(DEFAULTS)
    map_name = options.get("map", DEFAULTS["map"])
    if map_name not in MAP_NAMES:
        raise BadOptions(
            "unknown_map",
            f"Unbekannte Karte {map_name!r} (erlaubt: {', '.join(MAP_NAMES)})",
            f"Unknown map {map_name!r} (allowed: {', '.join(MAP_NAMES)})",
        )
    out["map"] = map_name
    end_rule = options.get("end_rule", DEFAULTS["end_rule"])
    if end_rule not in END_RULES:
        raise BadOptions(
            "unknown_end_rule",
            f"Unbekannte Endregel {end_rule!r} (erlaubt: auffuellen, aussetzen)",
            f"Unknown end rule {end_rule!r} (allowed: auffuellen, aussetzen)",
        )
    out["end_rule"] = end_rule
    map_seed = options.get("map_seed")
    if map_seed is not None:
        if map_name != "zufall":
            raise BadOptions(
                "map_seed_without_zufall",
                "map_seed gibt es nur für die Karte Zufall",
                "map_seed only applies to the Zufall map",
            )
        if not _is_int(map_seed):
            raise BadOptions("bad_map_seed", "map_seed muss eine ganze Zahl sein", "map_seed must be an integer")
        out["map_seed"] = map_seed
    return out


def new_setup(options: dict[str, Any], seed: int) -> Setup:
    if not _is_int(seed):
        raise BadOptions("bad_seed", "Der Seed muss eine ganze Zahl sein", "The seed must be an integer")
    options = normalize_options(options)
    map_seed = None
    if options["map"] == "zufall":
        map_seed = options.get("map_seed", seed)
    holes = holes_for(options["map"], map_seed)
    return Setup(options, seed, map_seed, holes, None, mask_of(RUBIN_START), mask_of(PERLE_START), 0, 0)


def setup_from_position(text: str, options: dict[str, Any] | None) -> Setup:
    """A setup that starts at ``text``; raises BadNotation / BadOptions."""
    red, white, holes, side, clock = parse_position(text)
    options = normalize_options(options)
    map_seed = None
    wanted = options["map"]
    if wanted == "zufall" and "map_seed" in options and random_holes(options["map_seed"]) == holes:
        map_seed = options["map_seed"]
    elif wanted != "zufall" and FIXED_HOLES[wanted] == holes:
        pass
    else:
        named = [name for name, mask in FIXED_HOLES.items() if mask == holes]
        options = {"map": named[0] if named else "eigen", "end_rule": options["end_rule"]}
    canonical = position_text(red, white, holes, side, clock)
    return Setup(options, 0, map_seed, holes, canonical, red, white, side, clock)
