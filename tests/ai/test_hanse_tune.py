"""The Battlehanse weight fit: positions carry their round's real final margin, the fit
never predicts worse than where it started, and a duel player plays the fitted file."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

from bench import hanse_tune
from bench.hanse_duel import Player
from services.ai_worker.players.hanse_jaipur import STARK_WEIGHTS
from shared.games.hanse import GAME, serial


def test_positions_fit_and_a_player_with_the_fitted_weights(tmp_path: Path) -> None:
    out = tmp_path / "positions.jsonl"
    written = hanse_tune.positions(matches=2, deals=2, shard="0/1", out=out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert written == len(rows) > 50
    assert {row["match"] for row in rows} == {0, 1}
    # Every position of a round carries that round's margin: replaying a stored position
    # is possible and the margin is one of the rounds' real point differences.
    margins_by_match: dict[int, set[int]] = {}
    for row in rows:
        serial.from_json(row["state"])
        margins_by_match.setdefault(row["match"], set()).add(row["margin"])
    assert all(1 <= len(margins) <= 3 for margins in margins_by_match.values())

    fit_rows, held_out = hanse_tune.read_positions([out])
    assert fit_rows and held_out and len(fit_rows) + len(held_out) == len(rows)
    tuned, log = hanse_tune.fit(fit_rows, STARK_WEIGHTS, rounds=1)
    assert hanse_tune.error(tuned, fit_rows) <= hanse_tune.error(STARK_WEIGHTS, fit_rows)
    assert log[0]["error"] == round(hanse_tune.error(STARK_WEIGHTS, fit_rows), 4)

    weights_file = tmp_path / "weights.json"
    weights_file.write_text(json.dumps({"weights": dataclasses.asdict(tuned)}))
    player = Player(f"stark:2#{weights_file}")
    assert dataclasses.asdict(player.extra["weights"]) == dataclasses.asdict(tuned)
    state = GAME.new_game({"first": 0, "seals_to_win": 2}, 7)
    view = GAME.view(state, state.turn)
    text = player.choose(view, random.Random(1), {})
    assert text in {m["text"] for m in view["legal_moves"]}
