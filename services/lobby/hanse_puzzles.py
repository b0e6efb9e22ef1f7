"""Handelsaufgaben: the 24 Battlehanse positions, what a solving seat sees, and the stars.

The positions and their solutions live in ``shared/data/hanse_puzzles.json``, written
by the batch job ``python -m services.ai_worker.hanse_puzzles`` (positions from Stark
vs Stark matches with fixed seeds).  Each puzzle stores the full position (hidden
cards included, server side only), the solving seat, and the value of *every* legal
move, best first; a client only ever gets ``GAME.view(state, seat)`` of it.

Two kinds (seed 000, "Allein im Kontor"):

* ``punkte``: the points one move takes now — the Zinnmarken of a sale plus its
  Ratsmarke at the pile's mean (2, 5, 9); every other move takes none.
* ``bester_zug``: Stark's value of each move (its search over a fixed number of
  sampled deals); chosen where the best leads the second by :data:`CLEAR_GAP`.

Stars (:func:`stars`):

* Punkte: 3 = as many points as possible; 2 = at most :data:`POINTS_TWO_STARS`
  fewer; 1 = any move that takes points; 0 = none.
* Bester Zug: 3 = Stark's best; 2 = gives up less than :data:`BEST_TWO_STARS`
  points (the Rückblick's "small deviation" line); 1 = less than
  :data:`BEST_ONE_STAR`; 0 = more.

Initial rating (:func:`initial_rating`, as the Aufgaben's puzzles start from the
catalogue's): around the players' start of 1500, a Punkte puzzle (arithmetic of one sale)
:data:`KIND_OFFSET` below and a Bester-Zug puzzle (Stark's judgment over sampled deals) as
far above, then up to :data:`GUESS_SPREAD` / 2 either way by how little a blind guess
scores (the mean stars of all legal moves, / 3): where most moves score, it is easier.

Progress per player (stars, attempts) is kept in ``hanse_puzzle_progress``.  The stars
are those of the player's first answer: every answer shows the best moves with their
values, so a second answer would only copy them.  That first answer also rates player and
puzzle like the other games' Aufgaben (:mod:`services.lobby.puzzle_ratings`).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import psycopg

from services.lobby import puzzle_ratings
from shared.games import get_game
from shared.games.hanse.cards import RATS_MEAN
from shared.glicko2 import START_RATING

DATA_FILE = Path(__file__).resolve().parents[2] / "shared" / "data" / "hanse_puzzles.json"
KINDS = ("punkte", "bester_zug")
PUZZLES_PER_KIND = 12
CLEAR_GAP = 1.5  # Bester Zug: Stark's best leads the second best by at least this many points
POINTS_TWO_STARS = 2  # Punkte: two stars for at most this many points below the best
BEST_TWO_STARS = 3.0  # Bester Zug: two stars for giving up less than this (Rückblick: not red)
BEST_ONE_STAR = 6.0
SHOWN_MOVES = 5  # the best moves shown after solving
KIND_OFFSET = {"punkte": -150.0, "bester_zug": 150.0}
GUESS_SPREAD = 300.0


class PuzzleError(ValueError):
    """A request about a puzzle that cannot be answered (unknown id, illegal move)."""

    def __init__(self, code: str, de: str, en: str) -> None:
        super().__init__(en)
        self.code, self.de, self.en = code, de, en


def move_points(effect: dict[str, Any]) -> int:
    """Points a move takes at once (Punkte): a sale's Zinnmarken plus its Ratsmarke's mean."""
    if effect.get("type") != "verkauf":
        return 0
    rats = effect.get("ratsmarke")
    return int(effect["zinn_sum"]) + (RATS_MEAN[rats - 3] if rats else 0)


def points_table(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every legal move of the view with its points, best first (ties in the view's order)."""
    rows = [{"move": m["text"], "value": move_points(m["effect"])} for m in view["legal_moves"]]
    return sorted(rows, key=lambda row: -row["value"])


@functools.cache
def _data() -> dict[str, Any]:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def all_puzzles() -> list[dict[str, Any]]:
    return list(_data()["puzzles"])


def puzzle(puzzle_id: str) -> dict[str, Any]:
    for found in _data()["puzzles"]:
        if found["id"] == puzzle_id:
            return found
    raise PuzzleError("puzzle_unknown", "Diese Handelsaufgabe gibt es nicht.", "There is no such trading puzzle.")


def puzzle_state(data: dict[str, Any]) -> Any:
    """The puzzle's full state (hidden parts included: never for a client)."""
    return get_game("hanse").from_position(data["position"], data["options"])


