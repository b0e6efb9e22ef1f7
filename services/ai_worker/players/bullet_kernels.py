"""The compiled Battlebullet search: numba kernels on 61-bit boards.

The engine's bitboards live on an 11 × 11 grid (121 bits, so that one step is one
shift); numba has no integer wider than 64 bits, so the kernels use a *compact* board
instead: bit ``i`` of an int64 is the ``i``-th cell of :data:`~shared.games.bullet.board.CELLS`
(ascending grid index, so bit order = grid order), and a step is a table look-up
(:data:`NB`).  Move ids are the engine's (:mod:`shared.games.bullet.movegen`), with
the same XOR masks translated to the compact board, so applying a move is still two XORs.

Two node searches share move generation, make and the evaluation terms; their root
loops (iterative deepening, aspiration, the root's move order) are in
:mod:`.bullet_search`, because numba's on-disk cache crashes a cached function that
calls a recursive one:

* :func:`_negamax_ref`, the reference: the previous Stark's alpha-beta node for node —
  same move order (generation order of ``moves_for``, the same stable sort on TT move,
  killers, hint and history), an exact-key TT, the same evaluation in the same float
  operations.  Mittel plays it (to depth 3, simple evaluation); the equivalence tests
  and the speed bench compare it with the Python search it replaces, on identical trees.
* :func:`negamax` with :func:`_qsearch`: what Stark plays (PVS, late-move reductions,
  depth-preferred TT, quiescence of pending push-outs, :func:`evaluate` with weights and
  options passed in as arrays, so experiments need no recompile).

Everything is compiled with ``cache=True``: only the first process on a machine pays
the compile (15 s of CPU); the worker's warm-up makes that happen before the first
real move.  The deadline is read every 1024 nodes through ``objmode`` (numba has no
clock); a node costs well under a microsecond, so the overrun stays around a millisecond.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

from shared.games.bullet.board import CELLS, NAME, SHIFTS
from shared.games.bullet.movegen import (
    BROADSIDE_DIRS,
    BROADSIDE_IDS,
    DIRECTION,
    ENEMY_XOR,
    GROUP,
    INLINE_IDS,
    MOVE_COUNT,
    OWN_XOR,
    PUSHED,
    PUSHES_OUT,
)

# ---- the compact board -------------------------------------------------------------
COMPACT: dict[int, int] = {grid: i for i, grid in enumerate(CELLS)}


def to_compact(bits: int) -> int:
    """An engine bitboard (grid bits) as a compact int64 bitboard."""
    out = 0
    for grid, i in COMPACT.items():
        if bits >> grid & 1:
            out |= 1 << i
    return out


def _distance(cell: int) -> int:
    row, diag = divmod(cell, 11)
    dr, dd = row - 5, diag - 5
    return max(abs(dr), abs(dd), abs(dr - dd))


DISTANCE = {cell: _distance(cell) for cell in CELLS}


def _centre_gain(move: int) -> float:
    """Steps toward the centre for the moving marbles plus steps outward for the pushed."""
    shift = SHIFTS[DIRECTION[move]]
    gain = sum(DISTANCE[c] - DISTANCE[c + shift] for c in GROUP[move])
    lead = max(GROUP[move], key=lambda c: c * shift)
    for k in range(1, PUSHED[move] + 1):
        cell, target = lead + k * shift, lead + (k + 1) * shift
        gain += (DISTANCE[target] if target in NAME else 5) - DISTANCE[cell]
    return float(gain)


# The previous Stark's ordering hint per move id (push-outs, pushes, centre gain, size).
HINT = tuple(
    10.0 * PUSHES_OUT[m] + 2.0 * PUSHED[m] + 0.5 * _centre_gain(m) + 0.1 * len(GROUP[m]) for m in range(MOVE_COUNT)
)

N_CELLS = len(CELLS)
VALID = (1 << N_CELLS) - 1
NB = np.full((N_CELLS, 6), -1, dtype=np.int64)  # neighbour of a cell in a direction, -1 off the board
for _i, _grid in enumerate(CELLS):
    for _d, _s in enumerate(SHIFTS):
        if _grid + _s in COMPACT:
            NB[_i, _d] = COMPACT[_grid + _s]
NB_MASK = np.array([sum(1 << int(n) for n in NB[i] if n >= 0) for i in range(N_CELLS)], dtype=np.int64)
AXIS_MASK = np.array([sum(1 << int(n) for n in NB[i, :3] if n >= 0) for i in range(N_CELLS)], dtype=np.int64)
EDGE = sum(1 << i for i in range(N_CELLS) if (NB[i] < 0).any())
DIST_NP = np.array([DISTANCE[g] for g in CELLS], dtype=np.int64)
RINGS_NP = np.array([sum(1 << i for i, g in enumerate(CELLS) if DISTANCE[g] == k) for k in range(5)], dtype=np.int64)

M_OWN = np.array([to_compact(x) for x in OWN_XOR], dtype=np.int64)
M_ENEMY = np.array([to_compact(x) for x in ENEMY_XOR], dtype=np.int64)
M_OUT = np.array(PUSHES_OUT, dtype=np.int64)
M_HINT = np.array(HINT, dtype=np.float64)
M_PUSHED = np.array(PUSHED, dtype=np.int64)

INL = np.full((6, 4, 5, N_CELLS), -1, dtype=np.int64)  # INLINE_IDS on compact cells
BRD = np.full((3, 6, 4, N_CELLS), -1, dtype=np.int64)  # BROADSIDE_IDS on compact cells
for _grid, _i in COMPACT.items():
    for _d in range(6):
        for _n in range(4):
            for _v in range(5):
                INL[_d, _n, _v, _i] = INLINE_IDS[_d][_n][_v][_grid]
    for _a in range(3):
        for _d in range(6):
            for _n in range(4):
                BRD[_a, _d, _n, _i] = BROADSIDE_IDS[_a][_d][_n][_grid]
BDIRS = np.array(BROADSIDE_DIRS, dtype=np.int64)

_DEBRUIJN_TABLE = np.zeros(64, dtype=np.int64)
for _k in range(64):
    _DEBRUIJN_TABLE[((((1 << _k) * 0x03F79D71B4CB0A89) & 0xFFFFFFFFFFFFFFFF) >> 58)] = _k
DEBRUIJN = _DEBRUIJN_TABLE

MAX_PLY = 128
MAX_MOVES = 320  # more than any position has (about 100 at most in play)
WIN = 10.0
WIN_FLOOR = WIN - 1.0
INF = np.inf
EXACT, LOWER, UPPER = 0, 1, 2

# Evaluation weights of the previous Stark, in marbles.
CENTRE_WEIGHT = 0.03
COHESION_WEIGHT = 0.02
THREAT_NOW = 0.6
AT_RISK = 0.25


# ---- bits ----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def low_index(low: int) -> int:
    return DEBRUIJN[((low * 0x03F79D71B4CB0A89) >> 58) & 63]


@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True, inline="always")
def _collect(bits: int, table: np.ndarray, out: np.ndarray, n: int) -> int:
    while bits:
        low = bits & -bits
        out[n] = table[low_index(low)]
        n += 1
        bits ^= low
    return n


# ---- moves -----------------------------------------------------------------------------
@njit(cache=True)
def gen_moves(own: int, enemy: int, out: np.ndarray, base: int) -> int:
    """Fill ``out[base:]`` with the legal move ids of ``own``, in ``moves_for``'s order
    (per direction: singles, then twos and threes by kind of push, each by ascending
    cell; then broadside moves per axis and direction); returns the end index."""
    empty = VALID & ~(own | enemy)
    n = base
    for d in range(6):
        o = (d + 3) % 6
        single = 0
        c2_0 = 0
        c2_1 = 0
        c2_2 = 0
        c3_0 = 0
        c3_1 = 0
        c3_2 = 0
        c3_3 = 0
        c3_4 = 0
        bits = own
        while bits:
            low = bits & -bits
            bits ^= low
            c = low_index(low)
            a = NB[c, d]
            if a < 0:
                continue
            a_empty = (empty >> a) & 1
            if a_empty:
                single |= low
            b = NB[c, o]
            if b < 0 or not (own >> b) & 1:
                continue
            b2 = NB[b, o]
            three = b2 >= 0 and (own >> b2) & 1
            if a_empty:
                c2_0 |= low
                if three:
                    c3_0 |= low
            elif (enemy >> a) & 1:
                a2 = NB[a, d]
                if a2 < 0:
                    c2_2 |= low
                    if three:
                        c3_2 |= low
                elif (empty >> a2) & 1:
                    c2_1 |= low
                    if three:
                        c3_1 |= low
                elif three and (enemy >> a2) & 1:
                    a3 = NB[a2, d]
                    if a3 < 0:
                        c3_4 |= low
                    elif (empty >> a3) & 1:
                        c3_3 |= low
        n = _collect(single, INL[d, 1, 0], out, n)
        n = _collect(c2_0, INL[d, 2, 0], out, n)
        n = _collect(c2_1, INL[d, 2, 1], out, n)
        n = _collect(c2_2, INL[d, 2, 2], out, n)
        n = _collect(c3_0, INL[d, 3, 0], out, n)
        n = _collect(c3_1, INL[d, 3, 1], out, n)
        n = _collect(c3_2, INL[d, 3, 2], out, n)
        n = _collect(c3_3, INL[d, 3, 3], out, n)
        n = _collect(c3_4, INL[d, 3, 4], out, n)
    for axis in range(3):
        for k in range(4):
            d = BDIRS[axis, k]
            m2 = 0
            m3 = 0
            bits = own
            while bits:
                low = bits & -bits
                bits ^= low
                c = low_index(low)
                c1 = NB[c, axis]
                if c1 < 0 or not (own >> c1) & 1:
                    continue
                t0 = NB[c, d]
                t1 = NB[c1, d]
                if t0 < 0 or t1 < 0 or not (empty >> t0) & 1 or not (empty >> t1) & 1:
                    continue
                m2 |= low
                c2 = NB[c1, axis]
                if c2 >= 0 and (own >> c2) & 1:
                    t2 = NB[c2, d]
                    if t2 >= 0 and (empty >> t2) & 1:
                        m3 |= low
            n = _collect(m2, BRD[axis, d, 2], out, n)
            n = _collect(m3, BRD[axis, d, 3], out, n)
    return n


@njit(cache=True)
def has_move(own: int, enemy: int, scratch: np.ndarray) -> bool:
    empty = VALID & ~(own | enemy)
    bits = own
    while bits:
        low = bits & -bits
        bits ^= low
        if NB_MASK[low_index(low)] & empty:
            return True  # a marble with an empty neighbour can always step there
    return gen_moves(own, enemy, scratch, 0) > 0


# ---- evaluation terms ---------------------------------------------------------------------
@njit(cache=True, inline="always")
def centre_sum(marbles: int) -> int:
    return (
        popcount(marbles & RINGS_NP[1])
        + 2 * popcount(marbles & RINGS_NP[2])
        + 3 * popcount(marbles & RINGS_NP[3])
        + 4 * popcount(marbles & RINGS_NP[4])
    )


@njit(cache=True, inline="always")
def cohesion(marbles: int) -> int:
    total = 0
    bits = marbles
    while bits:
        low = bits & -bits
        bits ^= low
        total += popcount(AXIS_MASK[low_index(low)] & marbles)
    return total


@njit(cache=True)
def pushable_out(pusher: int, victim: int) -> int:
    """Compact bitboard of ``victim`` marbles ``pusher`` could push off the board in one move."""
    endangered = 0
    bits = victim & EDGE
    while bits:
        low = bits & -bits
        bits ^= low
        v = low_index(low)
        for d in range(6):
            if NB[v, d] >= 0:
                continue
            o = (d + 3) % 6
            p1 = NB[v, o]
            if p1 < 0:
                continue
            p2 = NB[p1, o]
            if p2 < 0:
                continue
            if (pusher >> p1) & 1:
                if (pusher >> p2) & 1:
                    endangered |= low
                    break
            elif (victim >> p1) & 1:
                p3 = NB[p2, o]
                if p3 < 0:
                    continue
                p4 = NB[p3, o]
                if p4 >= 0 and (pusher >> p2) & 1 and (pusher >> p3) & 1 and (pusher >> p4) & 1:
                    endangered |= low
                    break
    return endangered


@njit(cache=True)
def evaluate_ref(own: int, enemy: int, out_own: int, out_enemy: int, full: bool) -> float:
    """The previous Stark's evaluation (``full``) or Mittel's, in the same float operations."""
    value = float(out_own - out_enemy) + CENTRE_WEIGHT * (centre_sum(enemy) - centre_sum(own))
    if full:
        value += COHESION_WEIGHT * (cohesion(own) - cohesion(enemy))
        if pushable_out(own, enemy):
            value += THREAT_NOW
        value -= AT_RISK * popcount(pushable_out(enemy, own))
    return value


# ---- search context ------------------------------------------------------------------------
# ``rules``: int64 [win_target, last_ply (-1: no limit), root_side, root_ply]
# ``stat``: int64 [nodes, stopped, node_limit (0: none), seen slots mask, depth reached, qnodes,
#   generation (Stark's TT is kept between searches: an entry of another generation is empty)]
# ``seen``: int64 (slots, 3) hash set of (white, black, side + 1) of earlier positions.
ST_NODES, ST_STOP, ST_LIMIT, ST_SEEN_MASK, ST_DEPTH, ST_QNODES, ST_GENERATION = 0, 1, 2, 3, 4, 5, 6


@njit(cache=True, inline="always")
def mix(a: int, b: int, c: int) -> int:
    """A hash of three int64 words whose every bit depends on every input bit."""
    h = a * -7046029254386353131 + b * -4417276706812531889 + c * 1609587929392839161
    h ^= (h >> 31) & 0x1FFFFFFFF
    h *= -4658895280553007687
    h ^= (h >> 29) & 0x7FFFFFFFF
    return h


@njit(cache=True)
def seen_table(keys: np.ndarray) -> tuple[np.ndarray, int]:
    """The hash set of (compact white, compact black, side) rows the kernels probe."""
    count = keys.shape[0]
    size = 16
    while size < 4 * count:
        size *= 2
    table = np.zeros((size, 3), dtype=np.int64)
    mask = size - 1
    for i in range(count):
        white, black, side = keys[i, 0], keys[i, 1], keys[i, 2]
        slot = mix(white, black, side) & mask
        while table[slot, 2] != 0 and not (
            table[slot, 0] == white and table[slot, 1] == black and table[slot, 2] == side + 1
        ):
            slot = (slot + 1) & mask
        table[slot, 0] = white
        table[slot, 1] = black
        table[slot, 2] = side + 1
    return table, (mask if count else 0)


@njit(cache=True)
def is_seen(white: int, black: int, side: int, seen: np.ndarray, mask: int) -> bool:
    slot = mix(white, black, side) & mask
    while seen[slot, 2] != 0:
        if seen[slot, 0] == white and seen[slot, 1] == black and seen[slot, 2] == side + 1:
            return True
        slot = (slot + 1) & mask
    return False


@njit(cache=True)
def tick(stat: np.ndarray, deadline: float) -> bool:
    """Count a node; True when the search must stop (node limit or deadline)."""
    stat[ST_NODES] += 1
    nodes = stat[ST_NODES]
    if stat[ST_LIMIT] and nodes > stat[ST_LIMIT]:
        stat[ST_STOP] = 1
        return True
    if (nodes & 1023) == 0:
        with objmode(now="float64"):
            now = time.monotonic()
        if now >= deadline:
            stat[ST_STOP] = 1
            return True
    return False


@njit(cache=True)
def terminal(
    own: int, enemy: int, out_own: int, out_enemy: int, ply: int, rules: np.ndarray, seen: np.ndarray,
    stat: np.ndarray, scratch: np.ndarray, contempt: float,
) -> float:
    """The value if the game is over at this node, else NaN (the previous Stark's rules
    in its order: win target, move limit, a position already seen, no move).  A draw is
    worth ``-contempt`` to the root side (0 for the previous Stark)."""
    if out_enemy >= rules[0]:
        return -WIN + ply / 100
    if out_own >= rules[0]:
        return WIN - ply / 100
    game_ply = rules[3] + ply
    if rules[1] >= 0 and game_ply >= rules[1]:
        if out_own == out_enemy:
            return -contempt if ply % 2 == 0 else contempt
        return WIN - ply / 100 if out_own > out_enemy else -WIN + ply / 100
    mask = stat[ST_SEEN_MASK]
    if mask and ply > 0:
        side = (rules[2] + ply) % 2
        if side == 0:
            if is_seen(own, enemy, 0, seen, mask):
                return -contempt if ply % 2 == 0 else contempt
        elif is_seen(enemy, own, 1, seen, mask):
            return -contempt if ply % 2 == 0 else contempt
    if not has_move(own, enemy, scratch):
        return -WIN + ply / 100
    return np.nan


# ---- the reference search (the previous Stark, compiled) -------------------------------------
@njit(cache=True)
def _negamax_ref(
    own: int, enemy: int, out_own: int, out_enemy: int, depth: int, alpha: float, beta: float, ply: int,
    full: bool, rules: np.ndarray, seen: np.ndarray, stat: np.ndarray, deadline: float,
    tt_keys: np.ndarray, tt_vals: np.ndarray, killers: np.ndarray, history: np.ndarray,
    moves: np.ndarray, scores: np.ndarray,
) -> float:
    if tick(stat, deadline):
        return 0.0
    over = terminal(own, enemy, out_own, out_enemy, ply, rules, seen, stat, moves[MAX_PLY - 1], 0.0)
    if not np.isnan(over):
        return over
    if depth <= 0:
        return evaluate_ref(own, enemy, out_own, out_enemy, full)
    outs = out_own * 64 + out_enemy
    mask = tt_keys.shape[0] - 1
    slot = mix(own, enemy, outs) & mask
    # Open addressing over up to 8 slots, like the exact-key dict it replaces: an entry
    # is only overwritten by its own position (or when all 8 slots are taken).
    for probe in range(8):
        at = (slot + probe) & mask
        if tt_keys[at, 3] == 0 or (tt_keys[at, 0] == own and tt_keys[at, 1] == enemy and tt_keys[at, 2] == outs):
            slot = at
            break
    tt_move = -1
    if tt_keys[slot, 3] and tt_keys[slot, 0] == own and tt_keys[slot, 1] == enemy and tt_keys[slot, 2] == outs:
        e_depth = tt_keys[slot, 4]
        tt_move = tt_keys[slot, 5]
        e_value = tt_vals[slot]
        if e_depth >= depth:
            e_flag = tt_keys[slot, 3] - 1
            if e_flag == EXACT:
                return e_value
            if e_flag == LOWER and e_value >= beta:
                return e_value
            if e_flag == UPPER and e_value <= alpha:
                return e_value
    row = moves[ply]
    srow = scores[ply]
    n = gen_moves(own, enemy, row, 0)
    k0 = killers[ply, 0]
    k1 = killers[ply, 1]
    for i in range(n):
        m = row[i]
        if m == tt_move:
            s = 1e9
        else:
            bonus = 1e6 if (m == k0 or m == k1) else 0.0
            s = bonus + M_HINT[m] * 1000.0 + history[m] * 1e-3
        # stable insertion, descending (Python's sorted(reverse=True) keeps equal keys in order)
        j = i
        while j > 0 and srow[j - 1] < s:
            srow[j] = srow[j - 1]
            row[j] = row[j - 1]
            j -= 1
        srow[j] = s
        row[j] = m
    alpha_start = alpha
    best_value = -INF
    best_move = -1
    for i in range(n):
        m = row[i]
        value = -_negamax_ref(
            enemy ^ M_ENEMY[m], own ^ M_OWN[m], out_enemy, out_own + M_OUT[m], depth - 1, -beta, -alpha, ply + 1,
            full, rules, seen, stat, deadline, tt_keys, tt_vals, killers, history, moves, scores,
        )
        if stat[ST_STOP]:
            return 0.0
        if value > best_value:
            best_value = value
            best_move = m
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    if killers[ply, 0] != m and killers[ply, 1] != m:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = m
                    history[m] += depth * depth
                    break
    if alpha_start < best_value < beta:
        flag = EXACT
    elif best_value >= beta:
        flag = LOWER
    else:
        flag = UPPER
    # the subtree may have taken the empty slot found above: probe again
    slot = mix(own, enemy, outs) & mask
    for probe in range(8):
        at = (slot + probe) & mask
        if tt_keys[at, 3] == 0 or (tt_keys[at, 0] == own and tt_keys[at, 1] == enemy and tt_keys[at, 2] == outs):
            slot = at
            break
    tt_keys[slot, 0] = own
    tt_keys[slot, 1] = enemy
    tt_keys[slot, 2] = outs
    tt_keys[slot, 3] = flag + 1
    tt_keys[slot, 4] = depth
    tt_keys[slot, 5] = best_move
    tt_vals[slot] = best_value
    return best_value


# ---- Stark's search --------------------------------------------------------------------------
# ``weights`` (float64, in marbles): the evaluation below, see :data:`STARK_WEIGHTS`.
W_MATERIAL, W_CENTRE, W_COHESION, W_THREAT, W_RISK, W_EDGE, W_LINE, W_CONTEMPT = 0, 1, 2, 3, 4, 5, 6, 7
# ``opts`` (int64): search features, see :data:`STARK_OPTIONS`.
O_PVS, O_LMR, O_QDEPTH, O_ORDER = 0, 1, 2, 3
NULL_WINDOW = 1e-7  # values are multiples of 0.01 apart at least in practice: far below any difference
RING_EDGE = 4


@njit(cache=True, inline="always")
def lines_of_three(marbles: int) -> int:
    total = 0
    bits = marbles
    while bits:
        low = bits & -bits
        bits ^= low
        c = low_index(low)
        for axis in range(3):
            n1 = NB[c, axis]
            if n1 >= 0 and (marbles >> n1) & 1:
                n2 = NB[n1, axis]
                if n2 >= 0 and (marbles >> n2) & 1:
                    total += 1
    return total


@njit(cache=True)
def evaluate(own: int, enemy: int, out_own: int, out_enemy: int, weights: np.ndarray) -> float:
    """Stark's evaluation for the side to move: marbles, centre, cohesion, lines of three,
    marbles on the edge ring, and the push-outs on the board (own threat now, own
    marbles the opponent could push out next)."""
    value = weights[W_MATERIAL] * (out_own - out_enemy)
    value += weights[W_CENTRE] * (centre_sum(enemy) - centre_sum(own))
    value += weights[W_COHESION] * (cohesion(own) - cohesion(enemy))
    if weights[W_LINE] != 0.0:
        value += weights[W_LINE] * (lines_of_three(own) - lines_of_three(enemy))
    if weights[W_EDGE] != 0.0:
        edge = RINGS_NP[RING_EDGE]
        value -= weights[W_EDGE] * (popcount(own & edge) - popcount(enemy & edge))
    if pushable_out(own, enemy):
        value += weights[W_THREAT]
    value -= weights[W_RISK] * popcount(pushable_out(enemy, own))
    return value


@njit(cache=True)
def _tt_find(tt_keys: np.ndarray, own: int, enemy: int, outs: int, generation: int) -> int:
    """The slot of this position, or (not there) -1 - the slot to replace: an empty one,
    else the shallowest of the 4 probed."""
    mask = tt_keys.shape[0] - 1
    slot = mix(own, enemy, outs) & mask
    victim = slot
    for probe in range(4):
        at = (slot + probe) & mask
        if tt_keys[at, 3] >> 2 != generation:
            return -1 - at
        if tt_keys[at, 0] == own and tt_keys[at, 1] == enemy and tt_keys[at, 2] == outs:
            return at
        if tt_keys[at, 4] < tt_keys[victim, 4]:
            victim = at
    return -1 - victim


@njit(cache=True)
def _qsearch(
    own: int, enemy: int, out_own: int, out_enemy: int, alpha: float, beta: float, ply: int, qdepth: int,
    rules: np.ndarray, seen: np.ndarray, stat: np.ndarray, deadline: float, weights: np.ndarray,
    moves: np.ndarray,
) -> float:
    """Quiescence for pending push-outs: the evaluation, unless pushing a marble out now
    (and the replies that push out in turn) does better."""
    if tick(stat, deadline):
        return 0.0
    stat[ST_QNODES] += 1
    over = terminal(own, enemy, out_own, out_enemy, ply, rules, seen, stat, moves[MAX_PLY - 1],
                    weights[W_CONTEMPT])
    if not np.isnan(over):
        return over
    best = evaluate(own, enemy, out_own, out_enemy, weights)
    if qdepth <= 0 or best >= beta or ply >= MAX_PLY - 2 or not pushable_out(own, enemy):
        return best
    if best > alpha:
        alpha = best
    row = moves[ply]
    n = gen_moves(own, enemy, row, 0)
    for i in range(n):
        m = row[i]
        if not M_OUT[m]:
            continue
        value = -_qsearch(
            enemy ^ M_ENEMY[m], own ^ M_OWN[m], out_enemy, out_own + 1, -beta, -alpha, ply + 1, qdepth - 1,
            rules, seen, stat, deadline, weights, moves,
        )
        if stat[ST_STOP]:
            return 0.0
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def negamax(
    own: int, enemy: int, out_own: int, out_enemy: int, depth: int, alpha: float, beta: float, ply: int,
    rules: np.ndarray, seen: np.ndarray, stat: np.ndarray, deadline: float, weights: np.ndarray,
    opts: np.ndarray, tt_keys: np.ndarray, tt_vals: np.ndarray, killers: np.ndarray, history: np.ndarray,
    moves: np.ndarray, scores: np.ndarray,
) -> float:
    """Stark's node: TT (depth-preferred), principal-variation search, late-move
    reductions for quiet moves, quiescence at the horizon; ordering by TT move, push-outs,
    killers, then pushes / centre gain (the hint) and history, picked lazily."""
    if depth <= 0 or ply >= MAX_PLY - 2:
        return _qsearch(own, enemy, out_own, out_enemy, alpha, beta, ply, opts[O_QDEPTH], rules, seen, stat,
                        deadline, weights, moves)
    if tick(stat, deadline):
        return 0.0
    over = terminal(own, enemy, out_own, out_enemy, ply, rules, seen, stat, moves[MAX_PLY - 1],
                    weights[W_CONTEMPT])
    if not np.isnan(over):
        return over
    outs = out_own * 64 + out_enemy
    generation = stat[ST_GENERATION]
    found = _tt_find(tt_keys, own, enemy, outs, generation)
    tt_move = -1
    if found >= 0:
        tt_move = tt_keys[found, 5]
        if tt_keys[found, 4] >= depth:
            e_flag = (tt_keys[found, 3] & 3) - 1
            e_value = tt_vals[found]
            if e_flag == EXACT:
                return e_value
            if e_flag == LOWER and e_value >= beta:
                return e_value
            if e_flag == UPPER and e_value <= alpha:
                return e_value
    row = moves[ply]
    srow = scores[ply]
    n = gen_moves(own, enemy, row, 0)
    k0 = killers[ply, 0]
    k1 = killers[ply, 1]
    for i in range(n):
        m = row[i]
        if m == tt_move:
            s = 1e12
        else:
            s = M_HINT[m] * 1000.0 + history[m] * 1e-3
            if M_OUT[m] and opts[O_ORDER]:
                s += 1e9
            if m == k0 or m == k1:
                s += 1e6
        srow[i] = s
    alpha_start = alpha
    best_value = -INF
    best_move = -1
    for i in range(n):
        # lazy selection: most nodes cut off after one or two moves
        top = i
        for j in range(i + 1, n):
            if srow[j] > srow[top]:
                top = j
        m = row[top]
        row[top] = row[i]
        row[i] = m
        s = srow[top]
        srow[top] = srow[i]
        srow[i] = s
        c_own = enemy ^ M_ENEMY[m]
        c_enemy = own ^ M_OWN[m]
        c_oe = out_own + M_OUT[m]
        if i == 0 or not opts[O_PVS]:
            value = -negamax(c_own, c_enemy, out_enemy, c_oe, depth - 1, -beta, -alpha, ply + 1, rules, seen, stat,
                             deadline, weights, opts, tt_keys, tt_vals, killers, history, moves, scores)
        else:
            reduce = 0
            if (opts[O_LMR] and depth >= 3 and i >= 4 and not M_OUT[m] and not M_PUSHED[m]
                    and m != k0 and m != k1):
                reduce = 1
            value = -negamax(c_own, c_enemy, out_enemy, c_oe, depth - 1 - reduce, -alpha - NULL_WINDOW, -alpha,
                             ply + 1, rules, seen, stat, deadline, weights, opts, tt_keys, tt_vals, killers, history,
                             moves, scores)
            if not stat[ST_STOP] and value > alpha and (reduce or value < beta):
                value = -negamax(c_own, c_enemy, out_enemy, c_oe, depth - 1, -beta, -alpha, ply + 1, rules, seen,
                                 stat, deadline, weights, opts, tt_keys, tt_vals, killers, history, moves, scores)
        if stat[ST_STOP]:
            return 0.0
        if value > best_value:
            best_value = value
            best_move = m
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    if not M_OUT[m] and killers[ply, 0] != m:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = m
                    history[m] += depth * depth
                    break
    if alpha_start < best_value < beta:
        flag = EXACT
    elif best_value >= beta:
        flag = LOWER
    else:
        flag = UPPER
    found = _tt_find(tt_keys, own, enemy, outs, generation)  # again: the subtree may have moved things
    slot = found if found >= 0 else -1 - found
    tt_keys[slot, 0] = own
    tt_keys[slot, 1] = enemy
    tt_keys[slot, 2] = outs
    tt_keys[slot, 3] = (generation << 2) | (flag + 1)
    tt_keys[slot, 4] = depth
    tt_keys[slot, 5] = best_move
    tt_vals[slot] = best_value
    return best_value
