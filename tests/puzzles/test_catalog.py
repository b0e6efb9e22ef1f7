"""The stored Aufgaben: every solution is what the searches compute now.

Cheap for every puzzle: the schema, the line replays legally, each solver move is the
clearly best at the review effort (Battlegeneral: better than every other move in every
world the solver cannot tell apart), the themes and task re-derive, no duplicates, the
tasks keep their word.  At the full effort (check effort, the computer's replies, the
initial rating): every puzzle.  Under ``-m slow`` the generator makes a prefix of each
file again from its seed, byte for byte.  Battlegeneral's rule is checked once more from the
other side: in sampled worlds (the unknown enemy ranks shuffled as the solver's
knowledge allows) a plain two-ply material search over the engine's moves finds the
solution better than every other move by the gap.
"""

from __future__ import annotations

import copy
import json
import random
import statistics

import pytest

from services.ai_worker import puzzles as generator
from shared.games import get_game
from shared.games.general.pieces import ARMY, FLAG, MOVABLE_MAX, SCOUT
from shared.puzzles import catalog, finder, general_sure, themes

ALL = [p for game in catalog.GAMES for p in catalog.load(game)]
SOURCES = {game: generator.SOURCES[game]() for game in catalog.GAMES}
PREFIX = 12  # puzzles of each file the slow test makes again


def _ids(puzzles: list[catalog.Puzzle]) -> list[str]:
    return [p.id for p in puzzles]


def test_files_hold_puzzles_of_each_game() -> None:
    for game in catalog.GAMES:
        puzzles = catalog.load(game)
        assert len(puzzles) >= 300, game
        ids = [p.id for p in puzzles]
        assert len(set(ids)) == len(ids)
        # Stable ids: the game and the hash of what the solver sees and the line, never a place.
        source = SOURCES[game]
        assert ids == [catalog.stable_id(game, source.public_key(catalog.state(p))) for p in puzzles]
        assert catalog.get(puzzles[-1].id) == puzzles[-1]
    assert catalog.get("hexagon-0000000000") is None and catalog.get("schach-0001") is None


@pytest.mark.parametrize("puzzle", ALL, ids=_ids(ALL))
def test_schema_and_line_replay(puzzle: catalog.Puzzle) -> None:
    engine = get_game(puzzle.game)
    assert catalog.from_dict(catalog.to_dict(puzzle)) == puzzle
    state = catalog.state(puzzle)
    assert engine.to_move(state) == (puzzle.seat,)
    assert puzzle.options == engine.normalize_options(puzzle.options)
    assert len(puzzle.solution) % 2 == 1
    assert set(puzzle.themes) <= set(catalog.theme_names) and puzzle.themes
    assert puzzle.task["de"] and puzzle.task["en"] and puzzle.task["de"] != puzzle.task["en"]
    assert 900 <= puzzle.rating <= 2400
    for index, move in enumerate(puzzle.solution):
        seat = puzzle.seat if index % 2 == 0 else 1 - puzzle.seat
        assert move in {m.text for m in engine.legal_moves(state)}, (index, move)
        assert engine.outcome(state) is None
        state = engine.apply(state, move, seat)


def test_no_two_puzzles_share_a_position() -> None:
    for game in catalog.GAMES:
        keys = [SOURCES[game].key(catalog.state(p)) for p in catalog.load(game)]
        assert len(keys) == len(set(keys)), game


def _solver_states(puzzle: catalog.Puzzle) -> list[tuple[object, str, str | None]]:
    """(state, solver move, reply after it or None) along the line."""
    engine = get_game(puzzle.game)
    state = catalog.state(puzzle)
    out = []
    for index in range(0, len(puzzle.solution), 2):
        move = puzzle.solution[index]
        reply = puzzle.solution[index + 1] if index + 1 < len(puzzle.solution) else None
        out.append((state, move, reply))
        state = engine.apply(state, move)
        if reply is not None:
            state = engine.apply(state, reply)
    return out


def _review_best(puzzle: catalog.Puzzle, state: object, follow: bool) -> str | None:
    source = SOURCES[puzzle.game]
    if puzzle.game == "general":
        view = source.engine.view(state, source.engine.to_move(state)[0])
        sure = general_sure.sure_best(general_sure.knowledge(view), [m["text"] for m in view["legal_moves"]])
        return None if sure is None else sure[0]
    return finder.clear_best(source.values(state, source.efforts.review), source.efforts.gap_at(follow))


