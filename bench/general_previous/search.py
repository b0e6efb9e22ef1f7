"""Battlegeneral evaluation and the Stark level's search over sampled positions.

Perfect-information Monte Carlo: each sample is one guess at the enemy's hidden ranks
(:mod:`.general_belief`) turned into a full state; every legal root move is played in
it and answered by the enemy's best reply (two plies, so a piece left next to a
stronger one, or walking into a guessed Mine, costs what it would cost), and each
reply by our best strike back at the replying piece (a covered piece counts as
covered: a cheap third ply, :func:`answer_gain`).  The sampled enemy picks its strikes
on our hidden pieces from what it can know (:func:`enemy_guess_table`), not from the
sample's true ranks — otherwise every sample would have it hit exactly our weakest
pieces and Stark would freeze — and among strikes it cannot tell apart it picks any
(their values are averaged).  A move's
value is its mean over the samples: an attack on an unknown piece thereby weighs
every rank the piece might have by how likely it is.

Unit: material units, an Aufklärer = 1, Feldmarschall = 10; capturing or losing a
Fahne is ±:data:`WIN`.
"""

from __future__ import annotations

import random
import time

from bench.general_previous.belief import Belief, sampled_state
from shared.games.general import moves as fast
from shared.games.general.board import NEIGHBOURS
from shared.games.general.pieces import ATTACKER_WINS, BOTH_LOSE, FLAG, MINE, MOVABLE_MAX, SPY, fight
from shared.games.general.state import MOVED, REVEALED, State

WIN = 100.0
# Material per rank code (index 0 unused): Spion is worth more than its rank because it
# is the only answer to the Feldmarschall; the Mineur because only it clears Minen.
VALUE = (0.0, 3.0, 1.0, 2.5, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0, 1.5, 0.0)
# Bonus per own movable piece at Manhattan distance d (index) from the sampled enemy
# Fahne, weighed by GUESSED_FLAG_WEIGHT (the sample's Fahne is only a guess).
FLAG_NEAR = (0.0, 2.0, 1.0, 0.4)
GUESSED_FLAG_WEIGHT = 0.3
# Penalty per movable enemy piece at distance d from our own Fahne: one move from
# striking it, the Fahne is at stake, so an intruder must be met before it arrives.
DEFEND_NEAR = (0.0, 4.0, 2.0, 1.0, 0.5, 0.25)
# Per own piece of rank GUARD_MIN..GUARD_MAX within GUARD_DISTANCE of our own Fahne:
# a few pieces stay home, so that an intruder (a Mineur clearing the Minen around the
# Fahne above all) meets someone; without them the pull empties the back rows.  More
# than the pull offers for one step, so a guard leaves only for a real gain.
GUARD = 0.3
GUARD_DISTANCE = 2
GUARD_MIN, GUARD_MAX = 4, 8
# Hunting a revealed enemy piece: HUNT x its value x (HUNT_RANGE - d) for the nearest
# own piece that beats it at distance d.  Two plies see a capture only when the hunter
# already stands next to its prey; this brings it there (a revealed piece cannot hide
# what it is, so it is the material that can be won on purpose).
HUNT = 0.04
HUNT_RANGE = 5
# Per own movable piece (not the Spion, which stays home to meet the Feldmarschall):
# PULL per square it stands nearer the sampled enemy Fahne than PULL_RANGE.  Averaged
# over the samples this draws the army toward the probable Fahne squares, so Stark
# makes progress instead of shuffling once nothing is left to win in two plies.
PULL = 0.04
PULL_RANGE = 18
# A known rank is worth less to its owner (the enemy can pick its fights): a share of
# the piece's value per revealed piece.
REVEALED_SHARE = 0.1
# Per row a movable piece stands forward of its owner's back row: pressure that keeps
# the game moving toward the enemy's Fahne instead of shuffling.
ADVANCE = 0.02


