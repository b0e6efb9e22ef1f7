"""Battlegeneral puzzles that do not depend on a guess: what the solver knows, and sure strikes.

A Battlegeneral puzzle is judged from the solver's view alone (``GAME.view(state,
seat)``: own ranks, the enemy pieces' ``moved`` / ``scouted`` / ``revealed`` marks and
revealed ranks, both captured lists).  The rule:

**Knowledge.**  Each enemy piece may have the ranks :func:`possible_ranks` gives: a
revealed piece its rank; a piece that ran more than one square the Aufklärer; a piece
that moved any movable rank still unaccounted for (army minus captured minus revealed);
an unmoved piece any rank still unaccounted for.  Narrowed while it changes: a rank
with exactly as many candidate pieces as unaccounted copies belongs to all of them
(the last unmoved unknown piece is the Fahne), and a piece left with one rank takes
that copy from the others.  A *world* is any assignment of ranks to the unknown enemy
pieces that fits these sets; the true position is one of them.

**Value of a move in a world**: two plies in material units (Aufklärer 1 …
Feldmarschall 10, as Stark counts; the Fahne :data:`WIN`): what the move's strike wins
or loses, minus what the enemy's best answer then takes from the solver.

**Bounds over all worlds** without listing them (:func:`bounds`):

* ``lo(m)``: the strike's worst result over the target's possible ranks, minus the
  most any enemy piece could take with one move afterwards (any of its possible
  movable ranks; a step, or a run through empty squares when it may be an
  Aufklärer; striking any solver piece, the Fahne counting :data:`WIN`).
* ``hi(m)``: the strike's best result over the target's possible ranks (a quiet move:
  0).  The enemy's best answer never gives the solver material as long as it has a
  quiet move, so this bounds every world from above — used only when some enemy piece
  that surely moves (revealed movable, or moved) other than the target has a free
  neighbour square after the move; otherwise ``hi`` is unbounded.

**A puzzle** (:func:`sure_best`): the move with the highest ``lo`` beats every other
move's ``hi`` by at least :data:`GAP`, and its own result is certain (a quiet move,
or a strike on a piece with one possible rank).  Then in *every* world it is better
than every other move by at least the gap: a solver who finds it never guessed, and
no other move could have been right.  Every solver move of a line is judged again
from the solver's knowledge at that point (after the computer's reply, which the
stored line fixes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.games.general.board import LAKES, NEIGHBOURS, RAYS, parse_square
from shared.games.general.pieces import (
    ARMY,
    ATTACKER_WINS,
    BOTH_LOSE,
    FLAG,
    MOVABLE_MAX,
    SCOUT,
    fight,
    parse_rank_token,
)

WIN = 100.0
# Material per rank code (index 0 unused), the unit of Stark's evaluation
# (services.ai_worker.players.general_search.VALUE; a test keeps the two equal).
VALUE = (0.0, 3.0, 1.0, 2.5, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0, 1.5, 0.0)
GAP = 1.5  # material units: more than an Aufklärer
MOVABLE = frozenset(range(1, MOVABLE_MAX + 1))


@dataclass(frozen=True)
class Knowledge:
    seat: int
    own: dict[int, int]  # square -> rank (the solver's pieces)
    enemy: dict[int, frozenset[int]]  # square -> possible ranks


def _rank(token: Any) -> int | None:
    return None if token is None else parse_rank_token(str(token))


def knowledge(view: dict[str, Any]) -> Knowledge:
    """The solver's knowledge from its view (see the module docstring)."""
    seat = int(view["seat"])
    own: dict[int, int] = {}
    marks: dict[int, tuple[bool, bool, int | None]] = {}
    for piece in view["pieces"]:
        square = parse_square(piece["square"])
        if piece["owner"] == seat:
            own[square] = _rank(piece["rank"])
        else:
            rank = _rank(piece.get("rank")) if piece.get("revealed") else None
            marks[square] = (bool(piece.get("moved")), bool(piece.get("scouted")), rank)
    pool = dict(ARMY)
    for lost in view["captured"][1 - seat]:
        pool[_rank(lost["rank"])] -= 1
    for _moved, _scouted, rank in marks.values():
        if rank is not None:
            pool[rank] -= 1
    return Knowledge(seat, own, possible_ranks(marks, pool))


def possible_ranks(marks: dict[int, tuple[bool, bool, int | None]],
                   pool: dict[int, int]) -> dict[int, frozenset[int]]:
    """square -> the ranks the enemy piece there may have; ``marks``: square ->
    (moved, scouted, revealed rank or None); ``pool``: rank -> unaccounted copies."""
    left = {r: c for r, c in pool.items() if c > 0}
    sets: dict[int, set[int]] = {}
    fixed: dict[int, int] = {}
    for square, (moved, scouted, rank) in marks.items():
        if rank is not None:
            fixed[square] = rank
        elif scouted:
            sets[square] = {SCOUT}
        elif moved:
            sets[square] = {r for r in left if r in MOVABLE}
        else:
            sets[square] = set(left)
    changed = True
    while changed:
        changed = False
        for rank, copies in list(left.items()):
            candidates = [sq for sq, s in sets.items() if rank in s]
            if candidates and len(candidates) == copies and any(len(sets[sq]) > 1 for sq in candidates):
                for sq in candidates:
                    sets[sq] = {rank}
                changed = True
        counted: dict[int, int] = {}
        for s in sets.values():
            if len(s) == 1:
                (only,) = s
                counted[only] = counted.get(only, 0) + 1
        for rank, n in counted.items():
            if n >= left.get(rank, 0):
                for s in sets.values():
                    if len(s) > 1 and rank in s:
                        s.discard(rank)
                        changed = True
    out = {sq: frozenset(s) for sq, s in sets.items()}
    out.update({sq: frozenset((rank,)) for sq, rank in fixed.items()})
    return out


