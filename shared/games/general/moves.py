"""Play-phase move generation, the repetition rules, apply and the end of the game.

This is the hot path used by perft and the computer opponents; it works on internal
move ints ``from_square * 100 + to_square`` (squares as in :mod:`.board`).

Movement: one square orthogonally onto an empty square or an enemy piece, never into
a lake (the tables have no lake squares) or onto an own piece; Minen and Fahne never
move; an Aufklärer runs any number of empty squares in a line and may end the run by
striking the first enemy piece on that line.  Perft counts one move per legal
(from, to).

Repetition, our exact reading of the ISF rules (docs/rules.md, Battlegeneral "Repetition"):

* **Two-squares rule.** For each seat we keep its last move (piece, from, to) and
  ``count``: how many of that seat's moves in a row moved that same piece back and
  forth between exactly those two squares (any move of another piece, or to a third
  square, starts a new count at 1).  A move that would make the count 4 is illegal:
  three moves between two squares are allowed, the fourth is not, whatever the
  opponent does in between, attacks included.  A scout is judged by the two end
  squares of its runs.
* **More-squares rule (continuous chase).** The opponent's last move was a *flight*
  when it was a quiet move of a piece Y that started next to our piece X that moved
  last for us.  Our quiet move of that X which ends next to Y's new square is a
  *chasing move*.  The chase is the longest run, back in time, of our quiet X moves
  where each was answered by such a flight and (except the first) ended next to the
  square the previous fleeing piece went to.  A chasing move is illegal when the
  position it creates (pieces on squares, side to move) already occurred after one of
  our moves of that chase — except a move of X straight back to the square X just
  came from, which only the two-squares rule limits.  Attacks are never chasing moves.
  A position given as text starts with no history.

End, checked after every move in this order: the Fahne captured (``fahne_erobert``,
the mover wins); the side now to move has no legal move — it loses (``keine_zuege``),
unless the mover cannot move a piece either (ignoring repetition): draw
(``beide_blockiert``); ``max_quiet_moves`` (200) moves in a row without a fight: draw
(``zweihundert_zuege``).
"""

from __future__ import annotations

from enum import StrEnum

from shared.games.base import Outcome
from shared.games.general.board import NEIGHBOUR_SETS, NEIGHBOURS, RAYS
from shared.games.general.pieces import ATTACKER_WINS, BOTH_LOSE, FLAG, MOVABLE_MAX, SCOUT, fight
from shared.games.general.state import BLUE_TO_MOVE_KEY, MOVED, PLAY, REVEALED, SCOUTED, ZOBRIST, State

# piece id + 1 on the board: Red 1..40, Blue 41..80
_ENEMY_LOW = (41, 1)
_ENEMY_HIGH = (80, 40)


def _pseudo(st: State, side: int):
    """Every physically possible move of ``side`` (no repetition check), lazily."""
    board, pos, ranks = st.board, st.pos, st.ranks
    lo, hi = _ENEMY_LOW[side], _ENEMY_HIGH[side]
    for piece in range(side * 40, side * 40 + 40):
        frm = pos[piece]
        if frm < 0:
            continue
        rank = ranks[piece]
        if rank > MOVABLE_MAX:
            continue
        base = frm * 100
        if rank == SCOUT:
            for ray in RAYS[frm]:
                for to in ray:
                    cell = board[to]
                    if cell == 0:
                        yield base + to
                        continue
                    if lo <= cell <= hi:
                        yield base + to
                    break
        else:
            for to in NEIGHBOURS[frm]:
                cell = board[to]
                if cell == 0 or lo <= cell <= hi:
                    yield base + to


