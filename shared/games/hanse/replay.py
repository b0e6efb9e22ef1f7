"""Playing a match forward with history, replaying it, and undo with reshuffle.

:func:`play` is the checked, logged move: it writes one history entry
``(round, seat, text, drawn, rats)`` per move on top of :func:`.moves.step`.
:func:`replay` rebuilds a match from ``(first, seals_to_win, seed, moves, reshuffles)``.

:func:`undo_and_reshuffle` (computer games: "Zug zurück") takes back the last move
by replaying everything before it, then shuffles the deck and the Ratsmarken still in
the piles with ``random.Random(f"hanse-undo:{seed}")`` — what would have come stays a
secret, everything that was seen (market, hands, stables, tokens won) is unchanged.
The reshuffle is kept in ``state.reshuffles`` so that records still replay.  To take
back a human move and the computer's answer, call it twice.
"""

from __future__ import annotations

import random

from shared.games.base import IllegalMove
from shared.games.hanse.checks import check_parsed, check_seat
from shared.games.hanse.moves import HORSES, SELL, TAKE, WEITER, legal, step
from shared.games.hanse.notation import format_move, parse_move_text
from shared.games.hanse.state import State, new_match


def to_move_int(state: State, move: int | str, seat: int | None) -> int:
    """A move (int or text) → move int, checked for ``seat``; raises BadNotation / IllegalMove."""
    if isinstance(move, str):
        return check_parsed(state, parse_move_text(move), seat)
    if type(move) is not int:
        raise IllegalMove("bad_move", f"Kein Zug: {move!r}", f"Not a move: {move!r}")
    check_seat(state, seat, "weiter" if move == WEITER else "move")
    if move not in legal(state):
        raise IllegalMove("illegal", "Dieser Zug ist nicht erlaubt.", "This move is not allowed.")
    return move


def play(state: State, m: int) -> State:
    """Apply checked move int ``m`` and log it in the history."""
    new = step(state, m)
    seat = state.turn
    drawn: tuple[int, ...] = ()
    rats = -1
    kind_of_move = m & 7
    if kind_of_move in (TAKE, HORSES):
        drawn = tuple(reversed(state.deck[len(new.deck) :]))
    elif kind_of_move == SELL and len(new.rats_won[seat]) > len(state.rats_won[seat]):
        rats = new.rats_won[seat][-1]
    new.history = state.history + ((state.round_no, seat, format_move(m), drawn, rats),)
    return new


def reshuffle(state: State, seed: int) -> State:
    """Shuffle the deck and the Ratsmarken piles (nothing else)."""
    rng = random.Random(f"hanse-undo:{seed}")
    deck = list(state.deck)
    rng.shuffle(deck)
    piles = []
    for pile in state.rats_piles:
        values = list(pile)
        rng.shuffle(values)
        piles.append(tuple(values))
    new = state.copy()
    new.deck = tuple(deck)
    new.rats_piles = (piles[0], piles[1], piles[2])
    return new


def replay(
    first: int, seals_to_win: int, seed: int, moves: list[str], reshuffles: tuple[tuple[int, int], ...] = ()
) -> State:
    """The match after ``moves`` (texts), with reshuffles applied at their plies."""
    state = new_match(first, seals_to_win, seed)
    for ply in range(len(moves) + 1):
        for at, reshuffle_seed in reshuffles:
            if at == ply:
                state = reshuffle(state, reshuffle_seed)
        if ply < len(moves):
            state = play(state, check_parsed(state, parse_move_text(moves[ply])))
    state.reshuffles = tuple(reshuffles)
    return state


def undo_and_reshuffle(state: State, seed: int) -> State:
    """Take back the last move, then reshuffle the unseen cards and Ratsmarken (see module docstring)."""
    if not state.history:
        raise IllegalMove("nothing_to_undo", "Es gibt keinen Zug zum Zurücknehmen.", "There is no move to take back.")
    moves = [entry[2] for entry in state.history[:-1]]
    kept = tuple(r for r in state.reshuffles if r[0] <= len(moves))
    before = replay(state.first, state.seals_to_win, state.seed, moves, kept)
    new = reshuffle(before, seed)
    new.reshuffles = kept + ((len(moves), seed),)
    return new
