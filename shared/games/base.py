"""The one interface every rules engine offers.

The game service, the AI workers, the CLI and the tests all talk to a game through
:class:`Game`; none of them import a game's internals.  :class:`Rules` is its core
(who is to move, the legal moves, playing one, the end, a seat's view); :class:`Game`
adds what the platform needs of every game (creation, notation, text forms, records,
analysis) and the defaults for games without hidden information.  What only some
games offer is declared as a capability in :mod:`shared.games.capabilities`.  An engine is pure: state in,
state out, no I/O, no clock, no global randomness.  Everything random is drawn from
the seed given to :meth:`Game.new_game` and carried inside the state, so a game
replays exactly from ``(options, seed, moves)``.

Seats are ``0`` and ``1``; seat 0 moves first (Rubin, Weiß, Rot, the first Battlehanse
player).  ``None`` as a seat means a spectator.

Moves travel as text in the game's own notation: the client sends the text, the
server parses it with :meth:`Game.parse_move`.  Internally an engine may use any
move representation (ints, tuples); :meth:`Game.legal_moves` returns
:class:`MoveInfo` records that carry the text and the visible effect, so a client can
preview and highlight without knowing the rules.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

Seat = int | None  # 0, 1, or None for a spectator

S = TypeVar("S")  # a game's state
M = TypeVar("M")  # a game's internal move (an int, or a setup tuple in Battlegeneral)


class GameError(ValueError):
    """Base of every error an engine raises on bad input.

    Carries a stable machine code and the message in German and English, because
    the message goes straight back to the player who caused it.
    """

    def __init__(self, code: str, de: str, en: str) -> None:
        super().__init__(en)
        self.code = code
        self.de = de
        self.en = en

    def message(self, lang: str = "de") -> str:
        return self.en if lang == "en" else self.de

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "de": self.de, "en": self.en}


class IllegalMove(GameError):
    """A move that the rules forbid in this state (wrong turn, blocked, repetition …)."""


class BadNotation(GameError):
    """Text that is not a move / position / option in the game's notation."""


class BadOptions(GameError):
    """Options that the game does not offer (unknown map, win target 5 …)."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game.  ``winner`` is 0, 1, or None for a draw."""

    winner: int | None
    # A member of the game's :attr:`Game.reasons`, or of :class:`~shared.games.table_reason.TableReason`
    # when the table ended the game; a plain str when read back from storage (StrEnum compares equal).
    reason: str
    de: str  # German text shown to players, e.g. "Fahne erobert"
    en: str
    score: tuple[float, float] | None = None  # game-specific final score (cells, marbles, points)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Outcome:
        """The inverse of :meth:`to_dict` (a table's stored result → an outcome)."""
        score = data.get("score")
        return Outcome(data.get("winner"), str(data.get("reason", "")), str(data.get("de", "")),
                       str(data.get("en", "")), tuple(score) if score is not None else None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": str(self.reason),
            "de": self.de,
            "en": self.en,
            "score": list(self.score) if self.score is not None else None,
        }


@dataclass(frozen=True)
class MoveInfo:
    """A legal move as a client sees it: its text and what it changes.

    ``effect`` is game-specific but JSON-able and contains only what the mover may
    know (e.g. Battlehexagon: {"to": "e2", "from": None, "turns": ["d1", "f2"]}).
    """

    text: str
    effect: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "effect": self.effect}


class Rules(ABC, Generic[S, M]):
    """The core of a game: enough to play it from a state to its end.

    ``S`` is the state, ``M`` the internal move.  States are opaque to callers and
    must be treated as immutable: :meth:`apply` returns a new state and never changes
    its argument.
    """

    @abstractmethod
    def to_move(self, state: S) -> tuple[int, ...]:
        """Seats that may act now: usually one seat; both during a simultaneous setup; () when over."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int | None = None) -> list[MoveInfo]:
        """Every legal move of ``seat`` (default: the single seat to move), counted as docs/rules.md counts them."""

    @abstractmethod
    def apply(self, state: S, move: M | str, seat: int | None = None) -> S:
        """Play a legal move (internal form, or text) and return the new state.
        Raises :class:`IllegalMove` if it is not legal for ``seat``."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while running; otherwise the result with its reason."""

    @abstractmethod
    def view(self, state: S, seat: Seat) -> dict[str, Any]:
        """The only door toward a client: exactly what ``seat`` may know (docs/rules.md,
        "What each side may know").  Includes the seat's legal moves when it is to move.
        After the game ends, everything."""


