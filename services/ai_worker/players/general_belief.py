"""What the Battlegeneral computer believes about the enemy's hidden ranks.

Everything here is built from the seat's view alone (``GAME.view(state, seat)``):
own pieces with ranks, enemy pieces with the ``moved`` / ``scouted`` / ``revealed``
marks and a rank only when a fight showed it, and both captured lists.

The belief is the set of rank assignments to the unknown enemy pieces that agree with
the view: the ranks still unaccounted for (army minus captured minus revealed on the
board) are handed out so that a piece that ran more than one square is an Aufklärer
and a piece that moved at all is neither Mine nor Fahne.  Among those, samples are
drawn from a per-piece rank distribution (:func:`piece_weights`, used only by Stark;
Mittel keeps the plain counts of :meth:`Belief.marginals`):

* the setup square: how often human setups (the 25 presets) hold each rank on each
  row, counted from the owner's back edge (:data:`ROW_PRIOR`) — Fahne and Minen at the
  back, the Spion in the middle rows, General and Feldmarschall in front;
* behaviour (:func:`behaviour_odds`, from the move list of the view): a piece that
  stepped next to one of our pieces whose rank it knew is probably higher (or a bluff),
  next to our Feldmarschall probably the Spion; a piece that stepped away from a known
  piece is probably lower;
* the Fahne is placed where unmoved pieces cluster (Minen around it), and Minen go
  next to the sampled Fahne more often.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from shared.games.general import creation
from shared.games.general import state as general_state
from shared.games.general.board import NEIGHBOUR_SETS, NEIGHBOURS, parse_square
from shared.games.general.pieces import (
    ARMY,
    ATTACKER_WINS,
    BOTH_LOSE,
    FLAG,
    MARSHAL,
    MINE,
    MOVABLE_MAX,
    SCOUT,
    SPY,
    fight,
    parse_rank_token,
)
from shared.games.general.setups import PRESETS
from shared.games.general.state import MOVED, REVEALED, SCOUTED

# Weight of Fahne / Mine for an unmoved piece by its distance from the owner's back row
# (0 = board edge).  Counted from the 25 presets: the flag is on the back row in almost
# all of them, mines cluster on the two back rows.
_FLAG_ROW_WEIGHT = (12.0, 2.0, 0.3, 0.1)
_MINE_ROW_WEIGHT = (2.5, 2.0, 1.0, 0.5)
# How strongly the presets' row counts shape the prior of a movable rank (the rest is
# uniform): the enemy need not set up like them.
ROW_PRIOR_SHARE = 0.6


def _row_prior() -> tuple[dict[int, float], ...]:
    """Per row from the owner's back edge: rank -> weight relative to "any row alike",
    counted over the presets, blended with 1 by ROW_PRIOR_SHARE (never 0)."""
    counts = [dict.fromkeys(ARMY, 0) for _ in range(4)]
    for rows in PRESETS.values():
        for row, ranks in enumerate(rows):
            for rank in ranks:
                counts[row][rank] += 1
    prior = []
    for row in range(4):
        weights = {}
        for rank in ARMY:
            total = sum(counts[r][rank] for r in range(4))
            ratio = counts[row][rank] / (total / 4) if total else 1.0
            weights[rank] = ROW_PRIOR_SHARE * ratio + (1.0 - ROW_PRIOR_SHARE)
        prior.append(weights)
    return tuple(prior)


ROW_PRIOR: tuple[dict[int, float], ...] = _row_prior()
# Behaviour (see behaviour_odds): how much likelier each rank becomes per step a piece
# made next to a piece of ours whose rank it knew (APPROACH_*), or away from one
# (FLEE_*).  Bluffs exist, so nothing is ruled out; the product is clipped to ODDS_CLIP.
APPROACH_HIGHER, APPROACH_EQUAL, APPROACH_LOWER = 3.0, 1.5, 0.5
FLEE_LOWER, FLEE_HIGHER = 2.0, 0.4
ODDS_CLIP = (0.1, 12.0)
# Only moves this many plies back count as behaviour: an old step says less about a
# piece that has had many chances since.
BEHAVIOUR_PLIES = 40
# The Fahne sits among unmoved pieces (Minen around it): per unmoved neighbour, the
# square's weight for the Fahne grows by FLAG_CLUSTER; a Mine is MINE_NEAR_FLAG times
# as likely next to the sampled Fahne.
FLAG_CLUSTER = 0.5
MINE_NEAR_FLAG = 2.5
# Metropolis swaps per piece after the one-by-one draw (see _swap_toward_posterior).
SWAPS_PER_PIECE = 3


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
    odds: dict[int, dict[int, float]] = field(default_factory=dict)  # square -> rank -> behaviour factor

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
    belief = Belief(
        seat=seat,
        own=own,
        own_flags=own_flags,
        enemies=enemies,
        unknown_pool=pool,
        to_move=view["to_move"][0] if view["to_move"] else seat,
        quiet=view.get("quiet_moves", 0),
        ply=view.get("ply", 0),
    )
    belief.odds = behaviour_odds(view, belief)
    return belief


def _parse_history_move(text: str) -> tuple[int, int, tuple[int, int] | None]:
    """(from, to, (attacker rank, defender rank) or None) of a move text of the view."""
    head, _, annotation = text.partition(" ")
    frm, to = head.replace("x", "-").split("-")
    ranks = None
    if annotation:
        attacker, defender = annotation.strip("()").split(":")
        ranks = (parse_rank_token(attacker), parse_rank_token(defender))
    return parse_square(frm), parse_square(to), ranks


def behaviour_odds(view: dict[str, Any], belief: Belief) -> dict[int, dict[int, float]]:
    """Per enemy piece (by its square now) whose rank is unknown: rank -> how much likelier
    its recent steps make that rank (1 = no evidence).

    The last BEHAVIOUR_PLIES moves are undone from the current position (fights put back
    the pieces they removed), so every enemy step is seen with our pieces where they
    stood and with what the enemy knew of them then (our piece counts as known from its
    first fight in the window on, or if it is revealed and fought before it).  A quiet
    step that ends next to our known piece of rank R, having started away from it, is
    an approach: higher ranks (for R the Feldmarschall: the Spion) gain, lower ones lose;
    a step away from it is a flight: lower ranks gain."""
    history = view.get("history") or []
    if not history:
        return {}
    seat = belief.seat
    enemy = 1 - seat
    # cell: [owner, ident, rank or None, known to the other side]
    board: dict[int, list[Any]] = {}
    for square, rank in belief.own.items():
        board[square] = [seat, None, rank, bool(belief.own_flags.get(square, 0) & REVEALED)]
    for piece in belief.enemies:
        if piece.rank is None:
            board[piece.square] = [enemy, piece.square, None, False]
        else:
            board[piece.square] = [enemy, None, piece.rank, True]
    window = history[-BEHAVIOUR_PLIES:]
    first_mover = (belief.to_move - len(window)) % 2
    steps: list[tuple[Any, int, int, list[tuple[int, int]]]] = []
    for index in range(len(window) - 1, -1, -1):
        mover = (first_mover + index) % 2
        frm, to, ranks = _parse_history_move(window[index])
        if ranks is None:
            cell = board.pop(to, None)
            if cell is None:
                return {}  # the view and its move list disagree: no evidence rather than wrong
            board[frm] = cell
            if mover == enemy and cell[1] is not None:
                known = [(sq, c[2]) for sq, c in board.items() if c[0] == seat and c[3]]
                steps.append((cell[1], frm, to, known))
            continue
        attacker_rank, defender_rank = ranks
        result = fight(attacker_rank, defender_rank)
        standing = board.pop(to, None)
        if result == ATTACKER_WINS:
            attacker = standing or [mover, None, attacker_rank, True]
            defender = [1 - mover, None, defender_rank, True]
        elif result == BOTH_LOSE:
            attacker = [mover, None, attacker_rank, True]
            defender = [1 - mover, None, defender_rank, True]
        else:
            defender = standing or [1 - mover, None, defender_rank, True]
            attacker = [mover, None, attacker_rank, True]
        # before its first fight here a piece of ours was as unknown as the enemy's
        for cell in (attacker, defender):
            if cell[0] == seat:
                cell[3] = False
        board[frm] = attacker
        board[to] = defender
    odds: dict[int, dict[int, float]] = {}
    for ident, frm, to, known in steps:
        factors = odds.setdefault(ident, {})
        for square, rank in known:
            if rank is None or rank > MOVABLE_MAX or rank <= SCOUT:
                continue
            near_to, near_from = square in NEIGHBOUR_SETS[to], square in NEIGHBOUR_SETS[frm]
            if near_to and not near_from:
                for r in range(1, MOVABLE_MAX + 1):
                    beats = r > rank or (rank == MARSHAL and r == SPY)
                    f = APPROACH_HIGHER if beats else APPROACH_EQUAL if r == rank else APPROACH_LOWER
                    factors[r] = factors.get(r, 1.0) * f
            elif near_from and not near_to:
                for r in range(1, MOVABLE_MAX + 1):
                    f = FLEE_LOWER if r < rank and not (rank == MARSHAL and r == SPY) else FLEE_HIGHER
                    factors[r] = factors.get(r, 1.0) * f
    lo, hi = ODDS_CLIP
    return {
        ident: {r: min(hi, max(lo, f)) for r, f in factors.items()}
        for ident, factors in odds.items()
        if factors
    }


def _draw(rng: random.Random, weights: dict[int, float]) -> int:
    total = sum(weights.values())
    x = rng.random() * total
    for rank, w in weights.items():
        x -= w
        if x <= 0:
            return rank
    return next(reversed(weights))


def _row(belief: Belief, square: int) -> int:
    return min(belief.back_row_distance(square), 3)


def sample_enemy_ranks(belief: Belief, rng: random.Random) -> dict[int, int]:
    """One full guess {square: rank} for every enemy piece, consistent with the view.

    Scouted pieces take Aufklärer first; then the Fahne goes on an unmoved piece (by row
    and by how many unmoved pieces surround it), the Minen on unmoved pieces (by row,
    likelier next to that Fahne); then moved pieces, then the other unmoved ones, draw
    one by one in random order from the ranks left, each rank weighed by its count, the
    piece's row (unmoved pieces stand where they were set up) and its behaviour.  The
    true assignment satisfies every constraint, so the pool never runs dry.
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
    open_pieces = list(unmoved)
    rng.shuffle(open_pieces)
    unmoved_squares = {p.square for p in unmoved} | {p.square for p in belief.enemies if p.rank == MINE}
    flag_square = -1
    if pool.get(FLAG, 0) > 0 and open_pieces:
        weights = [
            _FLAG_ROW_WEIGHT[_row(belief, p.square)]
            * (1.0 + FLAG_CLUSTER * sum(n in unmoved_squares for n in NEIGHBOURS[p.square]))
            for p in open_pieces
        ]
        pick = rng.choices(range(len(open_pieces)), weights=weights)[0]
        flag_square = open_pieces.pop(pick).square
        guess[flag_square] = FLAG
        pool[FLAG] -= 1
    near_flag = NEIGHBOUR_SETS[flag_square] if flag_square >= 0 else frozenset()
    while pool.get(MINE, 0) > 0 and open_pieces:
        weights = [
            _MINE_ROW_WEIGHT[_row(belief, p.square)] * (MINE_NEAR_FLAG if p.square in near_flag else 1.0)
            for p in open_pieces
        ]
        pick = rng.choices(range(len(open_pieces)), weights=weights)[0]
        guess[open_pieces.pop(pick).square] = MINE
        pool[MINE] -= 1
    # Pieces with behaviour evidence draw first (their likely ranks are still in the
    # pool); the swaps afterwards correct what drawing one by one gets wrong.
    rest = moved + open_pieces
    rng.shuffle(rest)
    rest.sort(key=lambda p: p.square not in belief.odds)
    weight_of: list[Any] = []
    for piece in rest:
        odds = belief.odds.get(piece.square)
        prior = None if piece.moved else ROW_PRIOR[_row(belief, piece.square)]
        weight_of.append((prior, odds))
        ranks = [r for r, c in pool.items() if c > 0 and r <= MOVABLE_MAX]
        if not ranks:
            guess[piece.square] = SCOUT  # only reachable with an inconsistent view
            continue
        weights = [
            pool[r] * (prior[r] if prior else 1.0) * (odds.get(r, 1.0) if odds else 1.0) for r in ranks
        ]
        rank = _pick(ranks, weights, rng)
        pool[rank] -= 1
        guess[piece.square] = rank
    _swap_toward_posterior(rest, weight_of, guess, rng)
    return guess


