"""Which tables get a spectator state built: the rule in services.game.watchers (the
cluster test shows a spectator on another process receiving every change)."""

from __future__ import annotations

from services.game.watchers import Watchers


def test_a_table_gets_its_spectator_state_when_watched_here_or_said_so_by_redis() -> None:
    here = {9}
    watchers = Watchers(None, lambda: [], lambda game_id: game_id in here)  # type: ignore[arg-type]
    assert not watchers.likely(1) and watchers.likely(9)  # own spectators: always
    # Believed unwatched, but the mark is there: the spectator state is still to be sent, once.
    assert watchers.learn(1, True) is True
    assert watchers.likely(1) and watchers.learn(1, True) is False
    # The mark ran out: no more spectator states for it.
    assert watchers.learn(1, False) is False and not watchers.likely(1)
    here.clear()
    assert watchers.learn(9, False) is False and not watchers.likely(9)
