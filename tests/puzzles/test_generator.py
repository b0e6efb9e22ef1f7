"""The Aufgaben generator: deterministic for a seed, rejects too easy / unclear / duplicate
positions, extends forced lines, derives themes on hand-built positions, and judges
Battlegeneral from the solver's knowledge only."""

from __future__ import annotations

from typing import Any

import pytest

from services.ai_worker import puzzles as generator
from shared.games import get_game
from shared.games.bullet.board import cell_index
from shared.games.bullet.position import format_position
from shared.games.general.pieces import FLAG, MINE, SCOUT
from shared.games.general.state import REVEALED
from shared.games.hexagon.board import CENTRE, NEIGHBOURS, bits, hex_distance
from shared.games.hexagon.notation import position_text
from shared.puzzles import catalog, finder, general_sure, themes

HEXAGON, BULLET, GENERAL = get_game("hexagon"), get_game("bullet"), get_game("general")


# ---- determinism -------------------------------------------------------------------------------
@pytest.mark.parametrize("game,count", [("hexagon", 2), pytest.param("bullet", 1, marks=pytest.mark.slow),
                                        ("general", 2)])
def test_same_seed_same_puzzles(game: str, count: int) -> None:
    first = generator.make_puzzles(game, count, seed=5, log=lambda _line: None, max_games=40)
    second = generator.make_puzzles(game, count, seed=5, log=lambda _line: None, max_games=40)
    assert len(first["puzzles"]) == count
    assert first == second
    assert first["generated_by"] == f"python -m services.ai_worker.puzzles --game {game} --count {count} --seed 5"


def test_another_seed_other_games() -> None:
    one = generator.make_puzzles("hexagon", 1, seed=5, log=lambda _line: None, max_games=40)
    other = generator.make_puzzles("hexagon", 1, seed=6, log=lambda _line: None, max_games=40)
    assert [p["source"]["game"] for p in one["puzzles"]] != [p["source"]["game"] for p in other["puzzles"]]


# ---- rejections --------------------------------------------------------------------------------
def test_one_legal_move_is_too_easy() -> None:
    assert finder.clear_best([("e2", 9.0)], 1.0) is None
    # Perle's only stone can go nowhere but one cell: a lone stone in a corner walled by holes.
    source = generator.HexagonSource()
    corner = bits(NEIGHBOURS[0])
    far = [c for c in range(61) if hex_distance(0, c) == 2]
    holes = sum(1 << c for c in corner[1:] + far)
    state = HEXAGON.from_position(position_text(1 << 60, 1 << 0, holes, 1, 0), {"map": "klassisch"})
    assert len(HEXAGON.legal_moves(state)) == 1
    assert source.judge(state) is None
    assert generator._puzzle_at(source, state, HEXAGON.default_options(), finder.Seen(), {}) is None


def test_unclear_position_is_rejected() -> None:
    # The start: every first move is worth the same as its mirror image.
    source = generator.HexagonSource()
    state = HEXAGON.new_game(HEXAGON.default_options(), 1)
    assert finder.clear_best(source.values(state, 2), source.efforts.gap) is None
    assert source.judge(state) is None


def test_a_position_serves_one_puzzle() -> None:
    puzzle = catalog.load("hexagon")[0]
    source = generator.HexagonSource()
    seen = finder.Seen()
    state = catalog.state(puzzle)
    found = generator._puzzle_at(source, state, puzzle.options, seen, puzzle.source)
    assert found is not None and found[1] == puzzle.to_dict()
    seen.add(found[0])
    assert generator._puzzle_at(source, state, puzzle.options, seen, {}) is None


