"""What the Battlegeneral computer believes about the enemy's hidden ranks.

Everything here is built from the seat's view alone (``GAME.view(state, seat)``):
own pieces with ranks, enemy pieces with the ``moved`` / ``scouted`` / ``revealed``
marks and a rank only when a fight showed it, and both captured lists.

The belief is the set of rank assignments to the unknown enemy pieces that agree with
the view: the ranks still unaccounted for (army minus captured minus revealed on the
board) are handed out so that a piece that ran more than one square is an Aufklärer
and a piece that moved at all is neither Mine nor Fahne.  Among those, unmoved pieces
on the enemy's back rows are more likely to be Fahne and Minen (that is how setups are
built, the 25 presets included), so sampling weights ranks by row.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from shared.games.general import creation
from shared.games.general import state as general_state
from shared.games.general.board import parse_square
from shared.games.general.pieces import ARMY, FLAG, MINE, MOVABLE_MAX, SCOUT, parse_rank_token
from shared.games.general.state import MOVED, REVEALED, SCOUTED

# Weight of Fahne / Mine for an unmoved piece by its distance from the owner's back row
# (0 = board edge).  Counted from the 25 presets: the flag is on the back row in almost
# all of them, mines cluster on the two back rows.
_FLAG_ROW_WEIGHT = (12.0, 2.0, 0.3, 0.1)
_MINE_ROW_WEIGHT = (2.5, 2.0, 1.0, 0.5)


@dataclass
class EnemyPiece:
    square: int
    moved: bool
    scouted: bool
    rank: int | None  # known only when a fight revealed it


@dataclass
class Belief:
    """The seat's knowledge, parsed once per decision."""

    seat: int
    own: dict[int, int]  # square -> rank
    own_flags: dict[int, int]  # square -> MOVED/SCOUTED/REVEALED bits
    enemies: list[EnemyPiece]
    unknown_pool: dict[int, int]  # rank -> how many enemy pieces of it are not yet identified
    to_move: int
    quiet: int
    ply: int

    def back_row_distance(self, square: int) -> int:
        """Rows between ``square`` and the enemy's back edge (0 = on it)."""
        row = square // 10
        return 9 - row if self.seat == 0 else row

    def marginals(self, piece: EnemyPiece) -> dict[int, float]:
        """P(rank) for one enemy piece from the counts and its marks (not the joint)."""
        if piece.rank is not None:
            return {piece.rank: 1.0}
        if piece.scouted:
            return {SCOUT: 1.0}
        pool = {r: c for r, c in self.unknown_pool.items() if c > 0}
        if piece.moved:
            pool = {r: c for r, c in pool.items() if r <= MOVABLE_MAX}
        else:
            depth = min(self.back_row_distance(piece.square), 3)
            pool = {
                r: c * (_FLAG_ROW_WEIGHT[depth] if r == FLAG else _MINE_ROW_WEIGHT[depth] if r == MINE else 1.0)
                for r, c in pool.items()
            }
        total = sum(pool.values())
        if total <= 0:
            return {SCOUT: 1.0}
        return {r: c / total for r, c in pool.items()}


def _flag_bits(piece: dict[str, Any]) -> int:
    return (
        (MOVED if piece["moved"] else 0) | (SCOUTED if piece["scouted"] else 0) | (REVEALED if piece["revealed"] else 0)
    )


def read_belief(view: dict[str, Any]) -> Belief:
    """Parse the play-phase view of the seat to move into a :class:`Belief`."""
    seat = view["seat"]
    enemy = 1 - seat
    own: dict[int, int] = {}
    own_flags: dict[int, int] = {}
    enemies: list[EnemyPiece] = []
    pool = dict(ARMY)
    for captured in view["captured"][enemy]:
        pool[parse_rank_token(captured["rank"])] -= 1
    for piece in view["pieces"]:
        square = parse_square(piece["square"])
        if piece["owner"] == seat:
            own[square] = parse_rank_token(piece["rank"])
            own_flags[square] = _flag_bits(piece)
            continue
        # An enemy rank is read only when a fight revealed it: the player never
        # touches a hidden field, even one that holds a placeholder.
        rank = parse_rank_token(piece["rank"]) if piece["revealed"] else None
        if rank is not None:
            pool[rank] -= 1
        enemies.append(EnemyPiece(square, piece["moved"], piece["scouted"], rank))
    return Belief(
        seat=seat,
        own=own,
        own_flags=own_flags,
        enemies=enemies,
        unknown_pool=pool,
        to_move=view["to_move"][0] if view["to_move"] else seat,
        quiet=view.get("quiet_moves", 0),
        ply=view.get("ply", 0),
    )


