"""The Aufgaben (puzzles) of Battlehexagon, Battlebullet and Battlegeneral: one schema for both sides.

The generator (``python -m services.ai_worker.puzzles``) writes
``shared/data/puzzles/<game>.json``; the lobby and the puzzle page read them through
:func:`load` and :func:`get`.  A file holds ``generated_by`` (the first run's command),
``parameters``, ``runs`` (every run that made or added puzzles: seed, count, how many
it added) and ``puzzles`` (a list of :meth:`Puzzle.to_dict`, each run's after the
earlier ones').  Ids are stable (:func:`stable_id`), never a place in the file.

A :class:`Puzzle` holds the full start position (``position``: the engine's
``to_json`` of a state without history, hidden ranks included — server side only;
a client gets ``GAME.view(state(puzzle), puzzle.seat)``), the solver's seat (to move)
and the solution line: move texts, the solver's at even indices and the computer's
forced replies at odd ones, odd length, ending with the solver's last move.

Pure: no I/O except reading the packaged data files.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.games import get_game

GAMES = ("hexagon", "bullet", "general")
DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "puzzles"
ID_DIGITS = 10  # hex digits of the id's hash: 40 bits, no collision among thousands

# Theme key -> label, German (the seeds' words) and English; the filter on the puzzle page.
theme_names: dict[str, dict[str, str]] = {
    # Battlehexagon
    "grosser_sprung": {"de": "Großer Sprung", "en": "Big jump"},
    "doppelwabe": {"de": "Doppelwabe", "en": "Double cell"},
    "falle": {"de": "Falle", "en": "Trap"},
    "zugzwang": {"de": "Kein Zug mehr", "en": "No move left"},
    "abwehr": {"de": "Abwehr", "en": "Defence"},
    # Battlebullet
    "hinausschieben": {"de": "Hinausschieben", "en": "Push-off"},
    "sumito_3_2": {"de": "Sumito 3:2", "en": "Sumito 3:2"},
    "sumito": {"de": "Sumito", "en": "Sumito"},
    "randverteidigung": {"de": "Randverteidigung", "en": "Edge defence"},
    "doppelschlag": {"de": "Doppelschlag", "en": "Double push-off"},
    # Battlegeneral
    "fahnenjagd": {"de": "Fahnenjagd", "en": "Flag hunt"},
    "spion_gegen_feldmarschall": {"de": "Spion gegen Feldmarschall", "en": "Spy against Marshal"},
    "minenraeumer": {"de": "Minenräumer", "en": "Mine clearer"},
    "aufklaerer_lauf": {"de": "Aufklärer-Lauf", "en": "Scout run"},
    "hoher_fang": {"de": "Hoher Fang", "en": "Big catch"},
    "spionjagd": {"de": "Spionjagd", "en": "Spy hunt"},
    "flucht": {"de": "Flucht", "en": "Escape"},
    # every game
    "partie_gewinnen": {"de": "Partie gewinnen", "en": "Win the game"},
    "mehrzuegig": {"de": "Mehrzügig", "en": "Several moves"},
    "einzuegig": {"de": "Einzügig", "en": "One move"},
}


@dataclass(frozen=True)
class Puzzle:
    """One Aufgabe (see the module docstring)."""

    id: str  # "hexagon-3f9c0a12be": :func:`stable_id` of what the solver sees of the position
    game: str  # "hexagon" | "bullet" | "general"
    options: dict[str, Any]  # the engine options of the position's game
    position: dict[str, Any]  # engine.to_json(start state): full state, server side only
    seat: int  # the solver's seat, to move
    solution: list[str]  # solver's moves at even indices, forced replies at odd; odd length
    themes: list[str]  # keys of theme_names
    task: dict[str, str]  # {"de": "Rubin zieht und gewinnt 6 Steine", "en": "..."}
    rating: float  # initial rating, from the search effort the solution needs
    source: dict[str, Any] = field(default_factory=dict)  # seed, game and ply it came from

    @property
    def solver_moves(self) -> int:
        return (len(self.solution) + 1) // 2

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "position": self.position,
            "seat": self.seat,
            "solution": list(self.solution),
            "themes": list(self.themes),
            "task": dict(self.task),
            "rating": self.rating,
            "source": dict(self.source),
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Puzzle:
        return Puzzle(
            id=str(data["id"]),
            game=str(data["game"]),
            options=dict(data["options"]),
            position=dict(data["position"]),
            seat=int(data["seat"]),
            solution=[str(m) for m in data["solution"]],
            themes=[str(t) for t in data["themes"]],
            task={"de": str(data["task"]["de"]), "en": str(data["task"]["en"])},
            rating=float(data["rating"]),
            source=dict(data.get("source") or {}),
        )


def to_dict(puzzle: Puzzle) -> dict[str, Any]:
    return puzzle.to_dict()


def from_dict(data: dict[str, Any]) -> Puzzle:
    return Puzzle.from_dict(data)


def data_file(game: str) -> Path:
    return DATA_DIR / f"{game}.json"


@functools.cache
def load(game: str) -> list[Puzzle]:
    """Every stored puzzle of ``game`` (in file order); [] when the file is missing."""
    if game not in GAMES:
        raise ValueError(f"no puzzles for game {game!r}")
    path = data_file(game)
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Puzzle.from_dict(entry) for entry in data["puzzles"]]


@functools.cache
def _by_id() -> dict[str, Puzzle]:
    return {p.id: p for game in GAMES for p in load(game)}


def stable_id(game: str, public_key: str) -> str:
    """A puzzle's id: its game and a hash of what the solver sees of the start position
    (``public_key``: never a hidden rank).  The id reaches the browser before the attempt
    ends, so it depends on nothing the solver may not know: with the solution in the hash, a
    client could hash each legal move and find the one whose hash is the id.  The same
    puzzle gets the same id in every run, whatever its place in the file, so stored ratings
    and attempts stay with their puzzle when a run adds more (a file never holds two
    puzzles of one position, and a run skips a position whose id is taken)."""
    digest = hashlib.sha256(f"{game}|{public_key}".encode()).hexdigest()
    return f"{game}-{digest[:ID_DIGITS]}"


def get(puzzle_id: str) -> Puzzle | None:
    """The puzzle with this id, or None (ids start with their game: ``"bullet-5d0c91e7a4"``)."""
    game = puzzle_id.split("-", 1)[0] if isinstance(puzzle_id, str) else ""
    if game not in GAMES:
        return None
    return _by_id().get(puzzle_id)


def summary(puzzles: list[Puzzle]) -> dict[str, Any]:
    """Count, rating spread (min / median / max) and puzzles per theme, for docs/architecture.md."""
    ratings = sorted(p.rating for p in puzzles)
    themes: dict[str, int] = {}
    for p in puzzles:
        for theme in p.themes:
            themes[theme] = themes.get(theme, 0) + 1
    middle = len(ratings) // 2
    median = (ratings[middle] if len(ratings) % 2 else (ratings[middle - 1] + ratings[middle]) / 2) if ratings else None
    return {"count": len(puzzles), "rating_min": ratings[0] if ratings else None, "rating_median": median,
            "rating_max": ratings[-1] if ratings else None,
            "themes": dict(sorted(themes.items(), key=lambda kv: (-kv[1], kv[0])))}


def state(puzzle: Puzzle) -> Any:
    """The engine state of the puzzle's start position (hidden parts included)."""
    return get_game(puzzle.game).from_json(puzzle.position)
