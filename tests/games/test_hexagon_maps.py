"""Battlehexagon maps: exact holes, fairness (half-turn), open corners, connectivity."""

from __future__ import annotations

import pytest

from shared.games import get_game
from tests.games import reference_hexagon as ref

GAME = get_game("hexagon")
CORNERS = {"a1", "a5", "e1", "e9", "i1", "i5"}
CORNER_AREA = CORNERS | {n for c in CORNERS for n in ref.neighbours(c)}


def holes_of(options: dict, seed: int = 1) -> set[str]:
    return set(GAME.view(GAME.new_game(options, seed), None)["holes"])


def half_turn(name: str) -> str:
    q, r = ref.COORD[name]
    return ref.NAME_AT[(-q, -r)]


def connected(cells: set[str], step) -> bool:
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        for n in step(cell):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def move_steps(cell: str) -> list[str]:
    return ref.neighbours(cell) + ref.cells_at_distance_two(cell)


@pytest.mark.parametrize(
    ("map_name", "holes", "cells"),
    [
        ("klassisch", set(), 61),
        ("dreiloch", {"e4", "d5", "f5"}, 58),
        ("krater", {"e5", "d4", "d5", "e4", "e6", "f4", "f5"}, 54),
        ("burggraben", {"c3", "c4", "c5", "d3", "d6", "e3", "e7", "f3", "f6", "g3", "g4", "g5"}, 49),
        ("saeulen", {"b4", "c2", "d7", "f2", "g6", "h3"}, 55),
    ],
)
def test_fixed_map_cells_and_holes(map_name: str, holes: set[str], cells: int) -> None:
    assert holes_of({"map": map_name}) == holes
    assert 61 - len(holes) == cells
    assert ref.MAP_HOLES[map_name] == holes


@pytest.mark.parametrize("map_name", ["krater", "burggraben", "saeulen"])
def test_designed_maps_are_fair_and_open(map_name: str) -> None:
    holes = holes_of({"map": map_name})
    assert {half_turn(h) for h in holes} == holes
    assert not holes & CORNER_AREA
    assert connected(set(ref.ALL_NAMES) - holes, move_steps)


def test_dreiloch_points_to_rubin_corners_and_is_connected() -> None:
    holes = holes_of({"map": "dreiloch"})
    assert all(ref.distance("e5", h) == 1 for h in holes)
    assert connected(set(ref.ALL_NAMES) - holes, ref.neighbours)


def test_burggraben_centre_only_by_jump() -> None:
    holes = holes_of({"map": "burggraben"})
    castle = {n for n in ref.ALL_NAMES if ref.distance("e5", n) <= 1}
    outside = set(ref.ALL_NAMES) - holes - castle
    # no neighbour link between inside and outside …
    assert not any(n in outside for c in castle for n in ref.neighbours(c))
    # … but each of the six castle walls can be jumped onto from outside (e5 then by a clone)
    for cell in castle - {"e5"}:
        assert any(ref.distance(cell, o) == 2 for o in outside), cell
    assert connected(set(ref.ALL_NAMES) - holes, move_steps)
    assert not connected(set(ref.ALL_NAMES) - holes, ref.neighbours)


def test_zufall_thousand_seeds_fair_connected_open_deterministic() -> None:
    distinct = set()
    for seed in range(1000):
        holes = holes_of({"map": "zufall", "map_seed": seed})
        assert {half_turn(h) for h in holes} == holes, seed
        assert not holes & CORNER_AREA, seed
        assert connected(set(ref.ALL_NAMES) - holes, ref.neighbours), seed
        distinct.add(frozenset(holes))
    assert holes_of({"map": "zufall", "map_seed": 42}) == holes_of({"map": "zufall", "map_seed": 42}, seed=9)
    assert len(distinct) > 900  # seeds really vary the map


def test_zufall_without_map_seed_uses_game_seed() -> None:
    assert holes_of({"map": "zufall"}, seed=77) == holes_of({"map": "zufall", "map_seed": 77})
    assert holes_of({"map": "zufall"}, seed=77) != holes_of({"map": "zufall"}, seed=78)
