"""Battlehexagon (Hexxagon on 61 hex cells): the rules engine, ``GAME``.

Modules, one idea each:

* :mod:`.board` — cells, names, axial coordinates, neighbour/jump bitboards;
* :mod:`.maps` — Klassisch, Dreiloch, Krater, Burggraben, Säulen (diagrams) and Zufall;
* :mod:`.moves` — move ints and move generation on bitboards (plain Python ints);
* :mod:`.state` — the immutable :class:`~.state.State` and :func:`~.state.advance`;
* :mod:`.ending` — end of the game, outcome, legal moves;
* :mod:`.play` — checking a move with its reason, move effects;
* :mod:`.notation` — move text and the position format;
* :mod:`.options` — options and the setup of a game;
* :mod:`.record` — the downloadable record; :mod:`.view` — the view and *Hilfe an*;
* :mod:`.picture` — the board as text; :mod:`.kernels` — numba perft and search kernels;
* :mod:`.game` — :class:`~.game.HexagonGame` behind the common interface.

Fast internal API for the computer opponents (on ``GAME``):

* ``GAME.fast_moves(state) -> list[int]`` — legal move ints (clone ``63*64+to``, jump
  ``from*64+to``, pass ``4095``), ``[]`` when over;
* ``GAME.fast_apply(state, move) -> State`` — no re-check, keeps clock/repetition/history;
* ``GAME.fast_board(state) -> (me, opp, empty, side)`` bitboards (bit i = cell i);
* ``GAME.outcome(state)`` — cached on the state, cheap to ask repeatedly.

Inside numba code: :func:`.kernels.gen_moves` and :func:`.kernels.apply_move` on int64
bitboards with ``kernels.NEIGHBOURS_NP`` / ``kernels.JUMPS_NP`` (draw rules not
included there).
"""

from shared.games.hexagon.game import GAME, HexagonGame

__all__ = ["GAME", "HexagonGame"]
