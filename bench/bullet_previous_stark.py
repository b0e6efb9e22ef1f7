"""The previous Battlebullet Stark, frozen: the pure-Python player before the compiled search.

Kept unchanged as the reference the new player is measured against: the equivalence
test (the compiled search in its reference mode must find the same best move and value
at fixed depths) and the fixed-effort ladders of ``bench.bullet_stark`` play it.  It is
not used by the worker.  Its search is the frozen copy :mod:`bench.bullet_previous_search`
(so later changes to the shared ``search.py`` cannot move this reference).  Below, the
original description.

Battlebullet hides nothing: the player replays the view's ``start`` and ``history``
(falling back to its ``position`` text) to know the marbles, the pushed-out counts,
the ply count for the move limit and the positions already seen, and searches with
:mod:`bench.bullet_previous_search`.

* **Leicht** "zieht oft daneben": half of its moves are random, the others the best
  by a 1-ply look at the simple evaluation (ties at random).
* **Mittel** "rechnet drei Halbzüge voraus": alpha-beta to exactly 3 plies on marbles
  pushed out and centre distance.
* **Stark** "so weit, wie es in knapp zwei Sekunden schafft": iterative deepening
  alpha-beta (TT, move ordering: TT move, push-outs and pushes, centre gain, killers,
  history) until the caller's deadline (the worker passes ≈ 1.8 s), on the full
  evaluation the seed names: marbles pushed out, centre distance, cohesion and danger
  at the edge (own marbles the opponent can push out next move, and the opponent's
  that it can push out now — the quiescence-like part: a leaf with a push-out on the
  board is not taken at face value).  The search knows the win target, the move
  limit (after it the side that pushed out more wins) and that a side without a move
  loses; a position already seen in the game counts as a draw (threefold repetition
  is close, and shuffling back and forth must not look like progress).

Values are in **marbles** for the seat to move: marbles it has pushed out minus
marbles it has lost, plus the positional terms (each worth a fraction of a marble);
a decided game is worth ``±WIN``.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench.bullet_previous_search import AlphaBeta, static_value
from shared.games.bullet import GAME
from shared.games.bullet.board import AXES, CELLS, NAME, SHIFTS
from shared.games.bullet.movegen import (
    DIRECTION,
    ENEMY_XOR,
    GROUP,
    OWN_XOR,
    PUSHED,
    PUSHES_OUT,
    has_move,
    moves_for,
    pushable_out,
)
from shared.games.bullet.movegen import TEXT as MOVE_TEXT

WIN = 10.0  # more than any running evaluation (material ≤ 5, positional terms < 3)
MITTEL_DEPTH = 3
STARK_MAX_DEPTH = 64
LEICHT_RANDOM_SHARE = 0.5

# Evaluation weights, in marbles.
CENTRE_WEIGHT = 0.03  # per step of hex distance to E5, summed over a side's marbles
COHESION_WEIGHT = 0.02  # per pair of own marbles side by side
THREAT_NOW = 0.6  # the side to move can push an enemy marble out right now
AT_RISK = 0.25  # per own marble the opponent could push out after our move

# Reviews (marbles given up against the best move): yellow from 0.35 — a clear
# positional concession (about a dozen centre steps, or a marble left hanging at the
# edge); red from 1.0 — a marble lost or a push-out missed.
REVIEW_THRESHOLDS: tuple[float, float] = (0.35, 1.0)


def _distance(cell: int) -> int:
    row, diag = divmod(cell, 11)
    dr, dd = row - 5, diag - 5
    return max(abs(dr), abs(dd), abs(dr - dd))


DISTANCE = {cell: _distance(cell) for cell in CELLS}
RINGS = tuple(sum(1 << c for c in CELLS if DISTANCE[c] == k) for k in range(5))


def _centre_gain(move: int) -> float:
    """Steps toward the centre for the moving marbles plus steps outward for the pushed."""
    shift = SHIFTS[DIRECTION[move]]
    gain = sum(DISTANCE[c] - DISTANCE[c + shift] for c in GROUP[move])
    lead = max(GROUP[move], key=lambda c: c * shift)
    for k in range(1, PUSHED[move] + 1):
        cell, target = lead + k * shift, lead + (k + 1) * shift
        gain += (DISTANCE[target] if target in NAME else 5) - DISTANCE[cell]
    return float(gain)


HINT = tuple(
    10.0 * PUSHES_OUT[m] + 2.0 * PUSHED[m] + 0.5 * _centre_gain(m) + 0.1 * len(GROUP[m]) for m in range(len(GROUP))
)

# A search position, always from the side to move:
# (own, enemy, pushed out by own side, pushed out by enemy, ply of the game).
Position = tuple[int, int, int, int, int]


def centre_sum(marbles: int) -> int:
    return sum(k * (marbles & ring).bit_count() for k, ring in enumerate(RINGS) if k)


def cohesion(marbles: int) -> int:
    return sum((marbles & (marbles >> SHIFTS[axis])).bit_count() for axis in AXES)


class BulletRules:
    """Battlebullet for :class:`~.search.AlphaBeta` (``full``: Stark's evaluation)."""

    win_floor = WIN - 1.0

    def __init__(
        self, win_target: int, move_limit: int | None, root_side: int, root_ply: int, seen: frozenset, full: bool
    ) -> None:
        self.win_target = win_target
        self.last_ply = None if move_limit is None else 2 * move_limit
        self.root_side = root_side
        self.root_ply = root_ply
        self.seen = seen  # (white, black, side) of earlier positions since the last push-out
        self.full = full

    def key(self, pos: Position) -> tuple[int, int, int, int]:
        return pos[0], pos[1], pos[2], pos[3]

    def terminal(self, pos: Position, ply: int) -> float | None:
        own, enemy, out_own, out_enemy, game_ply = pos
        if out_enemy >= self.win_target:
            return -WIN + ply / 100
        if out_own >= self.win_target:
            return WIN - ply / 100
        if self.last_ply is not None and game_ply >= self.last_ply:
            if out_own == out_enemy:
                return 0.0
            return WIN - ply / 100 if out_own > out_enemy else -WIN + ply / 100
        if self.seen and ply > 0:
            side = (self.root_side + game_ply - self.root_ply) % 2
            if ((own, enemy, 0) if side == 0 else (enemy, own, 1)) in self.seen:
                return 0.0
        if not has_move(own, enemy):
            return -WIN + ply / 100
        return None

    def evaluate(self, pos: Position) -> float:
        own, enemy, out_own, out_enemy, _ply = pos
        value = float(out_own - out_enemy) + CENTRE_WEIGHT * (centre_sum(enemy) - centre_sum(own))
        if self.full:
            value += COHESION_WEIGHT * (cohesion(own) - cohesion(enemy))
            if pushable_out(own, enemy):
                value += THREAT_NOW
            value -= AT_RISK * pushable_out(enemy, own).bit_count()
        return value

    def children(self, pos: Position) -> list[tuple[int, Position, float]]:
        own, enemy, out_own, out_enemy, game_ply = pos
        return [
            (m, (enemy ^ ENEMY_XOR[m], own ^ OWN_XOR[m], out_enemy, out_own + PUSHES_OUT[m], game_ply + 1), HINT[m])
            for m in moves_for(own, enemy)
        ]


def _rebuild(view: dict[str, Any]) -> Any:
    """The engine state from the view alone: replayed from start and history when they
    are there (to know the positions seen), else from the position text."""
    options = view["options"]
    try:
        return GAME.from_json(
            {
                "game": "bullet",
                "options": options,
                "seed": 0,
                "start": view.get("start"),
                "moves": list(view.get("history") or []),
                "position": view["position"],
            }
        )
    except (ValueError, KeyError, TypeError):
        return GAME.from_position(view["position"], options)


def _rules_and_position(view: dict[str, Any], full: bool) -> tuple[BulletRules, Position, Any]:
    state = _rebuild(view)
    side = state.side
    own, enemy = (state.white, state.black) if side == 0 else (state.black, state.white)
    seen = frozenset(state.seen[:-1])
    rules = BulletRules(state.win_target, state.move_limit, side, state.ply, seen, full)
    return rules, (own, enemy, state.out[side], state.out[1 - side], state.ply), state


def _first_legal(view: dict[str, Any]) -> str:
    legal = view.get("legal_moves") or []
    if not legal:
        raise ValueError("Kein Zug möglich: die Partie ist vorbei oder der Computer ist nicht am Zug / no move to make")
    return legal[0]["text"]


def _leicht(rules: BulletRules, pos: Position, rng: random.Random) -> int:
    children = rules.children(pos)
    if rng.random() < LEICHT_RANDOM_SHARE:
        return rng.choice(children)[0]
    scored = [(-static_value(rules, child), move) for move, child, _ in children]
    top = max(value for value, _ in scored)
    return rng.choice([move for value, move in scored if value == top])


def choose_move(
    view: dict[str, Any],
    strength: str,
    deadline: float,
    rng: random.Random,
    node_limit: int | None = None,
    stats: dict[str, int] | None = None,
) -> str:
    """The computer's move for the seat the view belongs to (see the module doc).

    Optional, for tests and benchmarks: ``node_limit`` caps the search so that a game
    replays exactly from the rng seed; ``stats`` receives ``nodes`` and ``depth``."""
    fallback = _first_legal(view)
    if time.monotonic() >= deadline:
        return fallback
    if strength not in ("leicht", "mittel", "stark"):
        raise ValueError(f"Unbekannte Stärke / unknown strength: {strength!r}")
    rules, pos, _state = _rules_and_position(view, full=strength == "stark")
    if strength == "leicht":
        return MOVE_TEXT[_leicht(rules, pos, rng)]
    search = AlphaBeta(rules, deadline, node_limit, rng)
    move, _value = search.best_move(pos, MITTEL_DEPTH if strength == "mittel" else STARK_MAX_DEPTH)
    if stats is not None:
        stats.update(nodes=search.nodes, depth=search.depth_reached)
    return fallback if move is None else MOVE_TEXT[move]


def _root_values(view: dict[str, Any], deadline: float, rng: random.Random) -> list[tuple[int, float]]:
    _first_legal(view)
    rules, pos, _state = _rules_and_position(view, full=True)
    return AlphaBeta(rules, deadline, None, rng).root_values(pos, STARK_MAX_DEPTH)


def analyse(view: dict[str, Any], deadline: float, rng: random.Random, limit: int = 5) -> list[tuple[str, float]]:
    """Stark's values (marbles, for the seat to move) of its best ``limit`` moves, best first."""
    return [(MOVE_TEXT[move], value) for move, value in _root_values(view, deadline, rng)[:limit]]


def value_of(view: dict[str, Any], move_text: str, deadline: float, rng: random.Random) -> float:
    """Stark's value (marbles) of one legal move, from the same root search as :func:`analyse`."""
    state = _rebuild(view)
    wanted = GAME.parse_move(state, move_text)  # raises IllegalMove / BadNotation
    for move, value in _root_values(view, deadline, rng):
        if move == wanted:
            return value
    raise ValueError(f"Zug nicht gefunden / move not found: {move_text!r}")
