"""Finished games for review tests: played with the engine, written to the ``games`` table."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from typing import Any

import psycopg

from shared.games import get_game

# (state, seat, legal move texts) -> the move to play
Chooser = Callable[[Any, int | None, list[str]], str]


def random_chooser(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda _state, _seat, legal: rng.choice(legal)


def play_out(game_name: str, options: dict[str, Any], seed: int, choose: Chooser,
             max_actions: int = 5000) -> tuple[list[str], list[int | None], Any]:
    """Moves and seats of a complete game, and its final state."""
    game = get_game(game_name)
    state = game.new_game(game.normalize_options(options), seed)
    moves: list[str] = []
    seats: list[int | None] = []
    while game.outcome(state) is None and len(moves) < max_actions:
        to_move = game.to_move(state)
        seat = to_move[0] if to_move else None
        move = choose(state, seat, [m.text for m in game.legal_moves(state, seat)])
        state = game.apply(state, move, seat)
        moves.append(move)
        seats.append(seat)
    if game.outcome(state) is None:
        raise RuntimeError("game did not end")
    return moves, seats, state


def insert_finished(conn: psycopg.Connection, game_name: str, options: dict[str, Any], seed: int,
                    moves: list[str], seats: list[int | None], final_state: Any,
                    users: tuple[int | None, int | None] = (None, None),
                    finished_at: dt.datetime | None = None) -> int:
    """Write a finished game row (result and record from the engine); return its id."""
    game = get_game(game_name)
    outcome = game.outcome(final_state)
    row = conn.execute(
        "INSERT INTO games (game, options, seed, seat0_user_id, seat1_user_id, moves, move_seats, status, result,"
        " finished_at, record, move_times) VALUES (%s, %s, %s, %s, %s, %s, %s, 'finished', %s, %s, %s, %s) RETURNING id",
        (game_name, psycopg.types.json.Jsonb(game.normalize_options(options)), seed, users[0], users[1], moves,
         seats, psycopg.types.json.Jsonb(outcome.to_dict()), finished_at or dt.datetime.now(dt.UTC),
         game.record(final_state, {}), [0] * len(moves)),  # move_times: 0004 wants one per move
    ).fetchone()
    return row["id"] if isinstance(row, dict) else row[0]
