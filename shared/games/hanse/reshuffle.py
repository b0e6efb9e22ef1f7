"""Zug zurück against the computer: the unseen cards and Ratsmarken are mixed anew.

After a take-back the cards that had been drawn go back onto the deck, and the player
would know what comes next.  :func:`reshuffle_unseen` permutes exactly what nobody has
seen — the draw pile's order and the Ratsmarken still lying in the three piles — and
leaves everything seen alone: the market, both hands and stables, the gemerkte Karten,
the tokens won, the history.  So for every seat (and a spectator) the view before and
after is the same.

Deterministic given ``seed``: the permutation is the one :func:`.replay.reshuffle`
makes (``random.Random(f"hanse-undo:{seed}")``), and ``(ply, seed)`` is appended to
``state.reshuffles``.  A record (``[Neumischung "ply seed"]``) therefore replays
through :func:`.replay.replay`, and the game service's replay from
``(options, seed, moves, reshuffles)`` rebuilds the same state in any process.
"""

from __future__ import annotations

from shared.games.hanse.replay import reshuffle
from shared.games.hanse.state import State


def reshuffle_unseen(state: State, seed: int) -> State:
    """A new state with the deck order and the Ratsmarken piles permuted by ``seed``; nothing seen changes."""
    if type(seed) is not int:
        raise TypeError("the reshuffle seed must be an int")
    new = reshuffle(state, seed)
    # The ply is the number of moves played so far: a replay mixes before move ``ply``.
    new.reshuffles = state.reshuffles + ((len(state.history), seed),)
    return new