# ---- stable ids and the merge mode --------------------------------------------------------------
def test_ids_are_stable_hashes_of_what_the_solver_sees() -> None:
    for game in catalog.GAMES:
        source = generator.SOURCES[game]()
        for puzzle in catalog.load(game)[:20]:
            key = source.public_key(catalog.state(puzzle))
            assert puzzle.id == catalog.stable_id(game, key)
    # Battlegeneral's id does not depend on a hidden rank: two states that differ only there share it.
    general = generator.GeneralSource()
    puzzle = catalog.load("general")[0]
    state = catalog.state(puzzle)
    hidden = [i for i in range(80) if i // 40 != puzzle.seat and state.pos[i] >= 0 and not state.flags[i] & REVEALED]
    swapped = list(state.ranks)
    pair = next((a, b) for a in hidden for b in hidden if state.ranks[a] != state.ranks[b])
    swapped[pair[0]], swapped[pair[1]] = swapped[pair[1]], swapped[pair[0]]
    import copy

    other = copy.copy(state)
    other.ranks = tuple(swapped)
    assert general.key(other) != general.key(state)
    assert general.public_key(other) == general.public_key(state)


def test_merge_adds_puzzles_and_changes_none() -> None:
    first = generator.make_puzzles("hexagon", 2, seed=5, log=lambda _line: None, max_games=40)
    merged = generator.make_puzzles("hexagon", 2, seed=6, log=lambda _line: None, max_games=40, existing=first)
    assert merged["puzzles"][:2] == first["puzzles"]
    assert len(merged["puzzles"]) == 4 and merged["generated_by"] == first["generated_by"]
    assert [r["seed"] for r in merged["runs"]] == [5, 6] and merged["runs"][1]["command"].endswith("--merge")
    ids = [p["id"] for p in merged["puzzles"]]
    assert len(set(ids)) == 4
    # The same seed again adds nothing the file has: no repeated position or id.
    again = generator.make_puzzles("hexagon", 1, seed=5, log=lambda _line: None, max_games=40, existing=first)
    assert again["puzzles"][:2] == first["puzzles"] and again["puzzles"][2]["id"] not in ids[:2]
    source = generator.HexagonSource()
    keys = [source.key(catalog.state(catalog.Puzzle.from_dict(p))) for p in again["puzzles"]]
    assert len(set(keys)) == 3
    assert generator.next_seed(merged) == 7 and generator.next_seed(None) == 1


def test_run_merges_into_the_file(tmp_path) -> None:  # noqa: ANN001
    out = tmp_path / "hexagon.json"
    assert generator.run("hexagon", 1, seed=5, out=str(out)) == 1
    before = generator.read(out)
    assert generator.run("hexagon", 1, out=str(out), merge=True) == 1  # seed 6, the next
    after = generator.read(out)
    assert after["puzzles"][0] == before["puzzles"][0] and len(after["puzzles"]) == 2
    assert after["runs"][-1]["seed"] == 6
    assert catalog.Puzzle.from_dict(after["puzzles"][1]).id != before["puzzles"][0]["id"]


def test_run_refuses_an_unwritable_file_before_making_any_puzzle(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    # In the image the shipped catalogue is read-only: the job must say so at once, not after
    # tens of minutes of games.  Here the file's folder is a file, which no user can write into.
    (tmp_path / "catalogue").write_text("not a folder")
    made: list[str] = []

    def make(game: str, *_args: Any, **_kwargs: Any) -> dict[str, Any]:
        made.append(game)
        return {"runs": [{"seed": 1, "added": 0}], "puzzles": []}

    monkeypatch.setattr(generator, "make_puzzles", make)
    with pytest.raises(PermissionError, match="give --out"):
        generator.run("hexagon", 300, out=str(tmp_path / "catalogue" / "hexagon.json"), merge=True)
    assert made == []
    # A writable file: the work is done and written, and no probe is left beside it.
    assert generator.run("hexagon", 300, out=str(tmp_path / "new" / "hexagon.json")) == 0
    assert made == ["hexagon"] and sorted(p.name for p in (tmp_path / "new").iterdir()) == ["hexagon.json"]


# ---- choosing a game's puzzles -------------------------------------------------------------------
def _candidate(ply: int, moves: int, themes_: list[str]) -> tuple[int, str, dict]:
    return ply, f"k{ply}", {"solution": ["m"] * (2 * moves - 1), "themes": themes_, "id": f"p{ply}"}


def test_select_prefers_forced_lines_and_themes() -> None:
    plain, themed = ["einzuegig"], ["falle", "einzuegig"]
    candidates = [_candidate(10, 1, plain), _candidate(12, 1, themed), _candidate(20, 1, plain),
                  _candidate(30, 2, ["mehrzuegig"]), _candidate(33, 3, ["mehrzuegig", "falle"]),
                  _candidate(50, 1, themed), _candidate(60, 1, themed), _candidate(70, 1, plain)]
    chosen = [c[0] for c in generator.select(candidates, single_per_game=2)]
    # 33 (three moves) beats 30 (too close); then the themed singles, the plain one never
    # (two singles already), and at most PER_GAME.
    assert chosen == [12, 33, 50]
    assert [c[0] for c in generator.select(candidates, single_per_game=1)] == [12, 33]
    only_plain = [_candidate(10, 1, plain), _candidate(20, 1, plain)]
    assert [c[0] for c in generator.select(only_plain)] == [10]


def test_initial_rating_is_centred_on_a_new_players() -> None:
    from shared import glicko2

    middle = finder.initial_rating(finder.MIDDLE_RUNG, 1, finder.TYPICAL_CHOICES)
    assert middle == glicko2.START_RATING
    assert finder.initial_rating(0, 1, 20) < middle < finder.initial_rating(2, 1, 20) < finder.initial_rating(2, 3, 20)


# ---- the forced line ---------------------------------------------------------------------------
class _Counter:
    """A game whose state counts the moves played."""

    def apply(self, state: int, move: str, seat: int | None = None) -> int:
        return state + 1

    def outcome(self, state: int) -> Any:
        return "over" if state >= 9 else None


def test_line_extends_while_forced_and_ends_with_a_solver_move() -> None:
    def judge(clear_until: int) -> finder.Judge:
        return lambda s: (f"m{s}", [(f"m{s}", 5.0), ("x", 0.0)]) if s <= clear_until else None

    def reply(s: int) -> str:
        return f"r{s}"

    line = finder.forced_line(_Counter(), 0, judge(99), reply, 3)
    assert line is not None and line.moves == ["m0", "r1", "m2", "r3", "m4"]
    line = finder.forced_line(_Counter(), 0, judge(1), reply, 3)
    assert line.moves == ["m0"]  # after the reply the solver's move is no longer clear: the reply is left out
    assert finder.forced_line(_Counter(), 0, judge(-1), reply, 3) is None
    line = finder.forced_line(_Counter(), 7, judge(99), reply, 3)
    assert line.moves == ["m7"]  # the reply would end the game
    line = finder.forced_line(_Counter(), 6, judge(99), reply, 3)
    assert line.moves == ["m6", "r7", "m8"]  # the solver's move may end it
    # Later moves may have their own judge (the follow gap): here it never finds one.
    assert finder.forced_line(_Counter(), 0, judge(99), reply, 3, follow=judge(-1)).moves == ["m0"]


def test_the_follow_gap_judges_later_moves() -> None:
    efforts = finder.Efforts(review=1, deep=2, ladder=(1,), gap=3.0, follow_gap=2.0)

    def search(_state: object, _effort: int) -> finder.Values:
        return [("a", 5.0), ("b", 2.5)]

    assert finder.judge(None, search, efforts) is None
    assert finder.judge(None, search, efforts, follow=True)[0] == "a"
    assert finder.Efforts(review=1, deep=2, ladder=(1,), gap=3.0).gap_at(True) == 3.0


# ---- themes: Battlehexagon ---------------------------------------------------------------------
def _hexagon_state(red: list[int], white: list[int]) -> Any:
    return HEXAGON.from_position(position_text(sum(1 << c for c in red), sum(1 << c for c in white), 0, 0, 0),
                                 {"map": "klassisch"})


def _move(engine: Any, state: Any, want: Any) -> str:
    return next(m.text for m in engine.legal_moves(state) if want(m.effect))


def test_hexagon_big_jump_and_double_cell() -> None:
    ring = bits(NEIGHBOURS[CENTRE])
    far = next(c for c in range(61) if hex_distance(c, CENTRE) == 4)
    white = [*ring[:3], far]  # one stone far away, so that the game goes on
    jumper = next(c for c in range(61) if hex_distance(c, CENTRE) == 2
                  and not any(hex_distance(c, w) <= 2 for w in white[:3] + [far] if w != CENTRE)
                  and all(hex_distance(c, w) > 1 for w in white))
    state = _hexagon_state([jumper], white)
    jump = _move(HEXAGON, state, lambda e: e["kind"] == "jump" and len(e["turns"]) == 3)
    derived = themes.derive("hexagon", HEXAGON, state, [jump], 0)
    assert "grosser_sprung" in derived.themes and "doppelwabe" not in derived.themes
    assert derived.task == {"de": "Rubin zieht und gewinnt 3 Steine", "en": "Ruby to move wins 3 stones"}
    # A clone onto the centre from the free side of the ring turns the same three.
    state = _hexagon_state([ring[4]], white)
    clone = _move(HEXAGON, state, lambda e: e["kind"] == "clone" and len(e["turns"]) == 3)
    derived = themes.derive("hexagon", HEXAGON, state, [clone], 0)
    assert "doppelwabe" in derived.themes and "grosser_sprung" not in derived.themes
    assert derived.task["de"] == "Rubin zieht und gewinnt 4 Steine"
    assert "falle" not in derived.themes and "einzuegig" in derived.themes
    # A clone that turns nothing while the three are there for the taking: the trap theme.
    quiet = _move(HEXAGON, state, lambda e: e["kind"] == "clone" and not e["turns"])
    assert "falle" in themes.derive("hexagon", HEXAGON, state, [quiet], 0).themes


def test_hexagon_defence() -> None:
    # Perle's stone on cell 31 could clone next to Rubin's three and turn them; Rubin's clone to
    # d6 takes that cell (its own grab is small: the theme is the threat it removes).
    state = _hexagon_state([21, 22, 29], [0, 31])
    assert themes._hexagon_threat(HEXAGON, state) == 4
    derived = themes.derive("hexagon", HEXAGON, state, ["d6"], 0)
    assert "abwehr" in derived.themes
    quiet = next(m.text for m in HEXAGON.legal_moves(state) if m.text != "d6"
                 and themes._hexagon_greediest(HEXAGON, HEXAGON.apply(state, m.text)) >= 4)
    assert "abwehr" not in themes.derive("hexagon", HEXAGON, state, [quiet], 0).themes


# ---- themes: Battlebullet ----------------------------------------------------------------------
def _cells(*names: str) -> int:
    return sum(1 << cell_index(ord(n[0]) - ord("A") + 1, int(n[1])) for n in names)


def _bullet_state(white: list[str], black: list[str], side: int = 0) -> Any:
    return BULLET.from_position(format_position(_cells(*white), _cells(*black), side, (0, 0), 0),
                                BULLET.default_options())


def test_bullet_push_off_with_three_against_two() -> None:
    state = _bullet_state(["E5", "E6", "E7", "A1", "A2"], ["E8", "E9", "I5", "I6"])
    move = _move(BULLET, state, lambda e: e.get("out") and len(e["marbles"]) == 3)
    derived = themes.derive("bullet", BULLET, state, [move], 0)
    assert {"hinausschieben", "sumito_3_2"} <= set(derived.themes) and "randverteidigung" not in derived.themes
    assert derived.task == {"de": "Weiß schiebt eine Kugel hinaus", "en": "White pushes one marble off"}


def test_bullet_edge_defence() -> None:
    from shared.games.bullet.movegen import pushable_out

    # Schwarz's two on E7 and E8 threaten to push Weiß's E9 off.
    state = _bullet_state(["E9", "A1", "A2"], ["E7", "E8", "I5", "I6"])
    safe = [m.text for m in BULLET.legal_moves(state) if not m.effect.get("out") and m.effect["marbles"] == ["E9"]
            and not pushable_out(BULLET.apply(state, m.text).black, BULLET.apply(state, m.text).white)]
    derived = themes.derive("bullet", BULLET, state, [safe[0]], 0)
    assert "randverteidigung" in derived.themes and "hinausschieben" not in derived.themes
    assert derived.task == {"de": "Weiß verteidigt den Rand", "en": "White defends the edge"}
    # A move after which the marble can still be pushed off defends nothing.
    idle = next(m.text for m in BULLET.legal_moves(state) if m.effect["marbles"] == ["A1"] and not m.effect.get("out"))
    after = BULLET.apply(state, idle)
    assert pushable_out(after.black, after.white)
    derived = themes.derive("bullet", BULLET, state, [idle], 0)
    assert "randverteidigung" not in derived.themes and "verteidigt" not in derived.task["de"]


# ---- Battlegeneral: knowledge, the sure rule, themes -------------------------------------------
def _general_state(pieces: dict[str, str], side: str = "r") -> Any:
    rows = []
    for rank in range(10, 0, -1):
        row, empty = "", 0
        for file in "abcdefghij":
            token = "~" if rank in (5, 6) and file in "cdgh" else pieces.get(f"{file}{rank}")
            if token is None:
                empty += 1
                continue
            if empty:
                row, empty = row + str(empty), 0
            row += token
        rows.append(row + (str(empty) if empty else ""))
    return GENERAL.from_position("/".join(rows) + f" {side} 0 40", GENERAL.default_options())


def _sure(state: Any, seat: int = 0) -> str | None:
    view = GENERAL.view(state, seat)
    found = general_sure.sure_best(general_sure.knowledge(view), [m["text"] for m in view["legal_moves"]])
    return None if found is None else found[0]


BLUE_HOME = {"a10": "f", "b10": "b", "j9": "u+"}


def test_knowledge_narrows_the_ranks() -> None:
    state = _general_state({"a1": "F", "e4": "S", "j1": "U", "e5": "m+*", "c9": "a^", **BLUE_HOME})
    know = general_sure.knowledge(GENERAL.view(state, 0))
    sq = {name: general_sure.parse_square(name) for name in ("e5", "c9", "j9", "a10", "b10")}
    assert know.enemy[sq["e5"]] == {10}  # revealed
    assert know.enemy[sq["c9"]] == {SCOUT}  # ran more than one square
    assert know.enemy[sq["j9"]] == {4}  # moved: the only movable rank left
    assert know.enemy[sq["a10"]] == know.enemy[sq["b10"]] == {MINE, FLAG}
    # Take the Mine's cover away: the last unmoved unknown piece is the Fahne.
    state = _general_state({"a1": "F", "e4": "S", "j1": "U", "a10": "f", "j9": "u+"})
    know = general_sure.knowledge(GENERAL.view(state, 0))
    assert know.enemy[general_sure.parse_square("a10")] == {FLAG}


def test_spy_takes_the_revealed_marshal() -> None:
    state = _general_state({"a1": "F", "e4": "S", "j1": "U", "e5": "m+*", **BLUE_HOME})
    assert _sure(state) == "e4-e5"
    derived = themes.derive("general", GENERAL, state, ["e4-e5"], 0)
    assert {"spion_gegen_feldmarschall", "hoher_fang"} <= set(derived.themes)
    # Only the Spion can strike the Feldmarschall: naming the piece would name the answer.
    assert derived.task == {"de": "Rot zieht und gewinnt Material", "en": "Red to move wins material"}
    # With a second piece that could strike it, the task names the revealed target (never the striker).
    state = _general_state({"a1": "F", "e4": "S", "f5": "O", "j1": "U", "e5": "m+*", **BLUE_HOME})
    assert _sure(state) == "e4-e5"
    derived = themes.derive("general", GENERAL, state, ["e4-e5"], 0)
    assert derived.task == {"de": "Rot schlägt den aufgedeckten Feldmarschall",
                            "en": "Red takes the revealed Marshal"}


def test_a_deduced_piece_is_not_called_revealed() -> None:
    # The piece on e5 ran more than one square: an Aufklärer, known but never revealed.
    state = _general_state({"a1": "F", "e4": "U", "f5": "H", "j1": "U", "e5": "a^", **BLUE_HOME})
    derived = themes.derive("general", GENERAL, state, ["e4-e5"], 0)
    assert derived.task == {"de": "Rot schlägt den erkannten Aufklärer", "en": "Red takes the identified Scout"}
    assert "aufgedeckt" not in derived.task["de"]


def test_escape_and_spy_hunt() -> None:
    # Rot's Hauptmann on e4 stands next to the revealed Feldmarschall: moving it away is the escape.
    state = _general_state({"a1": "F", "e4": "H", "j1": "U", "e5": "m+*", **BLUE_HOME})
    derived = themes.derive("general", GENERAL, state, ["e4-e3"], 0)
    assert "flucht" in derived.themes
    assert derived.task == {"de": "Rot zieht und rettet eine Figur", "en": "Red to move saves a piece"}
    assert "flucht" not in themes.derive("general", GENERAL, state, ["j1-j2"], 0).themes
    # Taking the revealed Spion.
    state = _general_state({"a1": "F", "e4": "U", "f5": "U", "j1": "U", "e5": "s+*", **BLUE_HOME})
    assert "spionjagd" in themes.derive("general", GENERAL, state, ["e4-e5"], 0).themes


def test_miner_clears_the_revealed_mine_and_scout_takes_the_known_flag() -> None:
    state = _general_state({"a1": "F", "b9": "N", "j1": "U", "b10": "b*", "a10": "f", "i10": "b", "j9": "u+"},
                           side="r")
    assert _sure(state) == "b9-b10"
    assert "minenraeumer" in themes.derive("general", GENERAL, state, ["b9-b10"], 0).themes
    # The Fahne is known once it is the last unmoved unknown piece: the Aufklärer runs to it.
    state = _general_state({"a1": "F", "a2": "A", "j1": "U", "a10": "f", "j9": "u+"})
    assert _sure(state) == "a2-a10"
    derived = themes.derive("general", GENERAL, state, ["a2-a10"], 0)
    assert {"fahnenjagd", "aufklaerer_lauf", "partie_gewinnen"} <= set(derived.themes)
    assert derived.task == {"de": "Rot erobert die Fahne", "en": "Red captures the Flag"}


def test_no_puzzle_where_another_move_might_win_more() -> None:
    # A sure capture of a revealed Leutnant on the right, but the Unteroffizier on e4 stands
    # next to an unmoved unknown piece that may be the Fahne: no sure best move.
    pieces = {"a1": "F", "e4": "U", "j4": "H", "e5": "h", "j5": "l+*", **BLUE_HOME}
    assert _sure(_general_state(pieces)) is None
    # Without that neighbour the capture is the puzzle.
    del pieces["e5"]
    assert _sure(_general_state(pieces)) == "j4-j5"


def test_no_puzzle_from_a_strike_on_an_unknown_piece() -> None:
    # The Feldmarschall next to a moved unknown piece (any movable rank): the strike is
    # probably good, but it is a guess, so it cannot be the solution.
    state = _general_state({"a1": "F", "e4": "M", "j1": "U", "e5": "h+", "f9": "l+", **BLUE_HOME})
    assert _sure(state) is None


def test_a_recapture_spoils_the_capture() -> None:
    # Taking the revealed Major puts the Oberst next to an unknown moved piece that may be
    # the General (the ranks left are Unteroffizier and General): not sure.
    pieces = {"a1": "F", "e4": "O", "j1": "U", "e5": "j+*", "e6": "g+", **BLUE_HOME}
    assert _sure(_general_state(pieces)) is None
    # Where the unknown piece can only be an Unteroffizier or a Hauptmann, it is.
    pieces["e6"] = "h+"
    assert _sure(_general_state(pieces)) == "e4-e5"
