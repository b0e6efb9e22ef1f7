"""Every strength of every game with a computer player plays complete games through real Celery workers.

Short budgets (100 ms a move) and short game options keep the file within a few
minutes; the long variant (full options, 300 ms) is ``slow``.  Every move is applied
by the engine (an illegal answer fails), and every answer must reach the stream by its
deadline + ``DELIVERY_MARGIN``.
"""

from __future__ import annotations

import pytest

from services.ai_worker.players import PLAYERS
from shared.ai_protocol import DELIVERY_MARGIN
from tests.ai.remote_match import MatchDriver

SHORT_OPTIONS = {
    "hexagon": {},
    "bullet": {"win_target": 4, "move_limit": 100},
    "general": {"max_quiet_moves": 20},  # ends a shuffling game after 20 quiet moves
    "hanse": {"seals_to_win": 1},
}
PAIRS = [("leicht", "mittel"), ("mittel", "stark"), ("stark", "leicht")]
GAMES = [name for name in ("hexagon", "bullet", "general", "hanse") if name in PLAYERS]


def _check(result, budget: float) -> None:  # noqa: ANN001
    assert result.outcome is not None
    player_moves = [s for s in result.move_seats if s is not None]
    assert len(result.timings) == len(player_moves) > 0
    worst = max(t.late for t in result.timings)
    assert worst <= DELIVERY_MARGIN, f"an answer came {worst:.3f} s after its deadline (budget {budget})"


@pytest.mark.serial  # every answer within DELIVERY_MARGIN of its deadline: timed, so alone
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("strengths", PAIRS, ids=["-".join(p) for p in PAIRS])
def test_complete_game_through_workers(game: str, strengths: tuple[str, str], driver: MatchDriver,
                                       interactive_worker) -> None:  # noqa: ANN001
    result = driver.play(game, strengths, budget=0.1, seed=11, options=SHORT_OPTIONS[game])
    _check(result, 0.1)
    assert result.rerequests == 0  # a live worker answered everything itself


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("strengths", PAIRS, ids=["-".join(p) for p in PAIRS])
def test_complete_game_full_options(game: str, strengths: tuple[str, str], driver: MatchDriver,
                                    interactive_worker) -> None:  # noqa: ANN001
    for seed in (1, 2):
        _check(driver.play(game, strengths, budget=0.3, seed=seed), 0.3)
