"""Battlehexagon random play: many seeded games, cross-checked with the reference.

Every state is checked (stones disjoint, off the holes, clock and side consistent),
every game must end, text/JSON forms and the record must round-trip, and the views
must hold exactly the public view layout.  ``make test`` runs a few hundred games;
the 10,000-game proof is marked slow.
"""

from __future__ import annotations

import json
import random

import pytest

from shared.games import get_game
from tests.games import reference_hexagon as ref

GAME = get_game("hexagon")
MAPS = ["klassisch", "dreiloch", "krater", "burggraben", "saeulen", "zufall"]
VIEW_KEYS = {
    "game", "seat", "options", "map", "map_seed", "holes", "cells", "to_move", "clock", "ply",
    "position", "start", "moves", "score", "outcome",
}  # fmt: skip


def _reference_agrees(state, reference) -> None:
    engine_moves = {m.text: m.effect for m in GAME.legal_moves(state)}
    reference_moves = {ref.move_text(m): ref.effect(reference, m) for m in ref.legal_moves(reference)}
    assert engine_moves == reference_moves
    engine_outcome = GAME.outcome(state)
    reference_outcome = ref.outcome(reference)
    if reference_outcome is None:
        assert engine_outcome is None
    else:
        winner, reason, score = reference_outcome
        assert engine_outcome is not None
        assert (engine_outcome.winner, engine_outcome.reason, engine_outcome.score) == (
            {"R": 0, "P": 1, None: None}[winner],
            reason,
            (float(score[0]), float(score[1])),
        )
    rubin = {n for n, v in reference["board"].items() if v == "R"}
    perle = {n for n, v in reference["board"].items() if v == "P"}
    cells = GAME.view(state, None)["cells"]
    assert (set(cells["rubin"]), set(cells["perle"])) == (rubin, perle)


def _state_is_legal(state, holes: set[str], previous_clock: int | None, was_clone: bool) -> None:
    # straight from the bitboards (bit i = i-th cell column by column): the full view
    # rebuilds the move list each time, too slow for every ply of 10,000 games
    rubin = {name for i, name in enumerate(ref.ALL_NAMES) if state.red >> i & 1}
    perle = {name for i, name in enumerate(ref.ALL_NAMES) if state.white >> i & 1}
    assert state.red >> 61 == 0 and state.white >> 61 == 0
    assert not rubin & perle
    assert not (rubin | perle) & holes
    if previous_clock is not None:
        assert state.clock == (0 if was_clone else previous_clock + 1)
    assert 0 <= state.clock <= 100


def _check_views(state) -> None:
    views = {seat: GAME.view(state, seat) for seat in (0, 1, None)}
    over = GAME.outcome(state) is not None
    for seat, view in views.items():
        json.dumps(view)
        extra = set(view) - VIEW_KEYS
        if not over and seat == state.side:
            assert extra == {"legal_moves", "help"}
            assert [m["text"] for m in view["legal_moves"]] == [m.text for m in GAME.legal_moves(state)]
        else:
            assert extra == set()
        # nothing is hidden in Battlehexagon: every seat sees the same board and history
        assert {k: v for k, v in view.items() if k in VIEW_KEYS - {"seat"}} == {
            k: v for k, v in views[None].items() if k in VIEW_KEYS - {"seat"}
        }


STYLES = ("uniform", "cloner", "jumper", "greedy", "creature")


def _choose(rng: random.Random, style: str, infos: list):
    if style == "cloner":
        preferred = [m for m in infos if m.effect["kind"] == "clone"]
    elif style == "jumper":
        preferred = [m for m in infos if m.effect["kind"] == "jump"]
    elif style == "greedy":
        best = max(len(m.effect["turns"]) + (m.effect["kind"] == "clone") for m in infos)
        preferred = [m for m in infos if len(m.effect["turns"]) + (m.effect["kind"] == "clone") == best]
    elif style == "creature":  # of habit: always the first jump, which tends to go in circles
        preferred = [m for m in infos if m.effect["kind"] == "jump"][:1]
    else:
        preferred = infos
    return rng.choice(preferred or infos)


def play_random_game(seed: int, with_reference: bool):
    rng = random.Random(seed)
    options: dict = {"map": rng.choice(MAPS), "end_rule": rng.choice(["auffuellen", "aussetzen"])}
    if options["map"] == "zufall" and rng.random() < 0.5:
        options["map_seed"] = rng.randrange(10**6)
    state = GAME.new_game(options, seed)
    holes = set(GAME.view(state, None)["holes"])
    reference = ref.new_state(holes, options["end_rule"]) if with_reference else None
    # each seat gets a style, so that every kind of ending comes up: uniform play fills
    # the board, jumpers run into the 50-move rule, creatures of habit into repetitions,
    # greedy turners wipe the other side out
    styles = (rng.choice(STYLES), rng.choice(STYLES))
    previous_clock, was_clone = None, False
    while True:
        _state_is_legal(state, holes, previous_clock, was_clone)
        if reference is not None:
            _reference_agrees(state, reference)
        if state.ply % 17 == 0:
            fen = GAME.to_position(state)
            assert GAME.to_position(GAME.from_position(fen, options)) == fen
            _check_views(state)
        if GAME.outcome(state) is not None:
            break
        info = _choose(rng, styles[state.side], GAME.legal_moves(state))
        before = GAME.to_json(state) if state.ply % 23 == 0 else None
        previous_clock, was_clone = state.clock, info.effect["kind"] == "clone"
        new = GAME.apply(state, info.text)
        if before is not None:
            assert GAME.to_json(state) == before  # apply never changes its input
        if reference is not None:
            reference = ref.apply(
                reference, next(m for m in ref.legal_moves(reference) if ref.move_text(m) == info.text)
            )
        state = new
        assert state.ply < 5000
    _check_views(state)
    data = GAME.to_json(state)
    assert json.loads(json.dumps(data)) == data
    assert GAME.to_json(GAME.from_json(data)) == data
    replayed = GAME.parse_record(GAME.record(state, {"Rubin": "r", "Perle": "p", "Datum": "2026-11-30"}))
    assert GAME.to_json(replayed) == data
    assert GAME.outcome(replayed) == GAME.outcome(state)
    assert GAME.history(state) == data["moves"]
    return state


def test_random_games_against_reference() -> None:
    reasons = set()
    passes = 0
    for seed in range(80):
        final = play_random_game(seed, with_reference=True)
        reasons.add(GAME.outcome(final).reason)
        passes += GAME.history(final).count("— setzt aus")
    assert passes > 0
    assert {"brett_voll", "keine_steine", "keine_zuege", "fuenfzig_zuege", "wiederholung"} <= reasons


def test_random_games_engine_only() -> None:
    reasons = set()
    for seed in range(1000, 1300):
        reasons.add(GAME.outcome(play_random_game(seed, with_reference=False)).reason)
    assert {"brett_voll", "keine_steine", "keine_zuege", "fuenfzig_zuege", "wiederholung"} <= reasons


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_ten_thousand_random_games() -> None:
    reasons: dict[str, int] = {}
    for seed in range(100_000, 110_000):
        reason = GAME.outcome(play_random_game(seed, with_reference=seed % 10 == 0)).reason
        reasons[reason] = reasons.get(reason, 0) + 1
    assert sum(reasons.values()) == 10_000
    assert len(reasons) >= 4
