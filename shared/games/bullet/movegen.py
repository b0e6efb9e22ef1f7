"""Move generation, counting and application on bitboards: the hot path.

A *move id* is an index into the precomputed move table below.  The table holds every
geometrically possible move once: a group of 1–3 marbles on one line, a direction,
and for in-line moves the number of enemy marbles pushed (0, 1, 2) — whether the last
one falls off the board follows from the geometry.  For each id the table keeps the
XOR masks that apply it (own side, enemy side), whether a marble is pushed out, and
its text, so applying a move is two XORs.

A *fast state* is the tuple ``(white, black, side, out_white, out_black)``: the two
bitboards (see :mod:`.board`), the seat to move (0 = Weiß, 1 = Schwarz) and how
many enemy marbles each seat has pushed out.  It knows nothing about the win target,
the move limit or repetitions; the caller (game logic, AI search) decides when a
game is over.

Generation works on whole bitboards per direction: e.g. "own marble at c, own marble
at c−D, enemy at c+D, empty or off board at c+2D" is one AND of four shifted
bitboards; every set bit is one legal 2-against-1 push with its leading marble at c.
Counting moves (perft leaves) is the same expressions with ``int.bit_count``.
"""

from __future__ import annotations

from shared.games.bullet.board import (
    ALL,
    AXES,
    DIR_NAMES,
    GRID_BITS,
    NAME,
    OFF,
    SHIFTS,
    VALID,
    mask_of,
)

FastState = tuple[int, int, int, int, int]

# ---- the move table ----------------------------------------------------------------
OWN_XOR: list[int] = []
ENEMY_XOR: list[int] = []
PUSHES_OUT: list[int] = []  # 1 when an enemy marble leaves the board
GROUP: list[tuple[int, ...]] = []  # the moving own marbles, ascending
DIRECTION: list[int] = []
PUSHED: list[int] = []  # number of enemy marbles pushed
BROADSIDE: list[bool] = []
TEXT: list[str] = []
BY_KEY: dict[tuple[int, int, int], int] = {}  # (group mask, direction, pushed) → id
# What a move needs, so one move is checked in O(1): own marbles, enemy marbles, empty cells.
NEED_OWN: list[int] = []
NEED_ENEMY: list[int] = []
NEED_EMPTY: list[int] = []

# INLINE_IDS[dir][n][variant][cell]: in-line move of n marbles led by `cell`.
# variant 0: into an empty cell; 1: pushes one; 2: pushes one out; 3: pushes two; 4: pushes two, one out.
INLINE_IDS: list[list[list[list[int]]]] = [[[[-1] * GRID_BITS for _ in range(5)] for _ in range(4)] for _ in range(6)]
# BROADSIDE_IDS[axis][dir][n][cell]: n marbles cell, cell+axis, … moving sideways in dir.
BROADSIDE_IDS: list[list[list[list[int]]]] = [
    [[[-1] * GRID_BITS for _ in range(4)] for _ in range(6)] for _ in range(3)
]
BROADSIDE_DIRS = tuple(tuple(d for d in range(6) if d % 3 != axis) for axis in AXES)


def _text(group: tuple[int, ...], shift: int) -> str:
    first, last = group[0], group[-1]
    if first == last:
        return f"{NAME[first]}-{NAME[first + shift]}"
    return f"{NAME[first]}{NAME[last]}-{NAME[first + shift]}{NAME[last + shift]}"


def _add(group: tuple[int, ...], direction: int, pushed: int, enemy: tuple[int, ...], broadside: bool) -> int:
    shift = SHIFTS[direction]
    own_xor = mask_of(group) ^ mask_of(tuple(c + shift for c in group))
    enemy_xor = mask_of(enemy) ^ mask_of(tuple(c + shift for c in enemy if c + shift in NAME))
    out = int(any(c + shift not in NAME for c in enemy))
    if broadside:
        empty_cells = tuple(c + shift for c in group)
    else:
        front = max(group + enemy, key=lambda c: c * shift)  # the last marble of the moving line
        empty_cells = (front + shift,) if front + shift in NAME else ()
    move_id = len(TEXT)
    NEED_OWN.append(mask_of(group))
    NEED_ENEMY.append(mask_of(enemy))
    NEED_EMPTY.append(mask_of(empty_cells))
    OWN_XOR.append(own_xor)
    ENEMY_XOR.append(enemy_xor)
    PUSHES_OUT.append(out)
    GROUP.append(group)
    DIRECTION.append(direction)
    PUSHED.append(pushed)
    BROADSIDE.append(broadside)
    TEXT.append(_text(group, shift))
    BY_KEY[(mask_of(group), direction, pushed)] = move_id
    return move_id


