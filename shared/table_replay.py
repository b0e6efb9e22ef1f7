"""Engine states of tables, replayed from the move log and cached per (game id, plies).

A table's state is a pure function of ``(game, options, seed, moves, move_seats)``,
so every game-service process can rebuild it from PostgreSQL; the cache only saves
replaying the whole game on every move.  A stale entry can never be used: the key
includes the number of plies, and the move log only grows by appending (an undo or
a takeback shortens it, and then the key differs or the replay starts over).
"""

from __future__ import annotations

from typing import Any

from shared.game_store import GameRow
from shared.games import get_game
from shared.games.base import Outcome
from shared.lru_map import LruMap

CACHE_SIZE = 4096  # tables; an engine state is a few kB


class StateCache:
    """Least-recently-used engine states keyed by (game id, plies, last move)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._states: LruMap[int, tuple[tuple, Any]] = LruMap(size)
        self.replays = 0  # full replays done (a test and the benchmark read it)

    @staticmethod
    def _key(moves: list[str], move_seats: list[int | None], reshuffles: tuple = ()) -> tuple:
        # The last move is part of the key: an undo followed by another move keeps the count.
        # The reshuffles too: after a Zug zurück (Battlehanse) the same moves lead to another deck.
        return (len(moves), moves[-1] if moves else None, move_seats[-1] if move_seats else None, tuple(reshuffles))

    def state(self, row: GameRow) -> Any:
        """The engine state after every move of ``row`` (after the end: concluded, see :func:`as_ended`)."""
        key = self._key(row.moves, row.move_seats, row.reshuffles)
        cached = self._states.get(row.id)
        if cached is not None and cached[0] == key:
            return as_ended(row, cached[1])
        state = replay(row.game, row.options, row.seed, row.moves, row.move_seats, row.reshuffles)
        self.replays += 1
        self.put(row.id, row.moves, row.move_seats, state, row.reshuffles)
        return as_ended(row, state)

    def put(self, game_id: int, moves: list[str], move_seats: list[int | None], state: Any,
            reshuffles: tuple = ()) -> None:
        # ``reshuffles``: the row's take-back marks; a Battlehanse state also carries its own.
        self._states.put(game_id, (self._key(moves, move_seats, getattr(state, "reshuffles", reshuffles)), state))

    def forget(self, game_id: int) -> None:
        self._states.forget(game_id)


def _mixed(engine: Any, state: Any, reshuffles: tuple, ply: int) -> Any:
    """``state`` with the take-back marks made before move ``ply`` (``games.reshuffles``:
    Battlehanse's new mixes, Battlegeneral's ranks a fight showed; ``Game.after_takeback``)."""
    for at, mark in reshuffles:
        if at == ply:
            state = engine.after_takeback(state, mark)
    return state


def as_ended(row: GameRow, state: Any) -> Any:
    """A finished or aborted table's state with the table's result concluded into it, so
    that a game ended by resignation, time, agreement or leaving shows everything, as
    one the rules ended does (``Game.conclude``); a running table's state as it is."""
    if row.running or not row.result:
        return state
    return get_game(row.game).conclude(state, Outcome.from_dict(row.result))


def replay(game: str, options: dict[str, Any], seed: int, moves: list[str], move_seats: list[int | None],
           reshuffles: tuple = ()) -> Any:
    """The state after ``moves`` (each applied for its seat) from the game's start."""
    engine = get_game(game)
    state = engine.new_game(options, seed)
    for ply, (text, seat) in enumerate(zip(moves, move_seats, strict=True)):
        state = engine.apply(_mixed(engine, state, reshuffles, ply), text, seat)
    return _mixed(engine, state, reshuffles, len(moves))


def states_along(game: str, options: dict[str, Any], seed: int, moves: list[str],
                 move_seats: list[int | None], reshuffles: tuple = ()) -> list[Any]:
    """Every state of a game, from the start to after the last move (for replays)."""
    engine = get_game(game)
    state = engine.new_game(options, seed)
    states = [state]
    for ply, (text, seat) in enumerate(zip(moves, move_seats, strict=True)):
        state = engine.apply(_mixed(engine, state, reshuffles, ply), text, seat)
        states.append(state)
    states[-1] = _mixed(engine, states[-1], reshuffles, len(moves))
    return states
