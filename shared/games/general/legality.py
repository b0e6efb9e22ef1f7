"""Why a play move is illegal: the reason, in German and English, for a player.

The hot path (:mod:`.moves`) only lists legal moves; this module explains a rejected
one, checking in the order a player would ask: is it my piece, can it move, where
may it go, and only then the repetition rules.
"""

from __future__ import annotations

from shared.games.base import IllegalMove
from shared.games.general.board import LAKES, square_name
from shared.games.general.moves import chase, chase_forbids, two_squares_ban
from shared.games.general.pieces import MOVABLE_MAX, SCOUT
from shared.games.general.state import State


def _illegal(code: str, de: str, en: str) -> IllegalMove:
    return IllegalMove(code, de, en)


def check_play_move(st: State, frm: int, to: int) -> int:
    """The move int for ``frm``→``to`` by the side to move, or :class:`IllegalMove`."""
    side = st.to_move
    cell = st.board[frm]
    if cell == 0 or (cell - 1) // 40 != side:
        raise _illegal(
            "no_own_piece",
            f"Auf {square_name(frm)} steht keine eigene Figur",
            f"There is no piece of yours on {square_name(frm)}",
        )
    piece = cell - 1
    rank = st.ranks[piece]
    if rank > MOVABLE_MAX:
        raise _illegal("immovable", "Minen und die Fahne ziehen nie", "Mines and the flag never move")
    if to in LAKES:
        raise _illegal("lake", "Ein See darf nicht betreten werden", "A lake cannot be entered")
    same_file, same_rank = frm % 10 == to % 10, frm // 10 == to // 10
    if frm == to or not (same_file or same_rank):
        raise _illegal(
            "not_straight",
            "Figuren ziehen waagerecht oder senkrecht, nie diagonal",
            "Pieces move horizontally or vertically, never diagonally",
        )
    target = st.board[to]
    if target and (target - 1) // 40 == side:
        raise _illegal("own_piece", "Das Feld ist von einer eigenen Figur besetzt", "The square holds one of your own pieces")
    step = 1 if same_rank else 10
    if to < frm:
        step = -step
    if to != frm + step:
        if rank != SCOUT:
            raise _illegal("too_far", "Nur der Aufklärer zieht mehr als ein Feld", "Only the scout moves more than one square")
        for square in range(frm + step, to, step):
            if square in LAKES or st.board[square]:
                raise _illegal(
                    "blocked",
                    "Der Aufklärer darf keine Figur und keinen See überspringen",
                    "The scout cannot jump over a piece or a lake",
                )
    move = frm * 100 + to
    if move == two_squares_ban(st):
        raise _illegal(
            "two_squares",
            "Zwei-Felder-Regel: Diese Figur darf nicht ein viertes Mal in Folge zwischen denselben zwei Feldern ziehen",
            "Two-squares rule: this piece may not move between the same two squares a fourth time in a row",
        )
    info = chase(st)
    if info is not None and chase_forbids(st, info, move):
        raise _illegal(
            "more_squares",
            "Mehr-Felder-Regel: Diese Verfolgung würde eine Stellung wiederholen, die es in ihr schon gab",
            "More-squares rule: this chase would repeat a position that already occurred during it",
        )
    return move