@pytest.mark.parametrize("puzzle", ALL, ids=_ids(ALL))
def test_each_solver_move_is_clearly_best_at_review_effort(puzzle: catalog.Puzzle) -> None:
    for index, (state, move, _reply) in enumerate(_solver_states(puzzle)):
        assert _review_best(puzzle, state, index > 0) == move


@pytest.mark.parametrize("puzzle", ALL, ids=_ids(ALL))
def test_themes_and_task_rederive(puzzle: catalog.Puzzle) -> None:
    engine = get_game(puzzle.game)
    derived = themes.derive(puzzle.game, engine, catalog.state(puzzle), puzzle.solution, puzzle.seat)
    assert derived.themes == puzzle.themes
    assert derived.task == puzzle.task


def _full_check(puzzle: catalog.Puzzle) -> None:
    source = SOURCES[puzzle.game]
    for index, (state, move, reply) in enumerate(_solver_states(puzzle)):
        judged = source.follow(state) if index else source.judge(state)
        assert judged is not None and judged[0] == move
        if reply is not None:
            assert source.reply(source.engine.apply(state, move)) == reply
    rung = finder.rung_needed(catalog.state(puzzle), source.values, source.efforts, puzzle.solution[0])
    choices = len(source.engine.legal_moves(catalog.state(puzzle)))
    assert puzzle.rating == finder.initial_rating(rung, puzzle.solver_moves, choices)


