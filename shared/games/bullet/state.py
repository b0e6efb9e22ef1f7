"""The game state and the end rules.

:class:`BulletState` is immutable.  Besides the marbles it carries what the end rules
and the records need: the options, the seed (Battlebullet draws nothing at random,
but the seed is kept so that every game replays from ``(options, seed, moves)``), the
start position when the game did not start from a layout, the moves played (as move
ids, see :mod:`.movegen`) and the positions seen since the last push-out.

End rules, checked after every move in this order (docs/rules.md, Battlebullet "End"):

1. ``siegziel``: the mover has pushed out ``win_target`` marbles and wins;
2. ``wiederholung``: the same marbles with the same side to move for the third
   time: draw.  A push-out can never be undone, so only positions since the last
   push-out are kept;
3. ``zuglimit``: with a move limit, once both sides have made ``move_limit`` moves
   (plies ≥ 2 × limit) the side that pushed out more wins, equal is a draw;
4. ``keine_zuege``: the side to move has no legal move and loses.

A move is checked on its own in O(1) (:func:`.movegen.is_legal`), and the no-move rule
only counts moves, so playing a move never generates the full move list.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from shared.games.base import Outcome
from shared.games.bullet.movegen import ENEMY_XOR, OWN_XOR, PUSHES_OUT, has_move


class BulletReason(StrEnum):
    """How the rules end a game of Battlebullet (rules 1–4 above)."""

    WIN_TARGET = "siegziel"
    REPETITION = "wiederholung"
    MOVE_LIMIT = "zuglimit"
    NO_MOVE = "keine_zuege"


SEAT_NAMES = (("Weiß", "White"), ("Schwarz", "Black"))

Key = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class BulletState:
    layout: str
    win_target: int
    move_limit: int | None
    seed: int
    start: str | None  # start position text, None when the game began from ``layout``
    white: int
    black: int
    side: int
    out: tuple[int, int]  # marbles pushed out by Weiß, by Schwarz
    ply: int  # plies played since the start of the game (counts toward the move limit)
    moves: tuple[int, ...]  # move ids played since ``start``
    seen: tuple[Key, ...]  # (white, black, side) since the last push-out, current last
    outcome: Outcome | None

    @property
    def key(self) -> Key:
        return (self.white, self.black, self.side)

    @property
    def options(self) -> dict:
        return {"layout": self.layout, "win_target": self.win_target, "move_limit": self.move_limit}


def _score(out: tuple[int, int]) -> tuple[float, float]:
    return (float(out[0]), float(out[1]))


def _ending(state: BulletState, last_mover: int | None) -> Outcome | None:
    """Rules 1–3 of the module docstring (everything but the no-move rule)."""
    out = state.out
    if last_mover is not None and out[last_mover] >= state.win_target:
        winners = [last_mover]
    else:
        winners = [seat for seat in (0, 1) if out[seat] >= state.win_target]
    if winners:
        seat = winners[0]
        return Outcome(
            seat,
            BulletReason.WIN_TARGET,
            f"Siegziel erreicht: {SEAT_NAMES[seat][0]} hat {out[seat]} Kugeln hinausgeschoben",
            f"Win target reached: {SEAT_NAMES[seat][1]} pushed out {out[seat]} marbles",
            _score(out),
        )
    if state.seen.count(state.key) >= 3:
        return Outcome(
            None,
            BulletReason.REPETITION,
            "Remis durch dreifache Stellungswiederholung",
            "Draw by threefold repetition",
            _score(out),
        )
    if state.move_limit is not None and state.ply >= 2 * state.move_limit:
        if out[0] == out[1]:
            return Outcome(
                None,
                BulletReason.MOVE_LIMIT,
                "Zuglimit erreicht, gleich viele Kugeln hinausgeschoben: Remis",
                "Move limit reached, equal marbles pushed out: draw",
                _score(out),
            )
        seat = 0 if out[0] > out[1] else 1
        return Outcome(
            seat,
            BulletReason.MOVE_LIMIT,
            f"Zuglimit erreicht: {SEAT_NAMES[seat][0]} hat mehr Kugeln hinausgeschoben",
            f"Move limit reached: {SEAT_NAMES[seat][1]} pushed out more marbles",
            _score(out),
        )
    return None


def settle(state: BulletState, last_mover: int | None) -> BulletState:
    """``state`` with its outcome filled in (``last_mover``: who just moved, None at a start)."""
    outcome = _ending(state, last_mover)
    if outcome is None:
        own, enemy = (state.white, state.black) if state.side == 0 else (state.black, state.white)
        if not has_move(own, enemy):
            seat = 1 - state.side
            outcome = Outcome(
                seat,
                BulletReason.NO_MOVE,
                f"{SEAT_NAMES[state.side][0]} hat keinen Zug mehr und verliert",
                f"{SEAT_NAMES[state.side][1]} has no legal move and loses",
                _score(state.out),
            )
    # still under construction: nobody else holds a reference yet
    object.__setattr__(state, "outcome", outcome)
    return state


def play(state: BulletState, move: int) -> BulletState:
    """The state after the legal move id ``move`` (the caller checked legality)."""
    own_xor, enemy_xor, pushed_out = OWN_XOR[move], ENEMY_XOR[move], PUSHES_OUT[move]
    mover = state.side
    if mover == 0:
        white, black, out = state.white ^ own_xor, state.black ^ enemy_xor, (state.out[0] + pushed_out, state.out[1])
    else:
        white, black, out = state.white ^ enemy_xor, state.black ^ own_xor, (state.out[0], state.out[1] + pushed_out)
    key = (white, black, 1 - mover)
    after = BulletState(
        state.layout, state.win_target, state.move_limit, state.seed, state.start,
        white, black, 1 - mover, out, state.ply + 1, state.moves + (move,),
        (key,) if pushed_out else state.seen + (key,), None,
    )  # fmt: skip
    return settle(after, mover)
