"""Battlegeneral (Stratego with 40 hidden pieces) as a pure rules engine.

``GAME`` implements :class:`shared.games.base.Game`.  Modules, one idea each:
:mod:`.board` (squares, lakes, tables), :mod:`.pieces` (ranks, fight rule),
:mod:`.setups` (the 25 presets, Standard-Aufstellungen, the computer's 20),
:mod:`.state` (the state object), :mod:`.setup_phase` (setup moves),
:mod:`.moves` (move generation, repetition rules, apply, end — the hot path),
:mod:`.legality` (why a move is illegal), :mod:`.notation` (move and position
text), :mod:`.creation` (new game, start of play, position text → state),
:mod:`.view` (what a seat may see), :mod:`.json_form`, :mod:`.record`.

Fast internal API for the computer opponents (no text, no checks):

* ``moves.fast_moves(state) -> list[int]`` — legal moves of the side to move,
  as ``from_square * 100 + to_square`` (squares ``0..99``, a1 = 0, j10 = 99).
* ``moves.fast_apply(state, move) -> State`` — the new state, outcome included
  (``state.outcome``).  Only for moves from ``fast_moves``.
* ``moves.perft(state, depth)``.
* State fields the AI may read (never write): ``board`` (100 cells, piece id + 1
  or 0), ``pos`` (square per piece id, -1 captured), ``ranks`` (rank code per id:
  1 Spion … 10 Feldmarschall, 11 Mine, 12 Fahne), ``flags`` (``state.MOVED``,
  ``SCOUTED``, ``REVEALED`` bits), ``to_move``, ``quiet``.  Red ids are 0–39, Blue
  40–79.
* ``creation.begin_play(state, (red, blue), square_flags, to_move, quiet, ply)``
  builds a play state from two {square: rank} armies: this is how a determinization
  (a guess at the hidden enemy ranks) becomes a searchable state.
* ``setups.computer_setups()``, ``setups.preset_squares(name, seat, mirrored)``.
"""

from shared.games.general.engine import GeneralGame

GAME = GeneralGame()

__all__ = ["GAME", "GeneralGame"]