def _build_table() -> None:
    for direction, shift in enumerate(SHIFTS):
        for lead in NAME:
            if lead + shift not in NAME:
                continue  # the leading marble would leave the board
            for n in (1, 2, 3):
                group = tuple(sorted(lead - k * shift for k in range(n)))
                if any(c not in NAME for c in group):
                    continue
                INLINE_IDS[direction][n][0][lead] = _add(group, direction, 0, (), False)
                for pushed in range(1, n):
                    enemy = tuple(lead + k * shift for k in range(1, pushed + 1))
                    if any(c not in NAME for c in enemy):
                        continue
                    out = lead + (pushed + 1) * shift not in NAME
                    variant = 2 * pushed - 1 + int(out)
                    INLINE_IDS[direction][n][variant][lead] = _add(group, direction, pushed, enemy, False)
    for axis in AXES:
        step = SHIFTS[axis]
        for direction in BROADSIDE_DIRS[axis]:
            shift = SHIFTS[direction]
            for first in NAME:
                for n in (2, 3):
                    group = tuple(first + k * step for k in range(n))
                    if all(c in NAME and c + shift in NAME for c in group):
                        BROADSIDE_IDS[axis][direction][n][first] = _add(group, direction, 0, (), True)


_build_table()
MOVE_COUNT = len(TEXT)


def is_legal(own: int, enemy: int, move: int) -> bool:
    """Whether move id ``move`` is legal for the side owning ``own``, without generating all moves."""
    need = NEED_OWN[move]
    need_enemy = NEED_ENEMY[move]
    return own & need == need and enemy & need_enemy == need_enemy and not (own | enemy) & NEED_EMPTY[move]


# ---- generation ---------------------------------------------------------------------
def _collect(bits: int, ids: list[int], out: list[int]) -> None:
    while bits:
        low = bits & -bits
        out.append(ids[low.bit_length() - 1])
        bits ^= low


def moves_for(own: int, enemy: int) -> list[int]:
    """Every legal move id of the side owning ``own``."""
    empty = VALID & ~(own | enemy)
    free = empty | OFF  # empty or off the board: where a pushed line may go
    result: list[int] = []
    targets = []  # per direction: bit c set iff c + D is empty
    for direction, s in enumerate(SHIFTS):
        if s > 0:
            fb = empty >> s
            eb = enemy >> s
            e2 = enemy >> (2 * s)
            f2 = free >> (2 * s)
            f3 = free >> (3 * s)
            o2 = OFF >> (2 * s)
            o3 = OFF >> (3 * s)
            l2 = own & (own << s)
            l3 = l2 & (own << (2 * s))
        else:
            t = -s
            fb = (empty << t) & ALL
            eb = (enemy << t) & ALL
            e2 = (enemy << (2 * t)) & ALL
            f2 = (free << (2 * t)) & ALL
            f3 = (free << (3 * t)) & ALL
            o2 = (OFF << (2 * t)) & ALL
            o3 = (OFF << (3 * t)) & ALL
            l2 = own & (own >> t)
            l3 = l2 & (own >> (2 * t))
        targets.append(fb)
        tables = INLINE_IDS[direction]
        # Most of these masks are empty; testing before the call keeps generation cheap.
        bits = own & fb
        if bits:
            _collect(bits, tables[1][0], result)
        if l2:
            push1 = eb & f2
            bits = l2 & fb
            if bits:
                _collect(bits, tables[2][0], result)
            bits = l2 & push1
            if bits:
                if bits & ~o2:
                    _collect(bits & ~o2, tables[2][1], result)
                if bits & o2:
                    _collect(bits & o2, tables[2][2], result)
            if l3:
                bits = l3 & fb
                if bits:
                    _collect(bits, tables[3][0], result)
                bits = l3 & push1
                if bits:
                    if bits & ~o2:
                        _collect(bits & ~o2, tables[3][1], result)
                    if bits & o2:
                        _collect(bits & o2, tables[3][2], result)
                bits = l3 & eb & e2 & f3
                if bits:
                    if bits & ~o3:
                        _collect(bits & ~o3, tables[3][3], result)
                    if bits & o3:
                        _collect(bits & o3, tables[3][4], result)
    for axis in AXES:
        sa = SHIFTS[axis]
        p2 = own & (own >> sa)
        if not p2:
            continue
        p3 = p2 & (own >> (2 * sa))
        axis_tables = BROADSIDE_IDS[axis]
        for direction in BROADSIDE_DIRS[axis]:
            t = targets[direction]
            bits = p2 & t & (t >> sa)
            if bits:
                _collect(bits, axis_tables[direction][2], result)
                bits &= p3 & (t >> (2 * sa))
                if bits:
                    _collect(bits, axis_tables[direction][3], result)
    return result