def _draw(rng: random.Random, weights: dict[int, float]) -> int:
    total = sum(weights.values())
    x = rng.random() * total
    for rank, w in weights.items():
        x -= w
        if x <= 0:
            return rank
    return next(reversed(weights))


def sample_enemy_ranks(belief: Belief, rng: random.Random) -> dict[int, int]:
    """One full guess {square: rank} for every enemy piece, consistent with the view.

    Scouted pieces take Aufklärer first, then moved pieces draw from the movable ranks
    left, then unmoved pieces share the rest (weighted by row for Fahne and Minen).
    The true assignment satisfies every constraint, so the pool never runs dry.
    """
    pool = dict(belief.unknown_pool)
    guess: dict[int, int] = {}
    scouted = [p for p in belief.enemies if p.rank is None and p.scouted]
    moved = [p for p in belief.enemies if p.rank is None and p.moved and not p.scouted]
    unmoved = [p for p in belief.enemies if p.rank is None and not p.moved]
    for piece in belief.enemies:
        if piece.rank is not None:
            guess[piece.square] = piece.rank
    for piece in scouted:
        pool[SCOUT] -= 1
        guess[piece.square] = SCOUT
    rng.shuffle(moved)
    for piece in moved:
        weights = {r: float(c) for r, c in pool.items() if c > 0 and r <= MOVABLE_MAX}
        rank = _draw(rng, weights) if weights else SCOUT
        pool[rank] = pool.get(rank, 0) - 1
        guess[piece.square] = rank
    # Fahne first, then Minen, then the rest: the scarce, position-bound ranks are placed
    # where they are likely before the plain ranks fill the remaining squares.
    open_pieces = list(unmoved)
    rng.shuffle(open_pieces)
    for special, row_weight in ((FLAG, _FLAG_ROW_WEIGHT), (MINE, _MINE_ROW_WEIGHT)):
        while pool.get(special, 0) > 0 and open_pieces:
            weights = [row_weight[min(belief.back_row_distance(p.square), 3)] for p in open_pieces]
            pick = rng.choices(range(len(open_pieces)), weights=weights)[0]
            guess[open_pieces.pop(pick).square] = special
            pool[special] -= 1
    rest = [r for r, c in pool.items() if r not in (FLAG, MINE) for _ in range(max(c, 0))]
    rng.shuffle(rest)
    for piece, rank in zip(open_pieces, rest, strict=False):
        guess[piece.square] = rank
    for piece in open_pieces[len(rest) :]:
        guess[piece.square] = SCOUT  # only reachable with an inconsistent view
    return guess


def sampled_state(belief: Belief, rng: random.Random, template: general_state.State) -> general_state.State:
    """A searchable play state: own army as known, the enemy army as one guess.

    The position starts without repetition history (``begin_play``), so the caller
    must restrict the root to the view's legal moves.
    """
    enemy_army = sample_enemy_ranks(belief, rng)
    square_flags = dict(belief.own_flags)
    for piece in belief.enemies:
        square_flags[piece.square] = (
            (MOVED if piece.moved else 0)
            | (SCOUTED if piece.scouted else 0)
            | (REVEALED if piece.rank is not None else 0)
        )
    armies = (belief.own, enemy_army) if belief.seat == 0 else (enemy_army, belief.own)
    return creation.begin_play(template, armies, square_flags, belief.to_move, belief.quiet, belief.ply)