def pseudo_moves(st: State, side: int) -> list[int]:
    """Every physically possible move of ``side``, ignoring the repetition rules."""
    board, pos, ranks = st.board, st.pos, st.ranks
    lo, hi = _ENEMY_LOW[side], _ENEMY_HIGH[side]
    out: list[int] = []
    append = out.append
    for piece in range(side * 40, side * 40 + 40):
        frm = pos[piece]
        if frm < 0:
            continue
        rank = ranks[piece]
        if rank > MOVABLE_MAX:
            continue
        base = frm * 100
        if rank == SCOUT:
            for ray in RAYS[frm]:
                for to in ray:
                    cell = board[to]
                    if cell == 0:
                        append(base + to)
                        continue
                    if lo <= cell <= hi:
                        append(base + to)
                    break
        else:
            for to in NEIGHBOURS[frm]:
                cell = board[to]
                if cell == 0 or lo <= cell <= hi:
                    append(base + to)
    return out


def two_squares_ban(st: State) -> int:
    """The one move the two-squares rule forbids the side to move now, or -1."""
    piece, frm, to, count = st.streaks[st.to_move]
    if count >= 3 and st.pos[piece] == to:
        return to * 100 + frm
    return -1


def chase(st: State) -> tuple[int, int, int, int, set[int]] | None:
    """(chaser's square, fled piece's new square, square the chaser came from, chaser id,
    position keys after our moves of the chase) when the side to move could continue a
    chase, else None."""
    flight = st.plies
    if flight is None or flight[4]:
        return None
    mine = flight[6]
    if mine is None or mine[4]:
        return None
    chaser, chaser_sq = mine[1], mine[3]
    if st.pos[chaser] != chaser_sq or flight[2] not in NEIGHBOUR_SETS[chaser_sq]:
        return None
    positions = {mine[5]}
    newer = mine
    while True:
        older_flight = newer[6]
        if older_flight is None or older_flight[4]:
            break
        older = older_flight[6]
        if older is None or older[1] != chaser or older[4]:
            break
        if older_flight[2] not in NEIGHBOUR_SETS[older[3]] or newer[3] not in NEIGHBOUR_SETS[older_flight[3]]:
            break
        positions.add(older[5])
        newer = older
    return chaser_sq, flight[3], mine[2], chaser, positions


def chase_forbids(st: State, info: tuple[int, int, int, int, set[int]], move: int) -> bool:
    """Whether the more-squares rule forbids ``move`` (given :func:`chase` info)."""
    chaser_sq, fled_to, came_from, chaser, positions = info
    frm, to = divmod(move, 100)
    if frm != chaser_sq or to == came_from or st.board[to] != 0 or to not in NEIGHBOUR_SETS[fled_to]:
        return False
    key = st.hash ^ ZOBRIST[chaser][frm] ^ ZOBRIST[chaser][to] ^ BLUE_TO_MOVE_KEY
    return key in positions


def fast_moves(st: State) -> list[int]:
    """The legal move ints of the side to move ([] in setup or when the game is over)."""
    if st.outcome is not None or st.phase != PLAY:
        return []
    moves = pseudo_moves(st, st.to_move)
    banned = two_squares_ban(st)
    info = chase(st)
    if banned < 0 and info is None:
        return moves
    if info is None:
        return [m for m in moves if m != banned]
    return [m for m in moves if m != banned and not chase_forbids(st, info, m)]


def has_legal_move(st: State) -> bool:
    """Whether the side to move has a legal move (stops at the first one)."""
    banned = -1
    info = None
    checked = False
    for move in _pseudo(st, st.to_move):
        if not checked:
            banned, info, checked = two_squares_ban(st), chase(st), True
        if move != banned and (info is None or not chase_forbids(st, info, move)):
            return True
    return False


def can_move_at_all(st: State, side: int) -> bool:
    """Whether ``side`` has any physically possible move (repetition ignored)."""
    return next(_pseudo(st, side), None) is not None


