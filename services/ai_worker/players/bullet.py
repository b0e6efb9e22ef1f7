"""The Battlebullet computer opponent (Leicht, Mittel, Stark), hints and review values.

Battlebullet hides nothing: the player replays the view's ``start`` and ``history``
(falling back to its ``position`` text) to know the marbles, the pushed-out counts,
the ply count for the move limit and the positions already seen, and searches with
:mod:`.search`.

* **Leicht** "zieht oft daneben": half of its moves are random, the others the best
  by a 1-ply look at the simple evaluation (ties at random).
* **Mittel** "rechnet drei Halbzüge voraus": alpha-beta to exactly 3 plies on marbles
  pushed out and centre distance.
* **Stark** "so weit, wie es in knapp zwei Sekunden schafft": iterative deepening
  until the caller's deadline (the worker passes ≈ 1.8 s) with aspiration windows and
  principal-variation search, a transposition table, move ordering (TT move,
  push-outs, killers, pushes and centre gain, history) and a quiescence search of
  pending push-outs at the horizon, on the evaluation the seed names: marbles pushed
  out, centre distance, cohesion and danger at the edge (own marbles the opponent can
  push out next move, and the opponent's that it can push out now).  The search knows
  the win target, the move limit (after it the side that pushed out more wins) and
  that a side without a move loses; a position already seen in the game counts as a
  draw (threefold repetition is close, and shuffling back and forth must not look like
  progress).

Mittel, Stark, the hints and the review values search in the compiled kernels of
:mod:`.bullet_kernels` through :mod:`.bullet_search`; Mittel plays their reference
search (the previous pure-Python alpha-beta node for node, on the simple evaluation).
Leicht's one-ply look and :class:`BulletRules` (the rules as the search sees them,
for Leicht and the tests) stay in Python.

Values are in **marbles** for the seat to move: marbles it has pushed out minus
marbles it has lost, plus the positional terms (each worth a fraction of a marble);
a decided game is worth ``±WIN``.
"""

from __future__ import annotations

import random
from typing import Any

from services.ai_worker.players import bullet_search
from services.ai_worker.players.bullet_kernels import DISTANCE, HINT
from services.ai_worker.players.player import Player
from services.ai_worker.players.search import static_value
from shared.games.bullet import GAME
from shared.games.bullet.board import AXES, CELLS, SHIFTS
from shared.games.bullet.movegen import (
    ENEMY_XOR,
    OWN_XOR,
    PUSHES_OUT,
    has_move,
    moves_for,
    pushable_out,
)
from shared.games.bullet.movegen import TEXT as MOVE_TEXT

# Load the compiled search now (compiled once per machine, cached on disk), so that the
# first move of a process does not pay for it.
bullet_search.warm_up()

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


RINGS = tuple(sum(1 << c for c in CELLS if DISTANCE[c] == k) for k in range(5))

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


class BulletPlayer(Player):
    plays_a_lone_move_at_once = False

    def search(
        self,
        view: dict[str, Any],
        texts: list[str],
        strength: str,
        deadline: float,
        rng: random.Random,
        node_limit: int | None = None,
        stats: dict[str, int] | None = None,
        weights: dict[str, float] | None = None,
    ) -> str:
        """The computer's move for the seat the view belongs to (see the module doc).

        Optional, for tests and benchmarks: ``node_limit`` caps the search so that a game
        replays exactly from the rng seed; ``stats`` receives ``nodes`` and ``depth``;
        ``weights`` gives Stark another evaluation than its own (the Aufgaben's source games)."""
        rules, pos, state = _rules_and_position(view, full=strength == "stark")
        if strength == "leicht":
            return MOVE_TEXT[_leicht(rules, pos, rng)]
        root = bullet_search.make_root(state, rules.seen)
        if strength == "mittel":
            move, _value, ctx = bullet_search.reference_best(root, MITTEL_DEPTH, False, deadline, node_limit, rng)
        else:
            move, _value, ctx = bullet_search.stark_best(root, STARK_MAX_DEPTH, deadline, node_limit, rng, weights)
        if stats is not None:
            stats.update(nodes=ctx.nodes, depth=ctx.depth)
        return texts[0] if move is None else MOVE_TEXT[move]


PLAYER = BulletPlayer()


def _root_values(view: dict[str, Any], deadline: float, rng: random.Random) -> list[tuple[int, float]]:
    _first_legal(view)
    rules, _pos, state = _rules_and_position(view, full=True)
    values, _ctx = bullet_search.stark_values(bullet_search.make_root(state, rules.seen), STARK_MAX_DEPTH, deadline, rng)
    return values


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