def _distance(a: int, b: int) -> int:
    return abs(a % 10 - b % 10) + abs(a // 10 - b // 10)


def _progress(square: int, seat: int) -> int:
    return square // 10 if seat == 0 else 9 - square // 10


def _hunt(st: State, me: int) -> float:
    """The hunting bonus (see :data:`HUNT`) summed over the revealed enemy pieces."""
    pos, ranks, piece_flags = st.pos, st.ranks, st.flags
    enemy_lo = (1 - me) * 40
    own_lo = me * 40
    bonus = 0.0
    for prey in range(enemy_lo, enemy_lo + 40):
        square = pos[prey]
        if square < 0 or not piece_flags[prey] & REVEALED:
            continue
        prey_rank = ranks[prey]
        if prey_rank > MOVABLE_MAX:
            continue
        nearest = HUNT_RANGE
        for hunter in range(own_lo, own_lo + 40):
            hunter_square = pos[hunter]
            if hunter_square < 0:
                continue
            rank = ranks[hunter]
            if rank > MOVABLE_MAX or rank <= prey_rank or rank == SPY:
                continue
            d = _distance(square, hunter_square)
            if d < nearest:
                nearest = d
        if nearest < HUNT_RANGE:
            bonus += HUNT * VALUE[prey_rank] * (HUNT_RANGE - nearest)
    return bonus


def material_balance(st: State, me: int) -> float:
    """Material on the board for ``me`` minus the enemy's (:data:`VALUE`, nothing
    positional): how a game cut short is judged (``bench.ai_general``)."""
    score = 0.0
    for piece in range(80):
        if st.pos[piece] >= 0:
            value = VALUE[st.ranks[piece]]
            score += value if piece // 40 == me else -value
    return score


def _own_terms(square: int, rank: int, me: int, enemy_flag: int, own_flag: int) -> float:
    """The positional terms of one own movable piece on ``square``: advance, nearness
    to the sampled enemy Fahne, the pull toward it, and guarding our own."""
    value = ADVANCE * _progress(square, me)
    if GUARD_MIN <= rank <= GUARD_MAX and _distance(square, own_flag) <= GUARD_DISTANCE:
        value += GUARD
    d = _distance(square, enemy_flag)
    if d < 4:
        value += FLAG_NEAR[d] * GUESSED_FLAG_WEIGHT
    if rank != SPY and d < PULL_RANGE:
        value += PULL * (PULL_RANGE - d)
    return value


def _enemy_terms(square: int, enemy: int, own_flag: int) -> float:
    """The positional terms of one enemy movable piece (counted against us)."""
    value = ADVANCE * _progress(square, enemy)
    d = _distance(square, own_flag)
    return value + DEFEND_NEAR[d] if d < len(DEFEND_NEAR) else value


def evaluate(st: State, me: int, flag_ids: tuple[int, int]) -> float:
    """Static value of ``st`` for seat ``me``: material, Fahne safety, what each side
    has shown, how far the armies have come forward and how near our pieces stand to
    the (sampled) enemy Fahne."""
    outcome = st.outcome
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return WIN if outcome.winner == me else -WIN
    pos, ranks, piece_flags = st.pos, st.ranks, st.flags
    own_flag = pos[flag_ids[me]]
    enemy_flag = pos[flag_ids[1 - me]]
    score = 0.0
    lo = me * 40
    score += _hunt(st, me)
    for piece in range(80):
        square = pos[piece]
        if square < 0:
            continue
        rank = ranks[piece]
        value = VALUE[rank]
        if piece_flags[piece] & REVEALED:
            value -= REVEALED_SHARE * value
        if lo <= piece < lo + 40:
            score += value
            if rank <= MOVABLE_MAX:
                score += _own_terms(square, rank, me, enemy_flag, own_flag)
        else:
            score -= value
            if rank <= MOVABLE_MAX:
                score -= _enemy_terms(square, 1 - me, own_flag)
    return score


def reply_delta(st: State, reply: int, me: int, flags: tuple[int, int]) -> float:
    """How the enemy's ``reply`` changes :func:`evaluate` for ``me`` — computed from the
    move alone, without building the position (the search's leaf, ten times cheaper).
    Like :func:`evaluate` but blind to a new end by blocked moves or the 200-move rule."""
    frm, to = divmod(reply, 100)
    pos, ranks = st.pos, st.ranks
    enemy = 1 - me
    own_flag = pos[flags[me]]
    attacker = st.board[frm] - 1
    a_rank = ranks[attacker]
    a_value = VALUE[a_rank] * (1.0 - REVEALED_SHARE if st.flags[attacker] & REVEALED else 1.0)
    # the mover's own terms leave frm
    delta = _enemy_terms(frm, enemy, own_flag)
    target = st.board[to]
    if target == 0:
        return delta - _enemy_terms(to, enemy, own_flag)
    defender = target - 1
    d_rank = ranks[defender]
    if d_rank == FLAG:
        return -WIN - evaluate(st, me, flags)
    d_value = VALUE[d_rank] * (1.0 - REVEALED_SHARE if st.flags[defender] & REVEALED else 1.0)
    result = fight(a_rank, d_rank)
    shown = REVEALED_SHARE * VALUE[a_rank] if not st.flags[attacker] & REVEALED else 0.0
    enemy_flag = pos[flags[enemy]]
    if result == ATTACKER_WINS:
        delta -= d_value
        if d_rank <= MOVABLE_MAX:
            delta -= _own_terms(to, d_rank, me, enemy_flag, own_flag)
        return delta - _enemy_terms(to, enemy, own_flag) + shown
    delta += a_value  # the attacker is gone either way
    if result == BOTH_LOSE:
        delta -= d_value + _own_terms(to, d_rank, me, enemy_flag, own_flag)
    elif not st.flags[defender] & REVEALED:
        delta -= REVEALED_SHARE * VALUE[d_rank]
    return delta


def flag_ids(st: State) -> tuple[int, int]:
    ranks = st.ranks
    return ranks.index(FLAG, 0, 40), ranks.index(FLAG, 40, 80)


def answer_gain(st: State, reply: int, me: int) -> float:
    """Material ``me`` wins back by striking, next move, the enemy piece that ``reply``
    leaves on its target square (0 when no strike pays): the third ply, reduced to
    the one answer that matters most, so a piece that is covered counts as covered."""
    frm, to = divmod(reply, 100)
    board, ranks = st.board, st.ranks
    attacker = board[frm] - 1
    a_rank = ranks[attacker]
    target = board[to]
    if target and fight(a_rank, ranks[target - 1]) != ATTACKER_WINS:
        return 0.0  # the striker did not survive
    lo = me * 40 + 1
    best = 0.0
    for square in NEIGHBOURS[to]:
        cell = board[square]
        if not lo <= cell < lo + 40 or cell == target:
            continue
        mine = ranks[cell - 1]
        if mine > MOVABLE_MAX:
            continue
        result = fight(mine, a_rank)
        if result == ATTACKER_WINS:
            gain = VALUE[a_rank]
        elif result == BOTH_LOSE:
            gain = VALUE[a_rank] - VALUE[mine]
        else:
            gain = -VALUE[mine]
        if gain > best:
            best = gain
    return best


# Kinds of our hidden pieces as the enemy tells them apart: unmoved at row 0..3 from
# our back edge (deeper rows count as 3), or moved.
MOVED_KIND = 4
# The enemy's guess, like ours (general_belief), puts Fahne and Minen on the back rows.
_ENEMY_FLAG_ROW = (12.0, 2.0, 0.3, 0.1)
_ENEMY_MINE_ROW = (2.5, 2.0, 1.0, 0.5)


def own_kind(square: int, me: int) -> int:
    """The unmoved kind (0..3) of our piece on ``square``: its row from our back edge."""
    row = square // 10 if me == 0 else 9 - square // 10
    return row if row < 3 else 3


def enemy_guess_table(belief: Belief) -> tuple[tuple[float, ...], ...]:
    """What the enemy can expect, as material for us, from striking one of our
    unrevealed pieces with a piece of rank ``a`` (index), per kind of target
    (:data:`MOVED_KIND` or the unmoved row, :func:`own_kind`): it knows only the
    counts of our hidden ranks, which of them moved and where they stand, not which is
    which.  In a sample the enemy would otherwise see our true ranks and strike
    exactly our weak pieces; choosing its reply by this table keeps it as blind as the
    real one."""
    hidden_unmoved: dict[int, int] = {}
    hidden_moved: dict[int, int] = {}
    for square, rank in belief.own.items():
        bits = belief.own_flags.get(square, 0)
        if bits & REVEALED:
            continue
        pool = hidden_moved if bits & MOVED else hidden_unmoved
        pool[rank] = pool.get(rank, 0) + 1
    pools: list[dict[int, float]] = []
    for row in range(4):
        pools.append(
            {
                r: c * (_ENEMY_FLAG_ROW[row] if r == FLAG else _ENEMY_MINE_ROW[row] if r == MINE else 1.0)
                for r, c in (hidden_unmoved or hidden_moved).items()
            }
        )
    pools.append({r: float(c) for r, c in (hidden_moved or hidden_unmoved).items()})
    table = []
    for a in range(13):
        row_values = []
        for pool in pools:
            total = sum(pool.values())
            expected = 0.0
            if 0 < a <= MOVABLE_MAX and total:
                for r, weight in pool.items():
                    result = fight(a, r)
                    if r == FLAG:
                        loss = WIN
                    elif result == ATTACKER_WINS:
                        loss = VALUE[r]
                    elif result == BOTH_LOSE:
                        loss = VALUE[r] - VALUE[a]
                    else:
                        loss = -VALUE[a]
                    expected -= loss * weight / total
            row_values.append(expected)
        table.append(tuple(row_values))
    return tuple(table)


def reply_value(
    child: State, me: int, flags: tuple[int, int], guess: tuple[tuple[float, ...], ...] | None = None
) -> tuple[float, int]:
    """(value for ``me`` after the enemy's best reply in ``child`` and our best strike
    back at the replying piece, positions weighed).  With ``guess`` the enemy picks
    its strikes on our hidden pieces by :func:`enemy_guess_table`; the value is what
    the chosen reply truly does in the sample — averaged over the strikes the enemy
    cannot tell apart (same piece kind, same expectation), since it would pick any of
    them: a Fahne among three unmoved back-row pieces next to an enemy is a third lost."""
    base = evaluate(child, me, flags)
    if child.outcome is not None:
        return base, 0
    replies = fast.fast_moves(child)
    if not replies:
        return base, 0
    board, piece_flags, ranks = child.board, child.flags, child.ranks
    chosen_seen = WIN * 4
    chosen_sum = 0.0
    chosen_count = 0
    for reply in replies:
        true = reply_delta(child, reply, me, flags)
        if true > -WIN:
            true += answer_gain(child, reply, me)
        seen = true
        to = reply % 100
        target = board[to]
        if guess is not None and target and not piece_flags[target - 1] & REVEALED:
            bits = piece_flags[target - 1]
            kind = MOVED_KIND if bits & MOVED else own_kind(to, me)
            seen = guess[ranks[board[reply // 100] - 1]][kind]
        if seen < chosen_seen - 1e-9:
            chosen_seen, chosen_sum, chosen_count = seen, true, 1
        elif seen <= chosen_seen + 1e-9:
            chosen_sum += true
            chosen_count += 1
    return base + chosen_sum / chosen_count, len(replies)


def pimc(
    belief: Belief,
    root_moves: list[int],
    template: State,
    deadline: float,
    rng: random.Random,
    max_samples: int | None = None,
) -> tuple[dict[int, float], int, int]:
    """Mean two-ply value of each root move over as many samples as fit before
    ``deadline`` (or exactly ``max_samples``); returns (values, samples completed,
    positions made).
    A sample cut off by the deadline is dropped whole, so every move has the same
    samples behind it."""
    totals = dict.fromkeys(root_moves, 0.0)
    done = 0
    nodes = 0
    guess = None
    me = belief.seat
    while max_samples is None or done < max_samples:
        if time.monotonic() >= deadline:
            break
        st = sampled_state(belief, rng, template)
        if st.outcome is not None:
            break
        flags = flag_ids(st)
        if guess is None:
            guess = enemy_guess_table(belief)
        sample_values = {}
        for move in root_moves:
            if time.monotonic() >= deadline:
                break
            value, made = reply_value(fast.fast_apply(st, move), me, flags, guess)
            sample_values[move] = value
            nodes += made + 1
        if len(sample_values) < len(root_moves):
            break
        for move, value in sample_values.items():
            totals[move] += value
        done += 1
    if done == 0:
        return {}, 0, nodes
    return {move: total / done for move, total in totals.items()}, done, nodes
