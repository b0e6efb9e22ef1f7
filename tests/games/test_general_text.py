"""Battlegeneral: notation, positions, JSON, records, views, options, bad input, CLI."""

import json
import subprocess
import sys

import pytest

from shared.games import BadNotation, BadOptions, GameError, IllegalMove, get_game
from tests.games.reference_general import position_text

G = get_game("general")
FLAGS = {"j1": "F", "i1": "B", "j2": "B", "a10": "f", "b10": "b", "a9": "b"}


def started(red="Blitzkrieg", blue="On Guard", seed=3):
    st = G.new_game({}, seed)
    st = G.apply(G.apply(st, f"aufstellung {red}", 0), "fertig", 0)
    return G.apply(G.apply(st, f"aufstellung {blue}", 1), "fertig", 1)


def test_options():
    assert G.normalize_options({}) == {"max_quiet_moves": 200}
    assert G.normalize_options({"max_quiet_moves": 50}) == {"max_quiet_moves": 50}
    for bad in ({"map": "x"}, {"max_quiet_moves": 0}, {"max_quiet_moves": "200"}, {"max_quiet_moves": True}):
        with pytest.raises(BadOptions) as err:
            G.normalize_options(bad)
        assert err.value.de and err.value.en and err.value.de != err.value.en


def test_move_text_forms():
    st = G.from_position(position_text({**FLAGS, "e4": "L", "e5": "u", "h8": "u"}))
    for text in ("e4-e5", "e4xe5", "E4xE5", " e4 x e5 ", "e4xe5 (5:4)", "e4-e5 (5:4)"):
        assert G.parse_move(st, text) == G.parse_move(st, "e4-e5")
    after = G.apply(st, "e4-e5")
    assert G.history(after) == ["e4xe5 (5:4)"]
    assert G.move_text(st, G.parse_move(st, "e4-e5")) == "e4-e5"
    assert G.view(after, None)["history"] == ["e4xe5 (5:4)"]


@pytest.mark.parametrize("text", ["", "e4", "e4-", "e4-e11", "k1-k2", "e0-e1", "e4--e5", "hello", "e4-e5 (5:4", "e4-e5 (11:4)"])
def test_garbage_move_text(text):
    st = started()
    before = G.to_json(st)
    with pytest.raises(BadNotation) as err:
        G.apply(st, text)
    assert err.value.de and err.value.en
    assert G.to_json(st) == before


def test_illegal_moves_wrong_seat_and_state_unchanged():
    st = started()
    before = G.to_json(st)
    with pytest.raises(IllegalMove) as err:
        G.apply(st, "a4-a5", 1)
    assert (err.value.code, err.value.de, err.value.en) == ("not_your_turn", "Du bist nicht am Zug", "It is not your turn")
    with pytest.raises(IllegalMove) as err:
        G.apply(st, "a7-a6")
    assert err.value.code == "no_own_piece"
    with pytest.raises(IllegalMove):
        G.apply(st, 404)  # a4→a4 as an int
    with pytest.raises(BadNotation):
        G.apply(st, 123456)
    with pytest.raises(BadNotation):
        G.apply(st, None)
    with pytest.raises(IllegalMove) as err:
        G.apply(st, "fertig", 0)
    assert err.value.code == "setup_over"
    assert G.to_json(st) == before
    assert G.legal_moves(st, 1) == []


def test_moves_after_the_end():
    st = G.from_position(position_text({**FLAGS, "b9": "N", "h9": "u"}))
    st = G.apply(G.apply(G.apply(st, "b9-a9"), "h9-h8"), "a9-a10")
    assert G.outcome(st).reason == "fahne_erobert"
    for text in ("h8-h7", "a10-a9", "garbage-in"):
        with pytest.raises(GameError):
            G.apply(st, text)
    with pytest.raises(IllegalMove):
        G.apply(st, "h8-h7", 1)


def test_position_round_trip_with_marks_and_captures():
    text = position_text({**FLAGS, "e4": "M^*", "e5": "u+", "h8": "a^*"}, "b", 17, 40)
    text = text.replace("M^*", "L+*")  # a Leutnant that moved and was seen
    st = G.from_position(text)
    assert G.to_position(st) == text
    view = G.view(st, 1)
    red_lt = next(p for p in view["pieces"] if p["square"] == "e4")
    assert (red_lt["rank"], red_lt["moved"], red_lt["revealed"]) == ("5", True, True)
    assert len(view["captured"][0]) == 40 - 4 and all(c["rank"] for c in view["captured"][0])
    assert view["quiet_moves"] == 17 and view["ply"] == 40


