"""bench.general_ladder counts the failure modes it reports from the game record."""

from __future__ import annotations

from bench.general_ladder import side_report, summary
from shared.games import get_game

GAME = get_game("general")


def test_side_report_counts_mine_strikes_and_the_spion() -> None:
    # Red's General strikes the Mine on e9, Blue's Spion strikes Red's Feldmarschall.
    state = GAME.from_position("f9/b3b5/4G5/1sM7/2~~2~~2/2~~2~~2/10/10/10/N8F r 0 0")
    for move in ("e8xe9", "b7xc7", "a1-a2"):
        state = GAME.apply(state, move)
    red, blue = side_report(state, 0), side_report(state, 1)
    assert red["mine_strikes"] == 1 and red["high_mine_strikes"] == 1
    assert red["marshal_by_spy"] == 1 and blue["marshal_by_spy"] == 0
    assert red["struck_won_traded_lost"] == [0, 0, 1] and red["met_won_traded_lost"] == [0, 0, 1]
    assert blue["struck_won_traded_lost"] == [1, 0, 0]
    assert red["movable_left"] == 1  # the Mineur


def test_summary_scores_the_new_side_with_a_wilson_interval() -> None:
    side = {"lost": 20, "movable_left": 5, "mine_strikes": 1, "high_mine_strikes": 0, "marshal_by_spy": 0}
    rows = [
        {"opponent": "previous", "samples": 20, "index": i, "new_seat": i % 2, "winner": winner,
         "reason": "fahne_erobert", "plies": 300, "sides": [side, side]}
        for i, winner in enumerate([0, 0, 0, 0])  # the new side (seat i % 2) wins games 0 and 2
    ]
    result = summary(rows)
    assert result["wins_draws_losses"] == [2, 0, 2] and result["new_score_share"] == 0.5
    low, high = result["wilson_95"]
    assert low < 0.5 < high
    assert result["endings"] == {"new:fahne_erobert": 2, "opponent:fahne_erobert": 2}