def puzzle_view(data: dict[str, Any]) -> dict[str, Any]:
    """What the solving seat may see: the engine's view of its seat, nothing else."""
    return get_game("hanse").view(puzzle_state(data), data["seat"])


def stars(data: dict[str, Any], move: str) -> int:
    """Stars for playing ``move`` (canonical text of a legal move) in the puzzle."""
    values = {row["move"]: row["value"] for row in data["moves"]}
    best = data["moves"][0]["value"]
    value = values[move]
    if data["kind"] == "punkte":
        if value >= best:
            return 3
        if value >= best - POINTS_TWO_STARS:
            return 2
        return 1 if value > 0 else 0
    given_up = best - value
    if given_up <= 0:
        return 3
    if given_up < BEST_TWO_STARS:
        return 2
    return 1 if given_up < BEST_ONE_STAR else 0


def initial_rating(data: dict[str, Any]) -> float:
    """The puzzle's rating before anyone answered it (see the module docstring)."""
    guess = sum(stars(data, row["move"]) for row in data["moves"]) / (3 * len(data["moves"]))
    return START_RATING + KIND_OFFSET[data["kind"]] + GUESS_SPREAD * (0.5 - guess)


def canonical_move(data: dict[str, Any], text: str) -> str:
    """The engine's text of the move ``text`` names in this puzzle; PuzzleError if not legal."""
    engine = get_game("hanse")
    state = puzzle_state(data)
    try:
        return engine.move_text(state, engine.parse_move(state, text, data["seat"]))
    except ValueError as exc:  # GameError: BadNotation / IllegalMove, with both languages
        de = getattr(exc, "de", "Das ist hier kein erlaubter Zug.")
        en = getattr(exc, "en", "That is not a legal move here.")
        raise PuzzleError("puzzle_illegal_move", de, en) from None


def solve(data: dict[str, Any], text: str) -> dict[str, Any]:
    """Judge an answer: its canonical text, value, stars and the best moves with their values."""
    move = canonical_move(data, text)
    value = next(row["value"] for row in data["moves"] if row["move"] == move)
    return {"move": move, "value": value, "stars": stars(data, move), "best": data["moves"][:SHOWN_MOVES]}


# ---- progress ------------------------------------------------------------------------------
def record_answer(conn: psycopg.Connection, user_id: int, puzzle_id: str, earned: int) -> tuple[int, dict | None]:
    """Count an attempt; the stars are the first answer's, given before the best moves were
    shown (a later answer knows the solution: it is practice).  The first answer also rates
    player and puzzle (Glicko-2, the player's score stars / 3; the Aufgaben's ratings, game
    ``hanse``, the puzzle starting from its :func:`initial_rating`).  Returns the player's stars
    and the rating change (None for a later answer)."""
    row = conn.execute(
        "INSERT INTO hanse_puzzle_progress (user_id, puzzle_id, stars, attempts) VALUES (%s, %s, %s, 1)"
        " ON CONFLICT (user_id, puzzle_id) DO UPDATE SET"
        " attempts = hanse_puzzle_progress.attempts + 1, updated_at = now()"
        " RETURNING stars, attempts",
        (user_id, puzzle_id, earned),
    ).fetchone()
    if row["attempts"] != 1:  # the upsert is atomic: of two racing first answers one sees 1
        return int(row["stars"]), None
    change = puzzle_ratings.rate(conn, user_id, "hanse", puzzle_id, initial_rating(puzzle(puzzle_id)), earned / 3)
    conn.execute(
        "UPDATE hanse_puzzle_progress SET player_before = %s, player_after = %s, puzzle_before = %s,"
        " puzzle_after = %s WHERE user_id = %s AND puzzle_id = %s",
        (change["player_before"], change["player_after"], change["puzzle_before"], change["puzzle_after"],
         user_id, puzzle_id),
    )
    return int(row["stars"]), {key: round(value) for key, value in change.items()}


def progress_of(conn: psycopg.Connection, user_id: int) -> dict[str, dict[str, int]]:
    """Per puzzle id the player has tried: best stars and attempts (the pool's rows are dicts)."""
    rows = conn.execute(
        "SELECT puzzle_id, stars, attempts FROM hanse_puzzle_progress WHERE user_id = %s", (user_id,)
    ).fetchall()
    return {row["puzzle_id"]: {"stars": int(row["stars"]), "attempts": int(row["attempts"])} for row in rows}
