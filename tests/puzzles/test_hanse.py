"""Handelsaufgaben: the stored solutions are what the engine and Stark compute now; stars; progress."""

from __future__ import annotations

import json

import pytest

from services.ai_worker.hanse_puzzles import stark_values
from services.lobby import hanse_puzzles
from shared.games import get_game
from tests.lobby_fixtures import guest
from tests.stack import ServiceProcess

HANSE = get_game("hanse")
PUZZLES = hanse_puzzles.all_puzzles()


def test_twelve_of_each_kind_with_distinct_positions() -> None:
    kinds = [p["kind"] for p in PUZZLES]
    assert kinds.count("punkte") == kinds.count("bester_zug") == hanse_puzzles.PUZZLES_PER_KIND
    assert len({p["id"] for p in PUZZLES}) == len({p["position"] for p in PUZZLES}) == 24
    for data in PUZZLES:
        state = hanse_puzzles.puzzle_state(data)
        assert HANSE.to_move(state) == (data["seat"],)
        # The table of values covers exactly the legal moves.
        assert sorted(r["move"] for r in data["moves"]) == sorted(m.text for m in HANSE.legal_moves(state))


@pytest.mark.parametrize("data", PUZZLES, ids=[p["id"] for p in PUZZLES])
def test_stored_solution_is_what_is_computed_now(data: dict) -> None:
    view = hanse_puzzles.puzzle_view(data)
    if data["kind"] == "punkte":
        table = hanse_puzzles.points_table(view)
        # Points by hand for the best sale: Zinnmarken plus the Ratsmarke's mean.
        best = next(m for m in view["legal_moves"] if m["text"] == table[0]["move"])["effect"]
        mean = {None: 0, 3: 2, 4: 5, 5: 9}[best["ratsmarke"]]
        assert table[0]["value"] == sum(best["zinn"]) + mean
        assert table[0]["value"] - table[1]["value"] >= 1  # one best answer
    else:
        table = stark_values(view)
        assert table[0]["value"] - table[1]["value"] >= hanse_puzzles.CLEAR_GAP
    assert table == data["moves"]


def test_the_solving_seat_sees_only_its_view() -> None:
    for data in PUZZLES:
        view = hanse_puzzles.puzzle_view(data)
        state = hanse_puzzles.puzzle_state(data)
        assert view == HANSE.view(state, data["seat"])
        other = view["players"][1 - data["seat"]]
        assert other["hand"] is None and view["hidden"] is None
        text = json.dumps(view)
        assert "deck\"" not in text.replace("deck_count", "")  # the count, never the cards


def _puzzle(kind: str, values: list[float]) -> dict:
    return {"kind": kind, "moves": [{"move": f"m{i}", "value": v} for i, v in enumerate(values)]}


def test_stars_rule() -> None:
    points = _puzzle("punkte", [13, 11, 10, 4, 0])
    assert [hanse_puzzles.stars(points, f"m{i}") for i in range(5)] == [3, 2, 1, 1, 0]
    best = _puzzle("bester_zug", [9.0, 7.0, 6.1, 3.5, 2.9])
    # 3: Stark's best; 2: gives up less than 3 points; 1: less than 6; 0: more.
    assert [hanse_puzzles.stars(best, f"m{i}") for i in range(5)] == [3, 2, 2, 1, 0]


def test_answers_are_judged_and_progress_is_kept_per_player(lobby: ServiceProcess) -> None:  # noqa: F811
    data = next(p for p in PUZZLES if p["kind"] == "punkte")
    url = f"{lobby.url}/api/handelsaufgaben"
    anna, bert = guest(lobby.url), guest(lobby.url)
    shown = anna.get(f"{url}/{data['id']}", timeout=10).json()
    assert shown["view"] == hanse_puzzles.puzzle_view(data) and shown["stars"] == 0

    # An illegal move: the engine's reason in German, nothing stored.
    refused = anna.post(f"{url}/{data['id']}", json={"move": "verkauf 9 Gold"}, timeout=10)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "puzzle_illegal_move"
    assert refused.json()["error"]["message"]
    assert anna.get(url, timeout=10).json()["stars"] == 0

    worst = data["moves"][-1]["move"]
    weak = anna.post(f"{url}/{data['id']}", json={"move": worst}, timeout=10).json()
    assert weak["stars"] == hanse_puzzles.stars(data, worst) and weak["best"] == data["moves"][:5]
    # The first answer showed the solution: copying it now is judged, but earns no stars.
    copied = anna.post(f"{url}/{data['id']}", json={"move": data["moves"][0]["move"]}, timeout=10).json()
    assert copied["stars"] == 3 and copied["best_stars"] == weak["stars"] == weak["best_stars"] < 3
    again = anna.post(f"{url}/{data['id']}", json={"move": worst}, timeout=10).json()
    assert again["best_stars"] == weak["stars"]

    mine = {p["id"]: p for p in anna.get(url, timeout=10).json()["puzzles"]}
    assert mine[data["id"]] == {"id": data["id"], "kind": "punkte", "stars": weak["stars"], "attempts": 3}
    # Answered right the first time: three stars, and they stay.
    other = next(p for p in PUZZLES if p["kind"] == "punkte" and p["id"] != data["id"])
    first = bert.post(f"{url}/{other['id']}", json={"move": other["moves"][0]["move"]}, timeout=10).json()
    assert first["stars"] == first["best_stars"] == 3
    assert bert.post(f"{url}/{other['id']}", json={"move": other["moves"][-1]["move"]},
                     timeout=10).json()["best_stars"] == 3
    bert_stars = bert.get(url, timeout=10).json()["stars"]
    assert bert_stars == 3
    theirs = bert.get(url, timeout=10).json()
    assert theirs["stars"] == 3 and theirs["max_stars"] == 72
    unknown = bert.get(f"{url}/nichts-99", headers={"X-Lang": "en"}, timeout=10)
    assert unknown.status_code == 404 and "no such" in unknown.json()["error"]["message"]


@pytest.mark.slow
def test_the_batch_job_writes_the_stored_file_again() -> None:
    """The whole batch job (about 40 s): the same matches, the same positions, the same file."""
    from services.ai_worker.hanse_puzzles import make_puzzles

    stored = json.loads(hanse_puzzles.DATA_FILE.read_text(encoding="utf-8"))
    assert make_puzzles(log=lambda _line: None) == stored
