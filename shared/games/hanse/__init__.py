"""Battlehanse (Jaipur-style card trading in a Hanseatic Kontor): the rules engine.

``GAME`` implements :class:`shared.games.base.Game`.  Modules, one idea each:
:mod:`.cards` (kinds, counts, token values), :mod:`.state` (the immutable state and
the deal), :mod:`.moves` (move ints, generation, fast apply), :mod:`.scoring`
(Rundentafel), :mod:`.checks` (why a move is illegal), :mod:`.notation` (move text),
:mod:`.effects` (move previews), :mod:`.view` (what a seat may see),
:mod:`.determinize` (sampling hidden cards for the AI), :mod:`.position`, :mod:`.serial`,
:mod:`.record`, :mod:`.replay` (history, undo), :mod:`.selection` (Handelskasten).

Fast API for the computer opponents (no checks, no history, no text)::

    from shared.games.hanse import fast_moves, fast_apply, state_from_view
    moves = fast_moves(state)        # tuple of move ints, counted as docs/rules.md counts them
    state = fast_apply(state, m)     # new State; the input is never changed
    sampled = state_from_view(view, random.Random(7))   # determinization

Read a State directly: ``state.turn``, ``state.phase`` (0 play, 1 pause, 2 over),
``state.market`` / ``state.hands[seat]`` (7 counts, index 6 = Packpferde/stable),
``state.known[seat]``, ``state.zinn_left``, ``state.zinn_won``, ``state.rats_won``,
``state.seals``.  Move ints are decoded by :mod:`.moves` (``m & 7`` is the type) and
printed by :func:`.notation.format_move`.  During the pause the only move is ``WEITER``.
"""

from shared.games.hanse.determinize import state_from_view
from shared.games.hanse.engine import HanseGame, perft
from shared.games.hanse.moves import legal as fast_moves
from shared.games.hanse.moves import step as fast_apply
from shared.games.hanse.selection import describe_selection, sale_value

GAME = HanseGame()

__all__ = [
    "GAME",
    "HanseGame",
    "describe_selection",
    "fast_apply",
    "fast_moves",
    "perft",
    "sale_value",
    "state_from_view",
]