def fast_apply(st: State, move: int) -> State:
    """Play a legal move int and return the new state (the argument is not changed)."""
    frm, to = divmod(move, 100)
    side = st.to_move
    board = st.board[:]
    pos = st.pos[:]
    flags = st.flags[:]
    piece = board[frm] - 1
    key = st.hash ^ BLUE_TO_MOVE_KEY ^ ZOBRIST[piece][frm]
    distance = to - frm if to > frm else frm - to
    flags[piece] |= MOVED if distance == 1 or distance == 10 else MOVED | SCOUTED
    target = board[to]
    board[frm] = 0
    fight_code = 0
    captured_flag = False
    if target == 0:
        board[to] = piece + 1
        pos[piece] = to
        key ^= ZOBRIST[piece][to]
        quiet = st.quiet + 1
    else:
        enemy = target - 1
        attacker_rank, defender_rank = st.ranks[piece], st.ranks[enemy]
        fight_code = attacker_rank * 16 + defender_rank
        flags[piece] |= REVEALED
        flags[enemy] |= REVEALED
        result = fight(attacker_rank, defender_rank)
        if result == ATTACKER_WINS:
            board[to] = piece + 1
            pos[piece] = to
            pos[enemy] = -1
            key ^= ZOBRIST[piece][to] ^ ZOBRIST[enemy][to]
            captured_flag = defender_rank == FLAG
        elif result == BOTH_LOSE:
            board[to] = 0
            pos[piece] = -1
            pos[enemy] = -1
            key ^= ZOBRIST[enemy][to]
        else:
            pos[piece] = -1
        quiet = 0
    last_piece, last_from, last_to, count = st.streaks[side]
    count = count + 1 if last_piece == piece and last_from == to and last_to == frm else 1
    streak = (piece, frm, to, count)

    new = State.__new__(State)
    new.options = st.options
    new.seed = st.seed
    new.phase = PLAY
    new.setups = st.setups
    new.ready = st.ready
    new.setup_log = st.setup_log
    new.board = board
    new.pos = pos
    new.ranks = st.ranks
    new.flags = flags
    new.to_move = 1 - side
    new.quiet = quiet
    new.ply = st.ply + 1
    new.hash = key
    new.plies = (side, piece, frm, to, fight_code, key, st.plies)
    new.streaks = (streak, st.streaks[1]) if side == 0 else (st.streaks[0], streak)
    new.start = st.start
    new.outcome = None
    new.outcome = end_of_game(new, captured_flag)
    return new


class GeneralReason(StrEnum):
    """How the rules end a game of Battlegeneral."""

    FLAG_CAPTURED = "fahne_erobert"
    NO_MOVE = "keine_zuege"
    BOTH_BLOCKED = "beide_blockiert"
    QUIET_MOVES = "zweihundert_zuege"  # the quiet-move limit (200 by default) without a fight


def end_of_game(st: State, flag_captured: bool = False) -> Outcome | None:
    """The outcome of a play-phase state whose last move (if any) was by the other seat."""
    mover = 1 - st.to_move
    if flag_captured:
        return flag_outcome(mover)
    if not has_legal_move(st):
        if not can_move_at_all(st, mover):
            return Outcome(None, GeneralReason.BOTH_BLOCKED, "Beide Seiten können nicht mehr ziehen", "Neither side can move")
        return Outcome(mover, GeneralReason.NO_MOVE, "Keine legalen Züge mehr", "No legal moves left")
    limit = st.options["max_quiet_moves"]
    if st.quiet >= limit:
        return Outcome(None, GeneralReason.QUIET_MOVES, f"{limit} Züge ohne Kampf", f"{limit} moves without a fight")
    return None


def flag_outcome(winner: int) -> Outcome:
    return Outcome(winner, GeneralReason.FLAG_CAPTURED, "Fahne erobert", "Flag captured")


def perft(st: State, depth: int) -> int:
    """Leaf count: legal moves at the last level are counted, not played."""
    if depth <= 0:
        return 1
    moves = fast_moves(st)
    if depth == 1:
        return len(moves)
    return sum(perft(fast_apply(st, move), depth - 1) for move in moves)