@pytest.mark.parametrize("puzzle", ALL, ids=_ids(ALL))
def test_every_puzzle_at_full_effort(puzzle: catalog.Puzzle) -> None:
    _full_check(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("game", catalog.GAMES)
def test_the_generator_makes_the_files_prefix_again_byte_for_byte(game: str, tmp_path) -> None:  # noqa: ANN001
    """The stored file's first run, made again from its seed: the first puzzles' lines are the same bytes."""
    stored = catalog.data_file(game).read_text(encoding="utf-8")
    first_run = json.loads(stored)["runs"][0]
    out = tmp_path / f"{game}.json"
    generator.write(generator.make_puzzles(game, PREFIX, seed=first_run["seed"], log=lambda _line: None), out)
    made = out.read_text(encoding="utf-8").splitlines()
    rows = stored.splitlines()
    start = next(i for i, line in enumerate(rows) if line.startswith('{"id":'))
    made_start = next(i for i, line in enumerate(made) if line.startswith('{"id":'))
    strip = [line.rstrip(",") for line in made[made_start:made_start + PREFIX]]
    assert strip == [line.rstrip(",") for line in rows[start:start + PREFIX]]


# ---- the tasks keep their word ------------------------------------------------------------------
def test_a_bullet_edge_defence_removes_the_threat() -> None:
    from shared.games.bullet.movegen import pushable_out

    engine = get_game("bullet")
    for puzzle in catalog.load("bullet"):
        if "randverteidigung" not in puzzle.themes and "verteidigt" not in puzzle.task["de"]:
            continue
        assert "randverteidigung" in puzzle.themes
        after = engine.apply(catalog.state(puzzle), puzzle.solution[0])
        own, enemy = (after.white, after.black) if puzzle.seat == 0 else (after.black, after.white)
        assert not pushable_out(enemy, own), puzzle.id


def test_a_general_task_never_names_the_answer_nor_calls_a_deduced_piece_revealed() -> None:
    engine = get_game("general")
    for puzzle in catalog.load("general"):
        task = puzzle.task["de"]
        assert " mit dem " not in task, puzzle.id  # the striking piece is never named
        if "schlägt den" not in task and "räumt die" not in task:
            continue
        # The task names a strike's target that more than one legal move strikes.
        named = []
        for state, move, _reply in _solver_states(puzzle):
            view = engine.view(state, puzzle.seat)
            effect = next(x for x in view["legal_moves"] if x["text"] == move)["effect"]
            if not effect["attack"]:
                continue
            strikers = [x for x in view["legal_moves"] if x["effect"]["attack"] and x["effect"]["to"] == effect["to"]]
            revealed = next(p for p in view["pieces"] if p["square"] == effect["to"])["revealed"]
            named.append((len(strikers), revealed))
        assert any(n >= 2 and revealed == ("aufgedeckt" in task) == ("revealed" in puzzle.task["en"])
                   for n, revealed in named), (puzzle.id, named)


# ---- Battlegeneral: the solution holds in every world -------------------------------------------
GENERAL = get_game("general")


def _world(state: object, seat: int, rng: random.Random) -> object:
    """The state with the solver's unknown enemy ranks dealt anew among those pieces, as
    the marks allow: an Aufklärer to each piece that ran, Minen and Fahne to pieces that
    never moved, the rest at random."""
    from shared.games.general.state import MOVED, REVEALED, SCOUTED

    enemy = range((1 - seat) * 40, (1 - seat) * 40 + 40)
    unknown = [i for i in enemy if state.pos[i] >= 0 and not state.flags[i] & REVEALED]
    ranks = [state.ranks[i] for i in unknown]
    new_ranks = list(state.ranks)
    scouted = [i for i in unknown if state.flags[i] & SCOUTED]
    for i in scouted:
        ranks.remove(SCOUT)
        new_ranks[i] = SCOUT
    still = [i for i in unknown if not state.flags[i] & MOVED]
    rng.shuffle(still)
    for rank in [r for r in ranks if r > MOVABLE_MAX]:
        ranks.remove(rank)
        new_ranks[still.pop()] = rank
    rest = [i for i in unknown if i not in scouted and (i in still or state.flags[i] & MOVED)]
    assert all(r <= MOVABLE_MAX for r in ranks) and len(rest) == len(ranks)
    rng.shuffle(ranks)
    for i, rank in zip(rest, ranks, strict=True):
        new_ranks[i] = rank
    world = copy.copy(state)
    world.ranks = tuple(new_ranks)  # moves and fights read the ranks; the board holds piece ids
    return world


def _material(state: object, seat: int) -> float:
    """Solver's material minus the enemy's, in the rule's units; a captured Fahne decides."""
    value = general_sure.VALUE
    total = 0.0
    for piece, square in enumerate(state.pos):
        if square < 0:
            if state.ranks[piece] == FLAG:
                return -general_sure.WIN if piece // 40 == seat else general_sure.WIN
            continue
        total += value[state.ranks[piece]] * (1 if piece // 40 == seat else -1)
    return total


def _two_ply(state: object, seat: int) -> dict[str, float]:
    """Every solver move's value: material after the enemy's best answer."""
    out = {}
    for move in GAME_MOVES(state):
        after = GENERAL.apply(state, move, seat)
        if GENERAL.outcome(after) is not None:
            out[move] = _material(after, seat)
            continue
        answers = [_material(GENERAL.apply(after, a, 1 - seat), seat) for a in GAME_MOVES(after)]
        out[move] = min(answers) if answers else _material(after, seat)
    return out


def GAME_MOVES(state: object) -> list[str]:  # noqa: N802
    return [m.text for m in GENERAL.legal_moves(state)]


GENERAL_SAMPLE = catalog.load("general")[::10]
WORLDS = 4


@pytest.mark.parametrize("puzzle", GENERAL_SAMPLE, ids=_ids(GENERAL_SAMPLE))
def test_general_solution_wins_in_sampled_worlds(puzzle: catalog.Puzzle) -> None:
    rng = random.Random(puzzle.id)
    for state, move, _reply in _solver_states(puzzle):
        for _ in range(WORLDS):
            values = _two_ply(_world(state, puzzle.seat, rng), puzzle.seat)
            best = values.pop(move)
            assert best - max(values.values()) >= general_sure.GAP - 1e-9, (move, best, max(values.values()))


def test_rule_values_are_starks() -> None:
    from services.ai_worker.players.general_search import VALUE, WIN

    assert general_sure.VALUE == VALUE and general_sure.WIN == WIN
    assert sum(ARMY.values()) == 40


def test_rating_spread_is_not_flat() -> None:
    for game in catalog.GAMES:
        ratings = [p.rating for p in catalog.load(game)]
        assert min(ratings) < statistics.median(ratings) or statistics.median(ratings) < max(ratings), game