class Game(Rules[S, M]):
    """A game's rules as the platform uses them.  One instance per game kind, stateless itself."""

    name: str  # "hexagon", "bullet", "general", "hanse"
    title: str  # "Battlehexagon" …
    seat_names: tuple[tuple[str, str], tuple[str, str]]  # ((de0, en0), (de1, en1)), e.g. (("Rubin","Ruby"),("Perle","Pearl"))
    reasons: type[StrEnum]  # how this game's rules end a game (the table's own ends: TableReason)

    # ---- options and creation -------------------------------------------------
    @abstractmethod
    def default_options(self) -> dict[str, Any]:
        """The defaults the seed names (e.g. {"map": "klassisch", "end_rule": "auffuellen"})."""

    @abstractmethod
    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults, check every value; raise :class:`BadOptions` on anything unknown."""

    @abstractmethod
    def new_game(self, options: dict[str, Any], seed: int) -> S:
        """A fresh state.  ``seed`` decides everything random (deck, Ratsmarken, Zufall map …)."""

    # ---- notation --------------------------------------------------------------
    @abstractmethod
    def parse_move(self, state: S, text: str, seat: int | None = None) -> M:
        """Text → internal move.  Raises :class:`BadNotation` for unreadable text and
        :class:`IllegalMove` (with the reason) for a readable move that is not legal now."""

    @abstractmethod
    def move_text(self, state: S, move: M) -> str:
        """Internal move → its notation in ``state`` (the state *before* the move)."""

    # ---- hidden information: the defaults are for games without it ---------------
    def conclude(self, state: S, outcome: Outcome) -> S:
        """The state of a game that the table ended (resignation, time, agreement,
        leaving) rather than the rules: ``outcome`` becomes its result, and :meth:`view`,
        :meth:`record` and :meth:`outcome` of the returned state treat it as over —
        "after the game, everything".  A state the engine already ended is returned
        unchanged (the rules' own end stands).  The default is for games without hidden
        information, whose views already show everything: the state itself."""
        return state

    def sealed_view(self, state: S, seat: Seat) -> dict[str, Any]:
        """``seat``'s view as play showed it, even after the end: what the end would
        reveal (hidden setups, hands, the deck order) stays hidden.  For a finished
        game whose deal others still play that day.  The default is for games without
        hidden information, whose views show everything anyway."""
        return self.view(state, seat)

    def open_view(self, state: S) -> dict[str, Any]:
        """A position of a *finished* game as its replay shows it: everything of that moment
        open (both hands, every rank), nothing of later moments.  Only for games that have
        ended (after the game, everything); the default is for games without hidden
        information, whose spectator view already shows everything."""
        return self.view(state, None)

    # ---- a take-back -----------------------------------------------------------
    def takeback_mark(self, before: S, kept: S, seed: int | None) -> int | None:
        """What a take-back must keep from the moves it removes, as one int that
        :meth:`after_takeback` applies to ``kept`` (the state replayed without them);
        ``before`` is the state with them, ``seed`` a fresh random number when the
        table mixes unseen things anew (None: it does not).  None: nothing to keep.
        The default is for games where replaying the kept moves is the whole truth."""
        return None

    def after_takeback(self, state: S, mark: int) -> S:
        """``state`` with a take-back's :meth:`takeback_mark` applied (replays call it
        at the ply where the take-back happened)."""
        return state

    # ---- text forms ----------------------------------------------------------
    @abstractmethod
    def to_position(self, state: S) -> str:
        """The full position in the game's FEN-like format (documented in the module)."""

    @abstractmethod
    def from_position(self, text: str, options: dict[str, Any] | None = None) -> S:
        """Parse a position; raises :class:`BadNotation`."""

    @abstractmethod
    def to_json(self, state: S) -> dict[str, Any]:
        """The full state (hidden parts included: server side only) as JSON; round-trips exactly."""

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> S: ...

    @abstractmethod
    def render(self, state: S) -> str:
        """The board as plain text, for ``python -m shared.games show``."""

    # ---- records -------------------------------------------------------------
    @abstractmethod
    def record(self, state: S, headers: dict[str, str]) -> str:
        """The plain-text game record for download: headers (game, options, players,
        date, result and reason), then the numbered moves; for games with hidden
        information, after the end, everything (setups, hands, draws).  ``state``
        must carry its history (engines keep the move list and seed in the state)."""

    @abstractmethod
    def parse_record(self, text: str) -> S:
        """Replay a record; returns the final state.  Raises :class:`BadNotation`."""

    @abstractmethod
    def history(self, state: S) -> list[str]:
        """The moves played so far, as text (engines keep them in the state)."""

    # ---- analysis ------------------------------------------------------------
    @abstractmethod
    def perft(self, state: S, depth: int) -> int:
        """Leaf count at ``depth`` (moves counted at the leaves without applying them)."""