@pytest.mark.parametrize(
    "text",
    [
        "",
        "rubbish",
        "10/10/10/10/10/10/10/10/10/10 r 0 0",  # lakes not written
        "10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/MM8 r 0 0",  # two marshals
        "10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/10 r 0 0",  # both flags missing
        "10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/B+F8 r 0 0",  # a mine that moved
        "10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/N^F8 r 0 0",  # a miner marked as scout
        "10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/X9 r 0 0",
        "10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/11 r 0 0",
        "10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/9 r 0 0",
        "f9/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 x 0 0",
        "f9/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r a 0",
        "f9/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 0 rb",
        "10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/M9 - 0 0 r",  # ready with one piece
        "10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/m9 - 0 0 -",  # blue piece in red's half during setup
        "10/10/10/10/F1~~2~~2/2~~2~~2/10/10/10/10 - 0 0 -",  # setup piece outside the halves
        "10/10/10/10/2F~~2~~2/2~~2~~2/10/10/10/f9 r 0 0",  # piece on a lake
        "f9/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9/10 r 0 0",
    ],
)
def test_malformed_positions(text):
    with pytest.raises(BadNotation) as err:
        G.from_position(text)
    assert err.value.de and err.value.en


def test_view_rejects_unknown_seat():
    with pytest.raises(IllegalMove):
        G.view(started(), 2)


def test_half_finished_setup_position():
    st = G.from_position("10/10/10/10/2~~2~~2/2~~2~~2/10/10/M9/10 - 0 0 -")
    assert G.to_move(st) == (0, 1) and G.view(st, 0)["setup"]["own"] == {"a2": "10"}


def test_json_round_trip_and_malformed_json():
    st = G.apply(G.apply(started(), "a4-a5"), "a7-a6")
    data = G.to_json(st)
    assert G.to_json(G.from_json(json.loads(json.dumps(data)))) == data
    broken = [
        None,
        [],
        {},
        {**data, "v": 2},
        {**data, "pos": data["pos"][:-1]},
        {**data, "hash": data["hash"] + 1},
        {**data, "ranks": [10] * 80},
        {**data, "pos": [0] * 80},
        {**data, "plies": [["x"]]},
        {**data, "extra": 1},
        {**data, "phase": "dance"},
        {**data, "options": {}},
    ]
    for bad in broken:
        with pytest.raises(BadNotation) as err:
            G.from_json(bad)
        assert err.value.de and err.value.en


def test_views_during_setup_show_only_readiness_of_the_opponent():
    st = G.new_game({}, 1)
    st = G.apply(st, "aufstellung Blitzkrieg", 1)
    st = G.apply(st, "fertig", 1)
    st = G.apply(st, "setze a1 10", 0)
    red = G.view(st, 0)
    assert red["setup"]["own"] == {"a1": "10"} and red["setup"]["ready"] == [False, True]
    assert "fertig" not in {m["text"] for m in red["legal_moves"]}
    blue = G.view(st, 1)
    assert "\"a1\"" not in json.dumps(blue) and blue["legal_moves"] == []
    spectator = G.view(st, None)
    assert spectator["setup"]["own"] is None and "\"a1\"" not in json.dumps(spectator)
    assert len(red["setup"]["standard_setups"]) == 8


def test_views_in_play_and_after_the_end():
    st = G.from_position(position_text({**FLAGS, "e4": "L", "e5": "u", "b9": "N", "h8": "g"}))
    red, blue, spectator = G.view(st, 0), G.view(st, 1), G.view(st, None)
    def rank_at(view, square):
        return next(p["rank"] for p in view["pieces"] if p["square"] == square)
    assert (rank_at(red, "e4"), rank_at(red, "e5"), rank_at(red, "h8")) == ("5", None, None)
    assert (rank_at(blue, "e4"), rank_at(blue, "e5")) == (None, "4")
    assert (rank_at(spectator, "e4"), rank_at(spectator, "e5")) == (None, None)
    assert red["legal_moves"] and blue["legal_moves"] == [] and spectator["legal_moves"] == []
    attack = next(m for m in red["legal_moves"] if m["text"] == "e4-e5")
    assert attack["effect"] == {"from": "e4", "to": "e5", "piece": attack["effect"]["piece"], "path": ["e5"], "attack": True, "target": attack["effect"]["target"]}
    st = G.apply(st, "e4xe5")  # 5 beats 4; both ranks are now public
    assert rank_at(G.view(st, None), "e5") == "5"
    assert G.view(st, 1)["last_move"]["fight"] is True
    st = G.apply(G.apply(G.apply(st, "h8-h7"), "b9-a9"), "h7-h8")
    st = G.apply(st, "a9xa10")
    over = G.view(st, None)
    assert over["phase"] == "over" and over["outcome"]["reason"] == "fahne_erobert"
    assert all(p["rank"] is not None for p in over["pieces"]) and over["start_position"]


