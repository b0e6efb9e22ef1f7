"""The Battlehexagon computer opponent (Leicht, Mittel, Stark), hints and review values.

Battlehexagon hides nothing, so the player rebuilds the position from the view's
``position`` text (stones, holes, side to move, clone clock) and the end rule from
its options, and searches it with :mod:`.search`.

* **Leicht** "zieht oft daneben": half of its moves are random, the others grab the
  most cells right now (1 ply, ties broken at random).
* **Mittel** "sieht seinen und deinen nächsten Zug": alpha-beta to exactly 2 plies on
  the cell difference.
* **Stark** "rechnet so weit voraus, wie es in gut einer Sekunde schafft": iterative
  deepening alpha-beta with transposition table and move ordering (TT move, cells
  turned, killers, history) until the caller's deadline (the worker passes ≈ 1.0 s).
  The end rule is part of the search: a side without a move loses every empty cell
  under *Auffüllen* and passes under *Aussetzen*; board full, no stones and the
  50-move clock end the line.  Repetitions are left to the server (a repetition
  needs four jumps in a row in one line, far beyond what matters for a decision).

Values are in **cells** (own cells minus the opponent's) from the point of view of
the seat to move; a decided game is worth ``±(WIN + final cell difference)`` so any
win outranks any running position.
"""

from __future__ import annotations

import random
from typing import Any

from services.ai_worker.players.player import Player
from services.ai_worker.players.search import AlphaBeta
from shared.games.hexagon import GAME, kernels
from shared.games.hexagon.board import NEIGHBOURS
from shared.games.hexagon.moves import CLONE_FROM, PASS, has_move
from shared.games.hexagon.notation import move_text
from shared.games.hexagon.state import DRAW_CLOCK

WIN = 100.0  # a decided game: ±(WIN + cell difference); running evaluations stay within ±61
MITTEL_DEPTH = 2
STARK_MAX_DEPTH = 64
LEICHT_RANDOM_SHARE = 0.5

# Reviews: a move that gives up at least one cell against the best move is marked yellow
# (a stone left to be turned back, a clone missed); from three cells red — that is one
# full flip of an exposed group or a jump that opens a hole worth a neighbourhood.
REVIEW_THRESHOLDS: tuple[float, float] = (1.0, 3.0)

# Load the numba move generator now (compiled once per machine, cached on disk), so
# that the first move of a worker does not spend its budget on it.
kernels.move_list(1, 2)

# A search position, always from the side to move: (me, opp, empty, clock).
Position = tuple[int, int, int, int]


class HexagonRules:
    """Battlehexagon for :class:`~.search.AlphaBeta`."""

    win_floor = WIN - 10.0  # wins are ≥ WIN + 1 − ply/100, running values ≤ 61

    def __init__(self, passes: bool) -> None:
        self.passes = passes

    def key(self, pos: Position) -> tuple[int, int]:
        # Colour-blind on purpose: the rules treat both colours alike, so the value
        # depends only on the mover's and the opponent's stones.
        return pos[0], pos[1]

    def terminal(self, pos: Position, ply: int) -> float | None:
        me, opp, empty, clock = pos
        if empty == 0 or me == 0 or opp == 0:
            return self._decided(me.bit_count() - opp.bit_count(), ply)
        if not has_move(me, empty):
            if not self.passes:  # Auffüllen: every empty cell goes to the opponent
                return self._decided(me.bit_count() - opp.bit_count() - empty.bit_count(), ply)
            if not has_move(opp, empty):
                return self._decided(me.bit_count() - opp.bit_count(), ply)
        if clock >= DRAW_CLOCK:
            return 0.0
        return None

    @staticmethod
    def _decided(diff: int, ply: int) -> float:
        # The sooner the better for the winner (and the later for the loser).
        if diff > 0:
            return WIN + diff - ply / 100
        if diff < 0:
            return -WIN + diff + ply / 100
        return 0.0

    def evaluate(self, pos: Position) -> float:
        return float(pos[0].bit_count() - pos[1].bit_count())

    def children(self, pos: Position) -> list[tuple[int, Position, float]]:
        me, opp, empty, clock = pos
        moves = kernels.move_list(me, empty)
        if not moves:
            return [(PASS, (opp, me, empty, clock + 1), 0.0)]
        out = []
        for move in moves:
            frm, to = move >> 6, move & 63
            bit = 1 << to
            turned = NEIGHBOURS[to] & opp
            if frm == CLONE_FROM:
                out.append((move, (opp ^ turned, me | bit | turned, empty ^ bit, 0), 1.0 + turned.bit_count()))
            else:
                src = 1 << frm
                child = (opp ^ turned, (me ^ src) | bit | turned, empty ^ bit ^ src, clock + 1)
                out.append((move, child, turned.bit_count() - 0.5))
        return out


def _rebuild(view: dict[str, Any]) -> tuple[HexagonRules, Position, Any]:
    """The search position and the engine state, from the view alone."""
    state = GAME.from_position(view["position"], {"end_rule": view["options"]["end_rule"]})
    rules = HexagonRules(state.setup.passes)
    return rules, (state.me, state.opp, state.empty, state.clock), state


def _first_legal(view: dict[str, Any]) -> str:
    legal = view.get("legal_moves") or []
    if not legal:
        raise ValueError("Kein Zug möglich: die Partie ist vorbei oder der Computer ist nicht am Zug / no move to make")
    return legal[0]["text"]


def _leicht(rules: HexagonRules, pos: Position, rng: random.Random) -> int:
    children = rules.children(pos)
    if rng.random() < LEICHT_RANDOM_SHARE:
        return rng.choice(children)[0]
    top = max(hint for _, _, hint in children)
    return rng.choice([move for move, _, hint in children if hint == top])


class HexagonPlayer(Player):
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
    ) -> str:
        """The computer's move for the seat the view belongs to (see the module doc).

        Optional, for tests and benchmarks: ``node_limit`` caps the search so that a game
        replays exactly from the rng seed; ``stats`` receives ``nodes`` and ``depth``."""
        rules, pos, _state = _rebuild(view)
        if strength == "leicht":
            return move_text(_leicht(rules, pos, rng))
        search = AlphaBeta(rules, deadline, node_limit, rng)
        move, _value = search.best_move(pos, MITTEL_DEPTH if strength == "mittel" else STARK_MAX_DEPTH)
        if stats is not None:
            stats.update(nodes=search.nodes, depth=search.depth_reached)
        return texts[0] if move is None else move_text(move)


PLAYER = HexagonPlayer()


def _root_values(view: dict[str, Any], deadline: float, rng: random.Random) -> list[tuple[int, float]]:
    _first_legal(view)
    rules, pos, _state = _rebuild(view)
    return AlphaBeta(rules, deadline, None, rng).root_values(pos, STARK_MAX_DEPTH)


def analyse(view: dict[str, Any], deadline: float, rng: random.Random, limit: int = 5) -> list[tuple[str, float]]:
    """Stark's values (cells, for the seat to move) of its best ``limit`` moves, best first."""
    return [(move_text(move), value) for move, value in _root_values(view, deadline, rng)[:limit]]


def value_of(view: dict[str, Any], move_text_: str, deadline: float, rng: random.Random) -> float:
    """Stark's value (cells) of one legal move, from the same root search as :func:`analyse`."""
    _rules, _pos, state = _rebuild(view)
    wanted = GAME.parse_move(state, move_text_)  # raises IllegalMove / BadNotation
    for move, value in _root_values(view, deadline, rng):
        if move == wanted:
            return value
    raise ValueError(f"Zug nicht gefunden / move not found: {move_text_!r}")
