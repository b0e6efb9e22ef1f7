"""Zug zurück against the computer: ``reshuffle_unseen`` permutes only what nobody has seen.

Property tests over random positions of random matches: every view (both seats and a
spectator) is the same before and after, only the deck order and the Ratsmarken left in
the piles change (as multisets they stay), the result depends on the seed alone, and a
match with reshuffles still replays from its record and from the table's replay.
"""

from __future__ import annotations

import random
from collections import Counter

from shared.games import get_game
from shared.games.base import GameError
from shared.games.hanse import fast_moves
from shared.games.hanse.replay import replay
from shared.games.hanse.reshuffle import reshuffle_unseen
from shared.games.hanse.serial import check_state
from shared.table_replay import replay as table_replay

GAME = get_game("hanse")


def _random_match_moves(seed: int, plies: int) -> list[str]:
    rng = random.Random(seed)
    state = GAME.new_game({}, seed)
    for _ in range(plies):
        if GAME.outcome(state) is not None:
            break
        state = GAME.apply(state, rng.choice(fast_moves(state)))
    return GAME.history(state)


def _everything_but_unseen(state) -> tuple:
    return (state.round_no, state.phase, state.turn, state.starter, state.market, state.hands, state.known,
            state.zinn_left, state.zinn_won, state.rats_won, state.discard, state.seals, state.rounds,
            state.history)  # fmt: skip


def test_only_deck_order_and_ratsmarken_piles_change_and_no_view_does() -> None:
    changed_deck = changed_rats = 0
    for seed in range(40):
        moves = _random_match_moves(seed, 5 + 3 * seed)
        state = replay(0, 2, seed, moves)
        if GAME.outcome(state) is not None:
            continue
        mixed = reshuffle_unseen(state, 7000 + seed)
        check_state(mixed)
        assert _everything_but_unseen(mixed) == _everything_but_unseen(state)
        assert Counter(mixed.deck) == Counter(state.deck) and len(mixed.deck) == len(state.deck)
        assert [Counter(p) for p in mixed.rats_piles] == [Counter(p) for p in state.rats_piles]
        for seat in (0, 1, None):
            assert GAME.view(mixed, seat) == GAME.view(state, seat)
        assert mixed.reshuffles == state.reshuffles + ((len(moves), 7000 + seed),)
        changed_deck += mixed.deck != state.deck
        changed_rats += mixed.rats_piles != state.rats_piles
        # Deterministic given the seed: the table's replay in another process gets the same deck.
        assert reshuffle_unseen(state, 7000 + seed) == mixed
    # Shuffled for real (a deck of two identical cards may come out the same).
    assert changed_deck >= 30 and changed_rats >= 30


def test_undo_then_reshuffle_hides_the_cards_that_would_have_come() -> None:
    """A take-back of a move and its answer puts the drawn cards back; after mixing, the
    next draws differ between seeds although every view is the one before the moves."""
    state = GAME.new_game({}, 3)
    take = next(i.text for i in GAME.legal_moves(state) if i.text.startswith("nimm"))
    after = GAME.apply(state, take)
    answer = GAME.apply(after, fast_moves(after)[0])
    before = replay(0, 2, 3, GAME.history(answer)[:0])
    decks = set()
    for seed in range(12):
        undone = reshuffle_unseen(before, seed)
        assert GAME.view(undone, 0) == GAME.view(state, 0) and GAME.view(undone, 1) == GAME.view(state, 1)
        decks.add(undone.deck[-3:])
    assert len(decks) >= 8  # what comes next is no longer what the player saw come


def test_record_and_table_replay_reproduce_a_match_with_reshuffles() -> None:
    rng = random.Random(5)
    state = GAME.new_game({}, 5)
    reshuffles: list[tuple[int, int]] = []
    undo_at = {12, 40, 41}  # the second of 40/41 takes back a move made after a reshuffle
    while GAME.outcome(state) is None and len(state.history) < 90:
        if len(state.history) in undo_at:
            undo_at.discard(len(state.history))
            # The table cuts two moves, replays, then mixes with a fresh seed at that ply.
            keep = len(state.history) - 2
            kept = tuple(r for r in state.reshuffles if r[0] <= keep)
            state = reshuffle_unseen(replay(0, 2, 5, GAME.history(state)[:keep], kept), 100 + keep)
            reshuffles = [r for r in reshuffles if r[0] <= keep] + [(keep, 100 + keep)]
        state = GAME.apply(state, rng.choice(fast_moves(state)))
    assert list(state.reshuffles) == reshuffles and len(reshuffles) >= 2
    moves = GAME.history(state)
    seats = [entry[1] if entry[2] != "weiter" else None for entry in state.history]
    assert table_replay("hanse", {}, 5, moves, seats, tuple(reshuffles)) == state
    assert GAME.parse_record(GAME.record(state, {})) == state
    # Without the reshuffles the same moves do not lead there (or are not even legal).
    try:
        plain = table_replay("hanse", {}, 5, moves, seats)
    except GameError:
        plain = None
    assert plain != state