def test_record_contains_everything_after_the_end_and_replays():
    st = G.new_game({"max_quiet_moves": 6}, 9)
    st = G.apply(G.apply(st, "aufstellung Corner Fortress gespiegelt", 0), "fertig", 0)
    st = G.apply(G.apply(st, "aufstellung Early Warning", 1), "fertig", 1)
    running = G.record(st, {"red": "anna"})
    assert "[Start" not in running and "[Setup" not in running  # hidden while running
    with pytest.raises(BadNotation):
        G.parse_record(running)
    for text in ("a4-a5", "a7-a6", "a5-a4", "a6-a7", "a4-a5", "a7-a6"):
        st = G.apply(st, text)
    assert G.outcome(st).reason == "zweihundert_zuege"
    record = G.record(st, {"red": "anna", "blue": "bert", "date": "2026-11-30"})
    assert '[Red "anna"]' in record and '[Result "1/2-1/2"]' in record and '[Reason "zweihundert_zuege"]' in record
    assert "aufstellung Corner Fortress gespiegelt" in record and "1. a4-a5 a7-a6" in record
    assert G.to_json(G.parse_record(record)) == G.to_json(st)
    # without the setup moves the start position is enough
    short = "\n".join(line for line in record.splitlines() if not line.startswith("[Setup"))
    assert G.to_position(G.parse_record(short)) == G.to_position(st)


@pytest.mark.parametrize(
    "damage",
    [
        lambda r: "",
        lambda r: r.replace("Battlegeneral", "Chess"),
        lambda r: r.replace("1. a4-a5", "1. a4-a9"),
        lambda r: r.replace("1. a4-a5", "1. zz"),
        lambda r: r.replace('[Result "1/2-1/2"]', '[Result "1-0"]'),
        lambda r: r.replace("max_quiet_moves=6", "max_quiet_moves=x"),
        lambda r: r.replace("[Seed", "[Seed oops"),
        lambda r: r + "4. a4xa5 (10:2)\n",
    ],
)
def test_malformed_records(damage):
    st = G.new_game({"max_quiet_moves": 6}, 9)
    st = G.apply(G.apply(st, "aufstellung Corner Fortress", 0), "fertig", 0)
    st = G.apply(G.apply(st, "aufstellung Early Warning", 1), "fertig", 1)
    for text in ("a4-a5", "a7-a6", "a5-a4", "a6-a7", "a4-a5", "a7-a6"):
        st = G.apply(st, text)
    with pytest.raises(BadNotation) as err:
        G.parse_record(damage(G.record(st, {})))
    assert err.value.de and err.value.en


def test_record_fight_annotation_is_checked():
    st = G.from_position(position_text({**FLAGS, "e4": "L", "e5": "u", "h8": "u"}))
    st = G.apply(st, "e4xe5")
    st = G.apply(st, "h8-h7")
    record = G.record(st, {})
    assert "e4xe5 (5:4)" in record
    with pytest.raises(BadNotation):  # the game is still running: no start position
        G.parse_record(record)


def test_cli_perft_and_show():
    position = G.to_position(started("Blitzkrieg", "Blitzkrieg"))
    out = subprocess.run(
        [sys.executable, "-m", "shared.games", "perft", "general", "--position", position, "--depth", "3"],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert out.stdout.split("\n")[:3] == ["1 8", "2 63", "3 707"]
    shown = subprocess.run(
        [sys.executable, "-m", "shared.games", "show", "general", "--position", position],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert "~~" in shown.stdout and " 1  4  4  5  2  3  6  B  F  B  2" in shown.stdout
