"""The Battlegeneral computer opponent: setup, three strengths, analysis for reviews.

It reads only the seat's view (``GAME.view(state, seat)``): it never knows the
enemy's ranks beyond what moves and fights showed (:mod:`.general_belief`).

* Setup: one of the 20 computer setups (``setups.computer_setups()``), mirrored half
  of the time, then ``fertig``.
* Leicht: half of its moves at random, the rest Mittel's judgement with a lot of noise.
* Mittel: one move deep with what it knows: attacks a piece whose possible ranks make
  the fight pay on average (a revealed weaker piece above all), keeps away from
  revealed stronger pieces and steps out of their reach, otherwise advances.
* Stark: samples full positions from a per-piece belief (row prior from human setups,
  what each enemy piece's steps toward or away from our known pieces say, the Fahne
  among clustered unmoved pieces) and searches each two plies deep plus the strike back
  (:mod:`.general_search`), picking the best average.  Its evaluation counts material
  less what the other side knows (revealed ranks cost by rank), mobility (the last
  movable pieces are worth more: a side without them loses), the pull toward the
  probable Fahne squares (its Feldmarschall and General hold back while the enemy's
  Spion or Feldmarschall is hidden), hunting revealed weaker pieces, guards at home
  and intruders met early.  A strike on an unrevealed piece that costs the striker in
  a sample costs extra there (caution: high pieces strike only what is very probably
  weaker).  At the root it does not take a piece back where it just came from
  (shuffling lets the 200-move rule decide), and its pieces from the Major up do not
  probe never-moved pieces while enemy Minen are unaccounted for and a cheaper tester
  is on the board (such a probe pays its value, and a Fahne it would find counts as
  found, not won).  It uses
  SEARCH_SHARE of the time left, so that the answer is in by the deadline.

Values (``analyse``, ``value_of``) are in material units (Aufklärer 1, Feldmarschall 10,
Fahne ±100), averaged over the sampled positions.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from typing import Any

from services.ai_worker.players.general_belief import Belief, read_belief
from services.ai_worker.players.general_search import VALUE, WIN, pimc
from services.ai_worker.players.player import Player, legal_texts
from shared.games.general import state as general_state
from shared.games.general.board import NEIGHBOURS, parse_square
from shared.games.general.pieces import (
    ATTACKER_WINS,
    BOTH_LOSE,
    FLAG,
    MARSHAL,
    MINE,
    MOVABLE_MAX,
    SCOUT,
    SPY,
    fight,
)
from shared.games.general.setups import computer_setups
from shared.lru_map import LruMap

LEICHT_RANDOM_SHARE = 0.5
LEICHT_NOISE = 3.0
MITTEL_NOISE = 0.05

# Review colours in material units given up: ~1 is an Aufklärer or a tempo of
# positional value (yellow), 3 is a Hauptmann or a needlessly lost Spion (red).
REVIEW_THRESHOLDS: tuple[float, float] = (1.0, 3.0)


def _move_int(text: str) -> int:
    frm, to = text.split("-")
    return parse_square(frm) * 100 + parse_square(to)


def _setup_move(view: dict[str, Any], rng: random.Random) -> str:
    setup = view["setup"]
    if len(setup["own"] or {}) == 40:
        return "fertig"
    name = rng.choice(computer_setups())
    return f"aufstellung {name}" + (" gespiegelt" if rng.random() < 0.5 else "")


def _attack_value(belief: Belief, attacker_rank: int, target_square: int) -> float:
    """Expected material swing of attacking the enemy piece on ``target_square``."""
    piece = next(p for p in belief.enemies if p.square == target_square)
    expected = 0.0
    for rank, p in belief.marginals(piece).items():
        result = fight(attacker_rank, rank)
        if result == ATTACKER_WINS:
            expected += p * (WIN if rank == FLAG else VALUE[rank])
        elif result == BOTH_LOSE:
            expected += p * (VALUE[rank] - VALUE[attacker_rank])
        else:
            expected -= p * VALUE[attacker_rank]
    return expected


def _threat(belief: Belief, square: int, my_rank: int) -> float:
    """How much ``my_rank`` standing on ``square`` risks from adjacent enemies whose
    rank is known (revealed) and beats it; unknown moved neighbours count a little."""
    risk = 0.0
    enemy_at = {p.square: p for p in belief.enemies}
    for neighbour in NEIGHBOURS[square]:
        piece = enemy_at.get(neighbour)
        if piece is None:
            continue
        if piece.rank is not None:
            if piece.rank <= MOVABLE_MAX and fight(piece.rank, my_rank) == ATTACKER_WINS:
                risk = max(risk, VALUE[my_rank])
        elif piece.moved and my_rank >= 7:
            risk = max(risk, 0.15 * VALUE[my_rank])
    return risk


def _heuristic_scores(belief: Belief, moves: list[int]) -> dict[int, float]:
    """Mittel's one-move judgement of each move (see the module docstring)."""
    enemy_squares = {p.square for p in belief.enemies}
    forward = 1 if belief.seat == 0 else -1
    scores = {}
    for move in moves:
        frm, to = divmod(move, 100)
        rank = belief.own[frm]
        if to in enemy_squares:
            score = _attack_value(belief, rank, to)
        else:
            score = _threat(belief, frm, rank) - _threat(belief, to, rank)
            advance = (to // 10 - frm // 10) * forward
            score += 0.1 * advance if rank < 8 and rank != SPY else 0.02 * advance
            if rank == SCOUT and abs(to - frm) not in (1, 10):
                score -= 0.05  # scouting runs only when nothing better is on
            if rank in (MARSHAL, SPY) and advance > 0:
                score -= 0.1
        scores[move] = score
    return scores


# Stark: a root move that takes a piece back to a square it left within our last
# RETURN_WINDOW moves costs RETURN_PENALTY (material units): back-and-forth shuffling
# wins nothing and lets the 200-move rule or the opponent decide the game.
RETURN_WINDOW = 4
RETURN_PENALTY = 0.25
# Stark: a Major or higher does not strike a piece that never moved while an enemy
# Mine is unaccounted for and a cheaper tester (an Aufklärer, Mineur, Unteroffizier or
# Leutnant) is still on the board: such a piece is a Mine too often, the chance that it
# is the Fahne (which a tester finds as well) makes the samples overrate the strike,
# and losing a high piece opens the board to every enemy piece below it.  Cost per
# strike: PROBE_SHARE of the striker's material value.
PROBE_RANK = 7
PROBE_SHARE = 1.0
TESTER_RANKS = frozenset((2, 3, 4, 5))
# Share of the remaining time the search may use: reading the view and answering
# take the rest, so the move is in by the deadline on a loaded machine.
SEARCH_SHARE = 0.9


def _own_recent_moves(view: dict[str, Any]) -> list[tuple[int, int]]:
    """Our last RETURN_WINDOW play moves as (from, to), newest first.  We are to move,
    so the newest entry is the enemy's and ours are every second one before it."""
    history = view.get("history") or []
    ours = []
    for index in range(len(history) - 2, -1, -2):
        frm, to = history[index].split(" ")[0].replace("x", "-").split("-")
        ours.append((parse_square(frm), parse_square(to)))
        if len(ours) == RETURN_WINDOW:
            break
    return ours


def return_penalties(view: dict[str, Any], moves: list[int]) -> dict[int, float]:
    """RETURN_PENALTY for each move that takes a piece back to a square it stood on
    during our last few moves (traced back through our own move list)."""
    recent = _own_recent_moves(view)
    penalties: dict[int, float] = {}
    for move in moves:
        frm, to = divmod(move, 100)
        square = frm
        for earlier_from, earlier_to in recent:
            if earlier_to == square:
                if earlier_from == to:
                    penalties[move] = RETURN_PENALTY
                    break
                square = earlier_from
    return penalties


def heavy_probe_penalties(belief: Belief, moves: list[int]) -> dict[int, float]:
    """The probe cost (see PROBE_RANK) of each strike by a rank PROBE_RANK..10 piece on an
    enemy piece that never moved and whose rank is unknown, while an enemy Mine is
    unaccounted for and we still have a tester."""
    if belief.unknown_pool.get(MINE, 0) <= 0:
        return {}  # every enemy Mine is accounted for: an unmoved piece is no Mine
    if not any(rank in TESTER_RANKS for rank in belief.own.values()):
        return {}  # nobody cheaper can test it
    unmoved = {p.square for p in belief.enemies if not p.moved and p.rank is None}
    penalties = {}
    for move in moves:
        rank = belief.own[move // 100]
        if move % 100 in unmoved and PROBE_RANK <= rank <= MOVABLE_MAX:
            penalties[move] = PROBE_SHARE * VALUE[rank]
    return penalties


def _noisy_best(scores: dict[int, float], rng: random.Random, noise: float) -> int:
    return max(scores, key=lambda m: scores[m] + rng.gauss(0.0, noise))


def _template(view: dict[str, Any]) -> general_state.State:
    return general_state.new_setup_state(view["options"], 0)


class GeneralPlayer(Player):
    def opening(self, view: dict[str, Any], texts: list[str], rng: random.Random) -> str | None:
        """The setup: one of the computer's setups at once, then ``fertig``."""
        if view["phase"] != "setup":
            return None
        text = _setup_move(view, rng)
        return text if text in texts else texts[0]

    def search(
        self,
        view: dict[str, Any],
        texts: list[str],
        strength: str,
        deadline: float,
        rng: random.Random,
        max_samples: int | None = None,
        stats: dict[str, int] | None = None,
    ) -> str:
        """A legal move text for the seat of ``view`` by ``deadline`` (time.monotonic()).

        ``max_samples`` (Stark only) fixes the number of sampled positions instead of the
        clock, so a test gets the same move from the same rng on any machine.  ``stats``
        (Stark only) receives ``nodes`` (positions weighed), ``depth`` (2: the strike back
        of the third ply is not counted) and ``samples``."""
        belief = read_belief(view)
        moves = [_move_int(t) for t in texts]
        by_int = dict(zip(moves, texts, strict=True))
        if strength == "leicht":
            if rng.random() < LEICHT_RANDOM_SHARE:
                return rng.choice(texts)
            return by_int[_noisy_best(_heuristic_scores(belief, moves), rng, LEICHT_NOISE)]
        if strength == "mittel":
            return by_int[_noisy_best(_heuristic_scores(belief, moves), rng, MITTEL_NOISE)]
        now = time.monotonic()
        search_end = now + (deadline - now) * SEARCH_SHARE
        probes = frozenset(heavy_probe_penalties(belief, moves))
        values, samples, nodes = pimc(belief, moves, _template(view), search_end, rng, max_samples, probes)
        if stats is not None:
            stats.update(nodes=nodes, depth=2, samples=samples)
        if not values:
            return by_int[max(moves, key=_heuristic_scores(belief, moves).get)]
        penalties = root_penalties(view, belief, moves)
        return by_int[max(moves, key=lambda m: values[m] - penalties.get(m, 0.0))]


PLAYER = GeneralPlayer()


def root_penalties(view: dict[str, Any], belief: Belief, moves: list[int]) -> dict[int, float]:
    """What Stark subtracts from a root move's sampled value: stepping back and heavy
    probes.  Play and review share it, so a review's best move is the one Stark plays."""
    penalties = return_penalties(view, moves)
    for move, cost in heavy_probe_penalties(belief, moves).items():
        penalties[move] = penalties.get(move, 0.0) + cost
    return penalties


def view_seed(view: dict[str, Any]) -> int:
    """A seed from the view's content: the analysis samples from it, so that
    ``analyse`` and a later ``value_of`` on the same view search the same positions
    (a review compares their values) and a redelivered task repeats itself."""
    digest = hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).digest()
    return int.from_bytes(digest[:8], "big")


# The last few analyses by view seed: a review asks analyse() and then value_of() on the
# same view, and the played move's value must come from the very same samples.
_MEMO: LruMap[tuple[int, int | None], dict[str, float]] = LruMap(8)


def _all_values(view: dict[str, Any], deadline: float, max_samples: int | None) -> dict[str, float]:
    texts = legal_texts(view)
    if not texts:
        return {}
    if view["phase"] != "play":
        return {_setup_move(view, random.Random(view_seed(view))): 0.0}
    key = (view_seed(view), max_samples)
    memo = _MEMO.get(key)
    if memo is not None:
        return memo
    belief = read_belief(view)
    moves = [_move_int(t) for t in texts]
    probes = frozenset(heavy_probe_penalties(belief, moves))
    values, samples, _nodes = pimc(belief, moves, _template(view), deadline, random.Random(key[0]), max_samples,
                                   probes)
    if not values:
        # Out of time before one sample finished: the one-move judgement, same unit.
        values = _heuristic_scores(belief, moves)
    penalties = root_penalties(view, belief, moves)
    result = {text: values[move] - penalties.get(move, 0.0) for move, text in zip(moves, texts, strict=True)}
    if samples:
        _MEMO.put(key, result)
    return result


def analyse(
    view: dict[str, Any], deadline: float, rng: random.Random, limit: int = 5, max_samples: int | None = None
) -> list[tuple[str, float]]:
    """Stark's values of the legal moves, best first (at most ``limit``); in the setup
    the setup move it would make, valued 0.  The samples come from :func:`view_seed`,
    not from ``rng``."""
    values = _all_values(view, deadline, max_samples)
    ranked = sorted(values.items(), key=lambda item: -item[1])
    return [(text, round(value, 3)) for text, value in ranked[:limit]]


def value_of(
    view: dict[str, Any], move_text: str, deadline: float, rng: random.Random, max_samples: int | None = None
) -> float:
    """Stark's value of one legal move, from the same samples as :func:`analyse` on
    the same view (all legal moves are valued at once, so this is a lookup after it)."""
    if view["phase"] != "play":
        return 0.0  # setup moves are not weighed
    values = _all_values(view, deadline, max_samples)
    key = move_text.split("(")[0].strip().replace("x", "-")
    if key not in values:
        raise ValueError(f"not a legal move here: {move_text!r}")
    return round(values[key], 3)