def count_for(own: int, enemy: int) -> int:
    """``len(moves_for(own, enemy))`` without building the list (perft leaves)."""
    empty = VALID & ~(own | enemy)
    free = empty | OFF
    total = 0
    targets = []
    for s in SHIFTS:
        if s > 0:
            fb = empty >> s
            eb = enemy >> s
            l2 = own & (own << s)
            l3 = l2 & (own << (2 * s))
            push1 = eb & (free >> (2 * s))
            push2 = eb & (enemy >> (2 * s)) & (free >> (3 * s))
        else:
            t = -s
            fb = (empty << t) & ALL
            eb = (enemy << t) & ALL
            l2 = own & (own >> t)
            l3 = l2 & (own >> (2 * t))
            push1 = eb & (free << (2 * t))
            push2 = eb & (enemy << (2 * t)) & (free << (3 * t))
        targets.append(fb)
        total += (own & fb).bit_count() + (l2 & (fb | push1)).bit_count() + (l3 & (fb | push1 | push2)).bit_count()
    for axis in AXES:
        sa = SHIFTS[axis]
        p2 = own & (own >> sa)
        if not p2:
            continue
        p3 = p2 & (own >> (2 * sa))
        for direction in BROADSIDE_DIRS[axis]:
            t = targets[direction]
            t2 = t & (t >> sa)
            total += (p2 & t2).bit_count() + (p3 & t2 & (t >> (2 * sa))).bit_count()
    return total


def has_move(own: int, enemy: int) -> bool:
    """Whether the side owning ``own`` has any legal move (the no-move rule)."""
    empty = VALID & ~(own | enemy)
    for s in SHIFTS:
        # a marble with an empty neighbour can always step there alone
        if own & ((empty >> s) if s > 0 else (empty << -s)):
            return True
    return count_for(own, enemy) > 0


def pushable_out(pusher: int, victim: int) -> int:
    """Bitboard of ``victim`` marbles that ``pusher`` could push off the board in one move."""
    endangered = 0
    for s in SHIFTS:
        if s > 0:
            l2 = pusher & (pusher << s)
            l3 = l2 & (pusher << (2 * s))
            one = l2 & (victim >> s) & (OFF >> (2 * s))
            two = l3 & (victim >> s) & (victim >> (2 * s)) & (OFF >> (3 * s))
            endangered |= (one << s) | (two << (2 * s))
        else:
            t = -s
            l2 = pusher & (pusher >> t)
            l3 = l2 & (pusher >> (2 * t))
            one = l2 & (victim << t) & (OFF << (2 * t))
            two = l3 & (victim << t) & (victim << (2 * t)) & (OFF << (3 * t))
            endangered |= (one >> t) | (two >> (2 * t))
    return endangered & victim


# ---- the fast API on fast states ---------------------------------------------------------
def fast_moves(state: FastState) -> list[int]:
    """Legal move ids of the side to move (ignores win target, limit, repetition)."""
    white, black, side = state[0], state[1], state[2]
    return moves_for(white, black) if side == 0 else moves_for(black, white)


def fast_count(state: FastState) -> int:
    white, black, side = state[0], state[1], state[2]
    return count_for(white, black) if side == 0 else count_for(black, white)


def fast_apply(state: FastState, move: int) -> FastState:
    """The fast state after ``move`` (a legal move id for the side to move)."""
    white, black, side, out_white, out_black = state
    if side == 0:
        return (white ^ OWN_XOR[move], black ^ ENEMY_XOR[move], 1, out_white + PUSHES_OUT[move], out_black)
    return (white ^ ENEMY_XOR[move], black ^ OWN_XOR[move], 0, out_white, out_black + PUSHES_OUT[move])


def fast_perft(state: FastState, depth: int, win_target: int) -> int:
    """Leaf count; a state where a side has reached ``win_target`` has no moves."""
    if state[3] >= win_target or state[4] >= win_target:
        return 0
    if depth <= 0:
        return 1
    if depth == 1:
        return fast_count(state)
    return sum(fast_perft(fast_apply(state, m), depth - 1, win_target) for m in fast_moves(state))


__all__ = [
    "BROADSIDE",
    "BY_KEY",
    "DIRECTION",
    "DIR_NAMES",
    "FastState",
    "GROUP",
    "MOVE_COUNT",
    "PUSHED",
    "PUSHES_OUT",
    "TEXT",
    "count_for",
    "fast_apply",
    "fast_count",
    "fast_moves",
    "fast_perft",
    "has_move",
    "is_legal",
    "moves_for",
    "pushable_out",
]