def strike_results(attacker: int, targets: frozenset[int]) -> list[float]:
    """The material result of a strike by ``attacker`` for each possible target rank."""
    out = []
    for rank in targets:
        result = fight(attacker, rank)
        if result == ATTACKER_WINS:
            out.append(WIN if rank == FLAG else VALUE[rank])
        elif result == BOTH_LOSE:
            out.append(VALUE[rank] - VALUE[attacker])
        else:
            out.append(-VALUE[attacker])
    return out


def _loss(enemy_ranks: frozenset[int], own_rank: int) -> float:
    """The most an enemy piece with these possible ranks takes striking ``own_rank``."""
    worst = 0.0
    for rank in enemy_ranks & MOVABLE:
        result = fight(rank, own_rank)
        if result == ATTACKER_WINS:
            worst = max(worst, WIN if own_rank == FLAG else VALUE[own_rank])
        elif result == BOTH_LOSE:
            worst = max(worst, VALUE[own_rank] - VALUE[rank])
    return worst


def threat(own: dict[int, int], enemy: dict[int, frozenset[int]]) -> float:
    """The most one enemy move could take from the solver (see ``lo``)."""
    occupied = set(own) | set(enemy)
    worst = 0.0
    for square, ranks in enemy.items():
        movable = ranks & MOVABLE
        if not movable:
            continue
        if SCOUT in movable:
            reach = []
            for ray in RAYS[square]:
                for target in ray:
                    if target in occupied:
                        reach.append(target)
                        break
        else:
            reach = list(NEIGHBOURS[square])
        for target in reach:
            if target in own:
                worst = max(worst, _loss(ranks, own[target]))
    return worst


def _enemy_has_quiet(own: dict[int, int], enemy: dict[int, frozenset[int]], skip: int | None) -> bool:
    occupied = set(own) | set(enemy)
    for square, ranks in enemy.items():
        if square == skip or not ranks or not ranks <= MOVABLE:
            continue
        if any(n not in occupied and n not in LAKES for n in NEIGHBOURS[square]):
            return True
    return False


@dataclass(frozen=True)
class Bounds:
    move: str
    lo: float
    hi: float
    certain: bool  # the move's own result does not depend on a hidden rank


def bounds(know: Knowledge, move: str) -> Bounds:
    """``lo`` and ``hi`` of one legal move (text ``"a4-a5"``; see the module docstring)."""
    frm_text, to_text = move.split("(")[0].strip().replace("x", "-").split("-")
    frm, to = parse_square(frm_text), parse_square(to_text)
    attacker = know.own[frm]
    own_after = {sq: r for sq, r in know.own.items() if sq != frm}
    enemy_after = dict(know.enemy)
    targets = know.enemy.get(to)
    if targets is None:
        own_after[to] = attacker
        results = [0.0]
        certain = True
        worst_after = threat(own_after, enemy_after)
        quiet = _enemy_has_quiet(own_after, enemy_after, None)
    else:
        results = strike_results(attacker, targets)
        certain = len(targets) == 1
        worst_after = 0.0
        for rank in targets:  # the answer in each outcome of the strike
            outcome = fight(attacker, rank)
            own_case, enemy_case = dict(own_after), dict(enemy_after)
            if outcome == ATTACKER_WINS:
                if rank == FLAG:
                    continue  # the game is won: no answer
                own_case[to] = attacker
                del enemy_case[to]
            elif outcome == BOTH_LOSE:
                del enemy_case[to]
            else:
                enemy_case[to] = frozenset((rank,))
            worst_after = max(worst_after, threat(own_case, enemy_case))
        quiet = _enemy_has_quiet(own_after | {to: attacker}, {s: r for s, r in enemy_after.items() if s != to}, to)
    lo = min(results) - worst_after
    hi = max(results) if quiet or max(results) >= WIN else float("inf")
    return Bounds(move, lo, hi, certain)


def sure_best(know: Knowledge, moves: list[str], gap: float = GAP) -> tuple[str, list[Bounds]] | None:
    """The move that is better than every other by ``gap`` in every world, with the
    bounds of all moves (best first: that move, then by ``hi``), or None."""
    if len(moves) < 2:
        return None
    rows = [bounds(know, m) for m in moves]
    best = max(rows, key=lambda b: (b.certain, b.lo))
    if not best.certain:
        return None
    others = sorted((b for b in rows if b.move != best.move), key=lambda b: -b.hi)
    if best.lo - others[0].hi < gap:
        return None
    return best.move, [best, *others]


def has_strike_target(know: Knowledge, move: str) -> int | None:
    """The rank the move strikes (known to the solver), or None for a quiet move or an
    unknown target."""
    to = parse_square(move.split("(")[0].strip().replace("x", "-").split("-")[1])
    ranks = know.enemy.get(to)
    if ranks is None or len(ranks) != 1:
        return None
    (rank,) = ranks
    return rank


def scout_run(move: str) -> bool:
    frm_text, to_text = move.split("(")[0].strip().replace("x", "-").split("-")
    frm, to = parse_square(frm_text), parse_square(to_text)
    return abs(frm - to) not in (1, 10)

