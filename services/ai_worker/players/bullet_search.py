"""The thin Python shell around the compiled Battlebullet searches (:mod:`.bullet_kernels`).

A :class:`Root` is one search position, translated once to the kernels' compact
boards together with the end rules (win target, move limit, the side and ply at the
root, the positions already seen in the game); a :class:`Context` holds one search's
tables (TT, killers, history, move buffers).  The functions here run one search and
return plain Python values.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from services.ai_worker.players import bullet_kernels as k
from shared.games.bullet.movegen import moves_for

TT_BITS_REFERENCE = 17  # 128k slots: far more than a reference search stores (Mittel, tests, hints)
INF = float("inf")


@dataclass(frozen=True)
class Root:
    own: int  # compact bitboards
    enemy: int
    out_own: int
    out_enemy: int
    rules: np.ndarray  # [win_target, last_ply or -1, root_side, root_ply]
    seen: np.ndarray
    seen_mask: int
    grid_own: int  # the engine's bitboards, for the root move list
    grid_enemy: int


def make_root(state: object, seen_keys: frozenset | None = None) -> Root:
    """The root of a search from an engine state (``seen_keys``: the earlier positions
    that count as a draw, default: the state's own ``seen`` less the current one)."""
    side = state.side
    own, enemy = (state.white, state.black) if side == 0 else (state.black, state.white)
    keys = frozenset(state.seen[:-1]) if seen_keys is None else seen_keys
    rows = [(k.to_compact(w), k.to_compact(b), s) for w, b, s in sorted(keys)]
    seen, mask = k.seen_table(np.array(rows, dtype=np.int64).reshape(-1, 3))
    last_ply = -1 if state.move_limit is None else 2 * state.move_limit
    rules = np.array([state.win_target, last_ply, side, state.ply], dtype=np.int64)
    return Root(k.to_compact(own), k.to_compact(enemy), state.out[side], state.out[1 - side], rules, seen, mask,
                own, enemy)


class Context:
    """One search's tables (a fresh one per decision, as the previous Stark had)."""

    def __init__(self, root: Root, deadline: float, node_limit: int | None, tt_bits: int,
                 tt: tuple[np.ndarray, np.ndarray, int] | None = None) -> None:
        self.stat = np.zeros(8, dtype=np.int64)
        self.stat[k.ST_LIMIT] = node_limit or 0
        self.stat[k.ST_SEEN_MASK] = root.seen_mask
        self.deadline = float(deadline)
        if tt is None:
            self.tt_keys = np.zeros((1 << tt_bits, 6), dtype=np.int64)
            self.tt_vals = np.zeros(1 << tt_bits, dtype=np.float64)
        else:
            self.tt_keys, self.tt_vals, self.stat[k.ST_GENERATION] = tt
        self.killers = np.full((k.MAX_PLY, 2), -1, dtype=np.int64)
        self.history = np.zeros(k.MOVE_COUNT, dtype=np.int64)
        self.moves = np.zeros((k.MAX_PLY, k.MAX_MOVES), dtype=np.int64)
        self.scores = np.zeros((k.MAX_PLY, k.MAX_MOVES), dtype=np.float64)

    @property
    def nodes(self) -> int:
        return int(self.stat[k.ST_NODES])

    @property
    def depth(self) -> int:
        return int(self.stat[k.ST_DEPTH])


def reference_order(root: Root, rng: random.Random | None) -> list[int]:
    """The previous Stark's root order: generation order, shuffled by the rng (equal
    moves vary between games), then stably by hint."""
    children = moves_for(root.grid_own, root.grid_enemy)
    if rng is not None:
        rng.shuffle(children)
    return sorted(children, key=lambda m: k.HINT[m] * 1000.0, reverse=True)


def _child_ref(ctx: Context, root: Root, move: int, depth: int, alpha: float, beta: float, full: bool) -> float:
    """The value of root ``move`` for the root side (the reference node search below it)."""
    return -k._negamax_ref(
        root.enemy ^ int(k.M_ENEMY[move]), root.own ^ int(k.M_OWN[move]), root.out_enemy,
        root.out_own + int(k.M_OUT[move]), depth - 1, -beta, -alpha, 1, full, root.rules, root.seen, ctx.stat,
        ctx.deadline, ctx.tt_keys, ctx.tt_vals, ctx.killers, ctx.history, ctx.moves, ctx.scores,
    )


def reference_best(
    root: Root, max_depth: int, full: bool, deadline: float, node_limit: int | None, rng: random.Random | None
) -> tuple[int | None, float, Context]:
    """The previous Stark's ``best_move`` on the compiled node search: (move or None,
    value, context).  The root loop stays in Python (a few hundred calls per decision):
    numba's on-disk cache mishandles a cached caller of a recursive kernel."""
    ctx = Context(root, deadline, node_limit, TT_BITS_REFERENCE)
    order = reference_order(root, rng)
    if not order:
        return None, 0.0, ctx
    if len(order) == 1:
        return order[0], 0.0, ctx
    best: tuple[int | None, float] = (order[0], -INF)
    stopped = False
    for depth in range(1, max_depth + 1):
        alpha = -INF
        depth_best: int | None = None
        for move in order:
            value = _child_ref(ctx, root, move, depth, alpha, INF, full)
            if ctx.stat[k.ST_STOP]:
                stopped = True
                break
            if value > alpha or depth_best is None:
                alpha, depth_best = value, move
        if stopped:
            if depth_best is not None:
                best = (depth_best, alpha)
            break
        best = (depth_best, alpha)
        ctx.stat[k.ST_DEPTH] = depth
        order.sort(key=lambda m: m != depth_best)  # stable: previous best first
        if abs(alpha) >= k.WIN_FLOOR:
            break
    if ctx.depth == 0 and best[1] == -INF:
        return None, 0.0, ctx  # not even the first root move finished depth 1
    return best[0], float(best[1]), ctx


def reference_values(
    root: Root, max_depth: int, deadline: float, node_limit: int | None, rng: random.Random | None
) -> tuple[list[tuple[int, float]], Context]:
    """The previous Stark's ``root_values`` on the compiled node search: every root move
    with its full-window value at depths 1, 2, 4, 6 … (the deepest finished for all
    moves; before that the static values), best first."""
    ctx = Context(root, deadline, node_limit, TT_BITS_REFERENCE)
    children = moves_for(root.grid_own, root.grid_enemy)
    if rng is not None:
        rng.shuffle(children)
    finished = [(m, -_static_ref(root, m, ctx)) for m in children]
    finished.sort(key=lambda mv: -mv[1])
    order = sorted(children, key=lambda m: k.HINT[m] * 1000.0, reverse=True)
    for depth in [1, *range(2, max_depth + 1, 2)]:
        values: list[tuple[int, float]] = []
        for move in order:
            value = _child_ref(ctx, root, move, depth, -INF, INF, True)
            if ctx.stat[k.ST_STOP]:
                break
            values.append((move, float(value)))
        if ctx.stat[k.ST_STOP]:
            break
        values.sort(key=lambda mv: -mv[1])
        finished = values
        ctx.stat[k.ST_DEPTH] = depth
        rank = {move: i for i, (move, _) in enumerate(values)}
        order.sort(key=lambda m: rank[m])
        if all(abs(v) >= k.WIN_FLOOR for _, v in values):
            break
    return finished, ctx


def _static_ref(root: Root, move: int, ctx: Context) -> float:
    """The previous Stark's value of the position after root ``move`` without search."""
    own, enemy = root.enemy ^ int(k.M_ENEMY[move]), root.own ^ int(k.M_OWN[move])
    out_own, out_enemy = root.out_enemy, root.out_own + int(k.M_OUT[move])
    over = k.terminal(own, enemy, out_own, out_enemy, 1, root.rules, root.seen, ctx.stat, ctx.moves[k.MAX_PLY - 1],
                      0.0)
    return float(over) if not np.isnan(over) else float(k.evaluate_ref(own, enemy, out_own, out_enemy, True))


def warm_up() -> None:
    """Load (or, the first time on a machine, compile) every kernel with a tiny search,
    so that no real move pays for it."""
    from shared.games.bullet import GAME

    state = GAME.new_game(GAME.default_options(), 0)
    root = make_root(state)
    reference_best(root, 2, True, float("inf"), None, None)
    reference_best(root, 1, False, float("inf"), None, None)
    reference_values(root, 1, float("inf"), None, None)
    stark_best(root, 3, float("inf"), None, None)
    stark_values(root, 1, float("inf"), None)


# ---- Stark ------------------------------------------------------------------------------------
TT_BITS_STARK = 20
# Evaluation weights (marbles): material, centre step, side-by-side pair, own push-out
# available now, own marble the opponent can push out, marble on the edge ring, line of
# three; contempt: what a draw (repetition, equal at the move limit) costs Stark.
# Tuned by self-play (python -m bench.bullet_tune --iterations 300 --nodes 5000, SPSA) and adopted
# because they beat the hand-set weights (:data:`HAND_SET_WEIGHTS`) in bench.bullet_tune duel:
# 0.885 over 100 games at 20,000 nodes a move each (docs/performance.md, Battlebullet Stark).
STARK_WEIGHTS = {"material": 1.0, "centre": 0.072, "cohesion": 0.030, "threat": 0.636, "risk": 0.120, "edge": 0.004,
                 "line": 0.014, "contempt": 0.15}
# The previous Stark's terms plus contempt: the yardstick of the duel, and the fixed judge of the
# stored Aufgaben (services.ai_worker.puzzles), which a retuning of Stark must not change.
HAND_SET_WEIGHTS = {"material": 1.0, "centre": k.CENTRE_WEIGHT, "cohesion": k.COHESION_WEIGHT, "threat": k.THREAT_NOW,
                    "risk": k.AT_RISK, "edge": 0.0, "line": 0.0, "contempt": 0.15}
STARK_OPTIONS = {"pvs": 1, "lmr": 1, "qdepth": 4, "order": 1, "aspiration": 1}
ASPIRATION = 0.3  # marbles either side of the previous depth's value


def _weights(weights: dict[str, float]) -> np.ndarray:
    return np.array([weights[name] for name in ("material", "centre", "cohesion", "threat", "risk", "edge", "line",
                                              "contempt")],
                    dtype=np.float64)


def _options(options: dict[str, int]) -> np.ndarray:
    return np.array([options["pvs"], options["lmr"], options["qdepth"], options["order"]], dtype=np.int64)


class _StarkTable:
    """Stark's TT, kept for the life of the process: a fresh 48 MB table per move would
    cost a page fault per new entry, tens of milliseconds of a short budget.  Each search
    takes the next generation (older entries count as empty); a second search running at
    the same time in the process (threads) gets a table of its own."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.keys = np.zeros((1 << TT_BITS_STARK, 6), dtype=np.int64)
        self.vals = np.zeros(1 << TT_BITS_STARK, dtype=np.float64)
        self.generation = 0

    def take(self) -> tuple[np.ndarray, np.ndarray, int] | None:
        if not self.lock.acquire(blocking=False):
            return None
        self.generation += 1
        return self.keys, self.vals, self.generation


_STARK_TABLE: _StarkTable | None = None


@contextmanager
def _stark_tt() -> Iterator[tuple[np.ndarray, np.ndarray, int] | None]:
    global _STARK_TABLE
    if _STARK_TABLE is None:
        _STARK_TABLE = _StarkTable()
    table = _STARK_TABLE
    taken = table.take()
    try:
        yield taken
    finally:
        if taken is not None:
            table.lock.release()


class StarkSearch:
    """One Stark decision: iterative deepening over the root moves with aspiration
    windows and principal-variation search, on :func:`.bullet_kernels.negamax`."""

    def __init__(self, root: Root, deadline: float, node_limit: int | None, weights: dict[str, float] | None = None,
                 options: dict[str, int] | None = None,
                 tt: tuple[np.ndarray, np.ndarray, int] | None = None) -> None:
        self.root = root
        self.ctx = Context(root, deadline, node_limit, TT_BITS_STARK, tt)
        self.weights = _weights(weights or STARK_WEIGHTS)
        self.options = {**STARK_OPTIONS, **(options or {})}
        self.opts = _options(self.options)

    def child(self, move: int, depth: int, alpha: float, beta: float) -> float:
        root, ctx = self.root, self.ctx
        return -k.negamax(
            root.enemy ^ int(k.M_ENEMY[move]), root.own ^ int(k.M_OWN[move]), root.out_enemy,
            root.out_own + int(k.M_OUT[move]), depth - 1, -beta, -alpha, 1, root.rules, root.seen, ctx.stat,
            ctx.deadline, self.weights, self.opts, ctx.tt_keys, ctx.tt_vals, ctx.killers, ctx.history, ctx.moves,
            ctx.scores,
        )

    @property
    def stopped(self) -> bool:
        return bool(self.ctx.stat[k.ST_STOP])

    def _depth(self, order: list[int], depth: int, low: float, high: float) -> tuple[int | None, float, bool]:
        """One root iteration in the window (low, high): (best move, value, finished).
        The best move is None when no move got above ``low`` (a fail low)."""
        alpha = low
        best: int | None = None
        pvs = self.options["pvs"]
        for i, move in enumerate(order):
            if i == 0 or not pvs:
                value = self.child(move, depth, alpha, high)
            else:
                value = self.child(move, depth, alpha, alpha + k.NULL_WINDOW)
                if not self.stopped and alpha < value < high:
                    value = self.child(move, depth, alpha, high)
            if self.stopped:
                return best, alpha, False
            if value > alpha:
                alpha, best = value, move
                if alpha >= high:
                    break
        return best, alpha, True

    def best_move(self, order: list[int], max_depth: int) -> tuple[int | None, float]:
        if not order:
            return None, 0.0
        if len(order) == 1:
            return order[0], 0.0
        best: tuple[int | None, float] = (None, 0.0)
        for depth in range(1, max_depth + 1):
            low, high = -INF, INF
            if self.options["aspiration"] and depth >= 3 and best[0] is not None and abs(best[1]) < k.WIN_FLOOR:
                low, high = best[1] - ASPIRATION, best[1] + ASPIRATION
            while True:
                move, value, finished = self._depth(order, depth, low, high)
                if not finished:
                    break
                if move is None and low > -INF:
                    low = -INF  # fail low: every move is worse than hoped
                    continue
                if value >= high and high < INF:
                    high = INF  # fail high: search the best move again with an open window
                    order.remove(move)
                    order.insert(0, move)
                    continue
                break
            if not finished:
                # an unfinished depth counts once a move beat the previous best with a real value
                if move is not None and move != order[0] and low == -INF:
                    best = (move, value)
                elif move is not None and move != order[0] and value < high:
                    best = (move, value)
                break
            best = (move, value)
            self.ctx.stat[k.ST_DEPTH] = depth
            order.remove(move)
            order.insert(0, move)
            if abs(value) >= k.WIN_FLOOR:
                break
        if best[0] is None:
            return order[0], 0.0
        return best[0], float(best[1])

    def root_values(self, order: list[int], max_depth: int) -> list[tuple[int, float]]:
        """Every root move with its full-window value at depths 1, 2, 4, 6 … (the deepest
        finished for all moves; before that the evaluation after the move), best first."""
        root, ctx = self.root, self.ctx
        finished = []
        for move in order:
            own, enemy = root.enemy ^ int(k.M_ENEMY[move]), root.own ^ int(k.M_OWN[move])
            out_own, out_enemy = root.out_enemy, root.out_own + int(k.M_OUT[move])
            over = k.terminal(own, enemy, out_own, out_enemy, 1, root.rules, root.seen, ctx.stat,
                              ctx.moves[k.MAX_PLY - 1], float(self.weights[k.W_CONTEMPT]))
            value = over if not np.isnan(over) else k.evaluate(own, enemy, out_own, out_enemy, self.weights)
            finished.append((move, -float(value)))
        finished.sort(key=lambda mv: -mv[1])
        for depth in [1, *range(2, max_depth + 1, 2)]:
            values: list[tuple[int, float]] = []
            for move in order:
                value = self.child(move, depth, -INF, INF)
                if self.stopped:
                    break
                values.append((move, float(value)))
            if self.stopped:
                break
            values.sort(key=lambda mv: -mv[1])
            finished = values
            ctx.stat[k.ST_DEPTH] = depth
            order = [move for move, _ in values]
            if all(abs(v) >= k.WIN_FLOOR for _, v in values):
                break
        return finished


def stark_best(root: Root, max_depth: int, deadline: float, node_limit: int | None, rng: random.Random | None,
               weights: dict[str, float] | None = None,
               options: dict[str, int] | None = None) -> tuple[int | None, float, Context]:
    """Stark's move: (move or None, value, context)."""
    with _stark_tt() as tt:
        search = StarkSearch(root, deadline, node_limit, weights, options, tt)
        move, value = search.best_move(reference_order(root, rng), max_depth)
    return move, value, search.ctx


def stark_values(root: Root, max_depth: int, deadline: float, rng: random.Random | None,
                 weights: dict[str, float] | None = None) -> tuple[list[tuple[int, float]], Context]:
    """Stark's value of every root move, best first (hints and reviews; ``weights``: another
    evaluation than Stark's, as the Aufgaben's judge uses)."""
    with _stark_tt() as tt:
        search = StarkSearch(root, deadline, None, weights, tt=tt)
        return search.root_values(reference_order(root, rng), max_depth), search.ctx
