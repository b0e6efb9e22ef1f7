"""Battlebullet (Abalone): push six (or four) enemy marbles off a 61-cell hexagon.

``GAME`` is the engine behind :class:`shared.games.base.Game`.  Modules, one idea each:

* :mod:`.board`     cells, coordinates, directions, bitboard layout, start layouts;
* :mod:`.movegen`   the move table and bitboard move generation/counting (hot path);
* :mod:`.notation`  move text (``A1A3-A2A4``: marbles, then where they land);
* :mod:`.legality`  why a move is refused (German/English reasons);
* :mod:`.position`  position text (``bbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww w 0 0 0``);
* :mod:`.state`     the immutable state and the end rules;
* :mod:`.effects`   the JSON effect of a move for client previews;
* :mod:`.view`      what a seat sees (incl. *Gefahr an*) and the text board;
* :mod:`.record`    the downloadable game record;
* :mod:`.options`   layout / win_target / move_limit.

Fast API for the computer opponents (no checks, no history, no end rules)::

    fs = GAME.fast_state(state)      # (white, black, side, out_white, out_black), plain ints
    ids = GAME.fast_moves(fs)        # legal move ids (ints) of the side to move
    fs2 = GAME.fast_apply(fs, ids[0])  # new tuple; two XORs
    n = GAME.fast_count(fs)          # number of legal moves, without building the list
    GAME.move_text(state, ids[0])    # id → notation (position independent)

Move ids are indices into :mod:`.movegen`'s table (``GROUP``, ``DIRECTION``, ``PUSHED``,
``PUSHES_OUT`` describe each).  On bitboards (``own``, ``enemy``) :mod:`.movegen` also
offers ``moves_for``, ``count_for``, ``is_legal(own, enemy, id)`` (one move in O(1)),
``has_move`` and ``pushable_out(pusher, victim)`` (the *Gefahr an* set as a bitboard).  A fast state does not
know the win target, the move limit or repetitions; a search checks
``fs[3] >= target`` / ``fs[4] >= target`` itself.
"""

from shared.games.bullet.game import BulletGame

GAME = BulletGame()

__all__ = ["GAME", "BulletGame"]
