"""What every computer opponent does before it thinks about a move.

:meth:`Player.choose_move` is the same frame for each game: check the strength, read
the legal moves from the view (the computer plays only what the view offers), and
answer at once when there is nothing to think about (no time left, or a single legal
move for the games that do not search it anyway).  What is particular to a game is
its :meth:`Player.search`, and Battlegeneral's setup (:meth:`Player.opening`).
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from typing import Any

STRENGTHS = ("leicht", "mittel", "stark")


def legal_texts(view: dict[str, Any]) -> list[str]:
    """The texts of the legal moves a view offers its seat."""
    return [m["text"] for m in view.get("legal_moves") or []]


class Player(ABC):
    """A game's computer opponent."""

    # Whether a lone legal move is played without a search.  The Battlehexagon and
    # Battlebullet players search it anyway: their search draws from ``rng``, and a
    # seeded game replays only if every move draws the same numbers.
    plays_a_lone_move_at_once: bool = True

    def choose_move(self, view: dict[str, Any], strength: str, deadline: float, rng: random.Random,
                    *limits: Any, **named_limits: Any) -> str:
        """A legal move text for the seat of ``view`` by ``deadline`` (``time.monotonic()``).

        ``limits`` / ``named_limits`` are the game's own knobs for tests and benchmarks (a node or sample
        budget instead of the clock, a ``stats`` dict to fill, other weights): see its
        :meth:`search`."""
        if strength not in STRENGTHS:
            raise ValueError(f"Unbekannte Stärke / unknown strength: {strength!r}")
        texts = legal_texts(view)
        if not texts:
            raise ValueError("Kein Zug möglich: die Partie ist vorbei oder der Computer ist nicht am Zug / no move to make")
        opening = self.opening(view, texts, rng)
        if opening is not None:
            return opening
        if (self.plays_a_lone_move_at_once and len(texts) == 1) or time.monotonic() >= deadline:
            return texts[0]
        return self.search(view, texts, strength, deadline, rng, *limits, **named_limits)

    def opening(self, view: dict[str, Any], texts: list[str], rng: random.Random) -> str | None:
        """A move made before any look at the clock or the search (Battlegeneral's setup),
        or None to go on."""
        return None

    @abstractmethod
    def search(self, view: dict[str, Any], texts: list[str], strength: str, deadline: float, rng: random.Random,
               *limits: Any, **named_limits: Any) -> str:
        """The move for ``strength`` among ``texts`` (the legal moves, at least one) while time is left.

        Every game's search takes ``stats=None``, a dict it fills with what it counted (nodes,
        depth, samples); the worker passes one on (services.ai_worker.move_task.decide)."""