def _pick(items: list[int], weights: list[float], rng: random.Random) -> int:
    """One of ``items`` with chance proportional to ``weights`` (rng.choices, cheaper)."""
    x = rng.random() * sum(weights)
    for item, weight in zip(items, weights, strict=True):
        x -= weight
        if x < 0:
            return item
    return items[-1]


def _rank_weight(weight: tuple[Any, Any], rank: int) -> float:
    prior, odds = weight
    return (prior[rank] if prior else 1.0) * (odds.get(rank, 1.0) if odds else 1.0)


def _swap_toward_posterior(pieces: list[EnemyPiece], weight_of: list[Any], guess: dict[int, int],
                           rng: random.Random) -> None:
    """SWAPS_PER_PIECE Metropolis swaps of two pieces' ranks per piece, each accepted by
    the ratio of the per-piece weights: the counts stay as they are and the guess moves
    toward the joint distribution the weights describe."""
    n = len(pieces)
    if n < 2 or not any(w[1] for w in weight_of):
        return  # without behaviour evidence the draw is already exchangeable enough
    for _ in range(SWAPS_PER_PIECE * n):
        i, j = rng.randrange(n), rng.randrange(n)
        a, b = pieces[i].square, pieces[j].square
        ra, rb = guess[a], guess[b]
        if ra == rb:
            continue
        wi, wj = weight_of[i], weight_of[j]
        ratio = (_rank_weight(wi, rb) * _rank_weight(wj, ra)) / (_rank_weight(wi, ra) * _rank_weight(wj, rb))
        if ratio >= 1.0 or rng.random() < ratio:
            guess[a], guess[b] = rb, ra


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
