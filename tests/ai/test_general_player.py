"""The Battlegeneral computer opponent: legal and in time, setups, tactics, strength,
and that it plays from the seat's view alone."""

from __future__ import annotations

import json
import random
import time

import pytest

from bench.ai_general import play_game
from services.ai_worker.players import general as player
from shared.games import get_game
from shared.games.general import moves as fast
from shared.games.general.setups import computer_setups

GAME = get_game("general")
STRENGTHS = ("leicht", "mittel", "stark")
# Allowed lateness beyond the deadline: the search checks the clock about every
# millisecond, but on a shared 2-core machine (load 6+) the process itself waits for
# the CPU that long.
SLACK = 0.4  # seen: 0.33 s at load 6-10; the share within budget is measured in bench/ai_*.py


def _started(seed: int, rng: random.Random):
    state = GAME.new_game({}, seed)
    for seat in (0, 1):
        while seat in GAME.to_move(state):
            state = GAME.apply(
                state, player.PLAYER.choose_move(GAME.view(state, seat), "leicht", time.monotonic() + 1, rng), seat
            )
    return state


def _random_positions(count: int, seed: int = 11) -> list:
    rng = random.Random(seed)
    positions = []
    game_seed = 0
    while len(positions) < count:
        state = _started(game_seed, rng)
        game_seed += 1
        for ply in range(600):
            if state.outcome is not None:
                break
            if ply % 40 == 7:
                positions.append(state)
            state = fast.fast_apply(state, rng.choice(fast.fast_moves(state)))
    return positions[:count]


def test_setup_is_a_computer_setup_then_fertig() -> None:
    names = set()
    mirrored = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_game({}, seed)
        first = player.PLAYER.choose_move(GAME.view(state, 1), "stark", time.monotonic() + 1, rng)
        assert first.startswith("aufstellung ")
        rest = first[len("aufstellung ") :]
        is_mirrored = rest.endswith(" gespiegelt")
        name = rest[: -len(" gespiegelt")] if is_mirrored else rest
        assert name in computer_setups()
        names.add(name)
        mirrored.add(is_mirrored)
        state = GAME.apply(state, first, 1)
        assert player.PLAYER.choose_move(GAME.view(state, 1), "stark", time.monotonic() + 1, rng) == "fertig"
        # a hint during the setup names the setup move, valued 0
        assert player.analyse(GAME.view(state, 1), time.monotonic() + 1, rng, limit=1) == [("fertig", 0.0)]
    assert len(names) > 3 and mirrored == {True, False}


@pytest.mark.serial  # measures its own deadline: a busy machine's scheduler would judge it
@pytest.mark.parametrize("strength", STRENGTHS)
def test_legal_and_in_time_from_random_positions(strength: str) -> None:
    rng = random.Random(5)
    budget = 0.05
    for state in _random_positions(25):
        seat = state.to_move
        view = GAME.view(state, seat)
        legal = {m["text"] for m in view["legal_moves"]}
        started = time.monotonic()
        text = player.PLAYER.choose_move(view, strength, started + budget, rng)
        assert time.monotonic() - started < budget + SLACK
        assert text in legal


def test_stark_reports_its_search() -> None:
    state = _random_positions(1, seed=6)[0]
    stats: dict[str, int] = {}
    player.PLAYER.choose_move(GAME.view(state, state.to_move), "stark", time.monotonic() + 5, random.Random(1), 3, stats)
    assert stats["samples"] == 3 and stats["depth"] == 2 and stats["nodes"] > 3 * len(fast.fast_moves(state))


@pytest.mark.serial  # measures its own deadline: a busy machine's scheduler would judge it
def test_deadline_already_passed_gives_a_legal_move_at_once() -> None:
    rng = random.Random(1)
    for state in _random_positions(5, seed=3):
        view = GAME.view(state, state.to_move)
        started = time.monotonic()
        text = player.PLAYER.choose_move(view, "stark", started - 1.0, rng)
        assert time.monotonic() - started < 0.02
        assert text in {m["text"] for m in view["legal_moves"]}


def test_single_legal_move() -> None:
    # Red: Fahne a1, Minen b1 b2, Unteroffizier a2 — whose only move is a2-a3.
    state = GAME.from_position("9f/4l5/10/10/2~~2~~2/2~~2~~2/10/10/UB8/FB8 r 0 0")
    view = GAME.view(state, 0)
    assert [m["text"] for m in view["legal_moves"]] == ["a2-a3"]
    for strength in STRENGTHS:
        assert player.PLAYER.choose_move(view, strength, time.monotonic() + 0.05, random.Random(1)) == "a2-a3"


def test_stark_captures_the_flag_it_can_deduce() -> None:
    # Blue has two pieces: a revealed Aufklärer and one never-moved piece, which must
    # then be the Fahne.  Red's General stands next to it.
    state = GAME.from_position("a*9/4f5/4G5/10/2~~2~~2/2~~2~~2/10/10/10/FB8 r 0 0")
    view = GAME.view(state, 0)
    assert "e8-e9" in {m["text"] for m in view["legal_moves"]}
    assert player.PLAYER.choose_move(view, "stark", time.monotonic() + 0.5, random.Random(2)) == "e8-e9"
    assert player.PLAYER.choose_move(view, "mittel", time.monotonic() + 0.5, random.Random(2)) == "e8-e9"


def test_analyse_ranks_a_planted_blunder_low() -> None:
    # Red's Major on e5 faces a revealed Blue General on e6: attacking it throws the
    # Major away.
    state = GAME.from_position("f9/10/10/10/2~~g*1~~2/2~~J1~~2/10/10/10/FB8 r 0 0")
    view = GAME.view(state, 0)
    legal = {m["text"] for m in view["legal_moves"]}
    assert "e5-e6" in legal
    ranked = player.analyse(view, time.monotonic() + 5, random.Random(3), limit=50, max_samples=20)
    values = dict(ranked)
    assert set(values) == legal
    blunder = player.value_of(view, "e5xe6", time.monotonic() + 5, random.Random(3), max_samples=20)
    assert blunder == values["e5-e6"]
    assert ranked[0][1] - blunder >= player.REVIEW_THRESHOLDS[1]
    assert ranked[-1][0] == "e5-e6"


def test_stark_moves_a_threatened_piece_away() -> None:
    # Red's Oberst on e5 next to a revealed Blue General on e6: staying loses it.
    state = GAME.from_position("f9/10/10/10/2~~g*1~~2/2~~O1~~2/10/10/10/FB8 r 0 0")
    view = GAME.view(state, 0)
    text = player.PLAYER.choose_move(view, "stark", time.monotonic() + 5, random.Random(4), max_samples=20)
    assert text.startswith("e5-") and text != "e5-e6"
    text = player.PLAYER.choose_move(view, "mittel", time.monotonic() + 1, random.Random(4))
    assert text.startswith("e5-") and text != "e5-e6"


def test_review_values_come_from_the_same_samples() -> None:
    # As the review task calls them (analyse, then value_of with less time): the
    # played move's value is the one analyse computed from the same samples.
    state = _random_positions(3, seed=8)[-1]
    view = GAME.view(state, state.to_move)
    ranked = player.analyse(view, time.monotonic() + 0.3, random.Random(1), limit=100)
    for text, value in (ranked[0], ranked[-1]):
        assert player.value_of(view, text, time.monotonic() + 0.05, random.Random(9)) == value


def test_review_judges_with_starks_root_penalties() -> None:
    # Ply 19 of a seeded Mittel game: a step back has the best sampled value, and
    # Stark's penalty for stepping back makes it play another move.  A review must
    # name the move Stark plays, from the same samples (view_seed).
    rng = random.Random(5)
    state = GAME.new_game({}, 0)
    for seat in (0, 1):
        while seat in GAME.to_move(state):
            state = GAME.apply(state, player.PLAYER.choose_move(GAME.view(state, seat), "mittel", time.monotonic() + 1, rng),
                               seat)
    for _ in range(19):
        seat = GAME.to_move(state)[0]
        state = GAME.apply(state, player.PLAYER.choose_move(GAME.view(state, seat), "mittel", time.monotonic() + 1, rng),
                           seat)
    view = GAME.view(state, GAME.to_move(state)[0])
    played = player.PLAYER.choose_move(view, "stark", time.monotonic() + 5, random.Random(player.view_seed(view)),
                                max_samples=10)
    ranked = player.analyse(view, time.monotonic() + 5, random.Random(1), limit=100, max_samples=10)
    assert ranked[0][0] == played
    penalised = [text for text, _ in ranked if text.split("-")[0] == played.split("-")[0]] or [ranked[1][0]]
    assert player.value_of(view, penalised[0], time.monotonic() + 5, random.Random(1), max_samples=10) == dict(
        ranked)[penalised[0]]


def _hidden_twin_states():
    """Two play states that differ only in the ranks of two unmoved Blue pieces."""
    setup = "aufstellung Blitzkrieg"
    a = GAME.new_game({}, 9)
    a = GAME.apply(GAME.apply(a, setup, 0), "fertig", 0)
    blue_a = GAME.apply(a, setup, 1)
    own = {int(sq): r for sq, r in blue_a.setups[1].items()}
    # swap the ranks on two Blue squares holding different ranks (hidden from Red)
    squares = sorted(own)
    first = squares[0]
    second = next(sq for sq in squares if own[sq] != own[first])
    swapped = dict(own)
    swapped[first], swapped[second] = own[second], own[first]
    from shared.games.general.creation import begin_play

    state_a = begin_play(a, (a.setups[0], own))
    state_b = begin_play(a, (a.setups[0], swapped))
    rng = random.Random(8)
    # some identical quiet moves (a fight could show the swapped ranks), Red to move
    played = 0
    while played < 6 or state_a.to_move != 0:
        move = rng.choice(fast.fast_moves(state_a))
        if move not in fast.fast_moves(state_b) or state_a.board[move % 100]:
            continue
        state_a, state_b = fast.fast_apply(state_a, move), fast.fast_apply(state_b, move)
        played += 1
    return state_a, state_b


def test_hidden_ranks_do_not_change_the_move() -> None:
    state_a, state_b = _hidden_twin_states()
    assert state_a.ranks != state_b.ranks  # the full states differ …
    seat = 0
    view_a, view_b = GAME.view(state_a, seat), GAME.view(state_b, seat)
    assert view_a == view_b  # … but not in what Red may see
    for strength in STRENGTHS:
        move_a = player.PLAYER.choose_move(view_a, strength, time.monotonic() + 30, random.Random(21), max_samples=4)
        move_b = player.PLAYER.choose_move(view_b, strength, time.monotonic() + 30, random.Random(21), max_samples=4)
        assert move_a == move_b


def test_plays_from_a_plain_json_view() -> None:
    # The player gets a JSON-decoded dict and nothing else: no state object is reachable
    # from it, and the unknown Blue ranks are not in it.
    state = _random_positions(1, seed=4)[0]
    seat = state.to_move
    view = json.loads(json.dumps(GAME.view(state, seat)))
    assert all(p["rank"] is None for p in view["pieces"] if p["owner"] != seat and not p["revealed"])
    expected = player.PLAYER.choose_move(
        GAME.view(state, seat), "stark", time.monotonic() + 30, random.Random(6), max_samples=3
    )
    assert player.PLAYER.choose_move(view, "stark", time.monotonic() + 30, random.Random(6), max_samples=3) == expected


def test_stark_beats_leicht() -> None:
    # Stark at 4 sampled positions a move (a fixed budget: the same games on any
    # machine, however loaded), games cut at 300 plies and judged by material
    # (bench.ai_general): Stark must not lose one and score at least 75 %.
    score = 0.0
    losses = 0
    games = 6
    for game in range(games):
        strengths = ("stark", "leicht") if game % 2 == 0 else ("leicht", "stark")
        result = play_game(strengths, 5.0, 500 + game, max_plies=300, samples=4)
        if result["winner"] is None:
            score += 0.5
        elif strengths[result["winner"]] == "stark":
            score += 1.0
        else:
            losses += 1
    assert losses == 0 and score >= 4.5


class _HiddenRank(dict):
    """An enemy piece of the view whose rank no fight revealed: reading it fails."""

    def __getitem__(self, key):
        if key == "rank":
            raise AssertionError("the player read a hidden rank")
        return super().__getitem__(key)

    def get(self, key, default=None):
        if key == "rank":
            raise AssertionError("the player read a hidden rank")
        return super().get(key, default)


def test_never_reads_a_hidden_rank() -> None:
    # Every hidden enemy rank in the view raises when read: each strength still plays,
    # and plays what it plays from the plain view.
    for state in _random_positions(3, seed=12):
        seat = state.to_move
        view = GAME.view(state, seat)
        guarded = dict(view)
        guarded["pieces"] = [
            _HiddenRank(p) if p["owner"] != seat and not p["revealed"] else p for p in view["pieces"]
        ]
        assert any(isinstance(p, _HiddenRank) for p in guarded["pieces"])
        for strength in STRENGTHS:
            expected = player.PLAYER.choose_move(view, strength, time.monotonic() + 30, random.Random(3), max_samples=2)
            got = player.PLAYER.choose_move(guarded, strength, time.monotonic() + 30, random.Random(3), max_samples=2)
            assert got == expected


def test_stark_hunts_a_revealed_weaker_piece() -> None:
    # Red's only movable piece, an Oberst on a4; Blue's revealed Hauptmann stands four
    # squares off on e4.  Mittel just advances; Stark closes in on the piece it beats.
    state = GAME.from_position("9f/10/10/10/2~~2~~2/2~~2~~2/O3h*5/10/B9/FB8 r 0 0")
    view = GAME.view(state, 0)
    for seed in range(3):
        assert player.PLAYER.choose_move(view, "stark", time.monotonic() + 5, random.Random(seed), max_samples=8) == "a4-b4"
    assert player.PLAYER.choose_move(view, "mittel", time.monotonic() + 5, random.Random(0)) == "a4-a5"


def test_going_back_where_a_piece_just_came_from_costs() -> None:
    # We are to move: the newest entry is the enemy's, ours are every second before it.
    b5, c5, d5, b6, c6, c7 = 41, 42, 43, 51, 52, 62  # square = row * 10 + file
    view = {"seat": 0, "history": ["b4-b5", "e7-e6", "b5-c5", "e6-e7"]}
    moves = [c5 * 100 + b5, c5 * 100 + d5, c5 * 100 + c6]
    assert player.return_penalties(view, moves) == {c5 * 100 + b5: player.RETURN_PENALTY}
    # traced back over the piece's own moves: c6 came from b6, b6 from b5
    view = {"seat": 0, "history": ["b4-b5", "e7-e6", "b5-b6", "e6-e7", "b6-c6", "e7-e6"]}
    moves = [c6 * 100 + b6, c6 * 100 + c7]
    assert player.return_penalties(view, moves) == {c6 * 100 + b6: player.RETURN_PENALTY}


def test_high_pieces_leave_unmoved_pieces_to_testers() -> None:
    # Red's Feldmarschall, a Major and a Leutnant each next to a never-moved Blue piece:
    # the strikes of the Feldmarschall and the Major cost their value (the Leutnant can
    # test), the Leutnant's costs nothing.
    from services.ai_worker.players.general_belief import read_belief
    from services.ai_worker.players.general_search import VALUE

    state = GAME.from_position("f1b1b5/M1L1J5/10/10/2~~2~~2/2~~2~~2/10/10/10/FB7a r 0 0")
    view = GAME.view(state, 0)
    moves = [player._move_int(m["text"]) for m in view["legal_moves"]]
    penalties = player.heavy_probe_penalties(read_belief(view), moves)
    assert penalties == {player._move_int("a9-a10"): VALUE[10], player._move_int("e9-e10"): VALUE[7]}
    # without a tester on the board the high pieces must probe themselves
    state = GAME.from_position("f1b1b5/M3J5/10/10/2~~2~~2/2~~2~~2/10/10/10/FB8 r 0 0")
    view = GAME.view(state, 0)
    moves = [player._move_int(m["text"]) for m in view["legal_moves"]]
    assert player.heavy_probe_penalties(read_belief(view), moves) == {}


def test_the_enemy_cannot_tell_the_fahne_from_the_minen_beside_it() -> None:
    # Red's Fahne b1 between Minen a1 and c1, never moved; three Blue Mineure stand
    # above them, Blue to move.  Blue cannot know which of the three is the Fahne, so
    # the search counts a third of the loss, not all of it (a blue that knew) nor only
    # a Mine's (a blue that happened to try the first square).
    from services.ai_worker.players.general_belief import read_belief
    from services.ai_worker.players.general_search import WIN, enemy_guess_table, evaluate, flag_ids, reply_value

    state = GAME.from_position("9f/10/10/10/2~~2~~2/2~~2~~A1/10/10/nnn7/BFB7 b 0 0")
    guess = enemy_guess_table(read_belief(GAME.view(state, 0)))
    flags = flag_ids(state)
    value, _nodes = reply_value(state, 0, flags, guess)
    lost = value - evaluate(state, 0, flags)
    assert -0.5 * WIN < lost < -0.2 * WIN
    # the table itself: an unmoved piece on the back row is the likelier Fahne
    assert guess[3][0] < guess[3][3]


@pytest.mark.slow
def test_stark_beats_mittel_by_three_quarters() -> None:
    # The ladder target, at a fixed 6 sampled positions a move (the same games
    # on any machine): Stark scores at least 75 % against Mittel over 20 games,
    # colours alternating, games cut at 400 plies and judged by material.
    score = 0.0
    games = 20
    for game in range(games):
        strengths = ("stark", "mittel") if game % 2 == 0 else ("mittel", "stark")
        result = play_game(strengths, 5.0, 700 + game, samples=6)
        if result["winner"] is None:
            score += 0.5
        elif strengths[result["winner"]] == "stark":
            score += 1.0
    assert score / games >= 0.75


def _approach_to_the_marshal():
    """Red's revealed Feldmarschall on e4; Blue's two moved unknown pieces are the Spion
    and a Hauptmann, and the Spion (e7) has just stepped next to the Feldmarschall."""
    state = GAME.from_position("9f/10/10/1h+2s+5/2~~2~~2/2~~2~~2/4M*5/10/10/A8F r 0 0")
    for move in ("a1-a2", "e7-e6", "a2-a1", "e6-e5"):
        state = GAME.apply(state, move)
    return state


def test_a_piece_that_steps_next_to_the_feldmarschall_is_probably_the_spion() -> None:
    # Counts alone make each of the two moved pieces the Spion half of the time; the
    # step toward the known Feldmarschall makes the approaching one the likely Spion.
    from services.ai_worker.players.general_belief import read_belief, sample_enemy_ranks
    from shared.games.general.board import parse_square
    from shared.games.general.pieces import SPY

    belief = read_belief(GAME.view(_approach_to_the_marshal(), 0))
    e5 = parse_square("e5")
    assert belief.odds[e5][SPY] > 1.0 > belief.odds[e5][2]
    spies = sum(sample_enemy_ranks(belief, random.Random(seed))[e5] == SPY for seed in range(400))
    assert spies > 0.75 * 400
    # a piece that did nothing near a known piece carries no evidence
    assert parse_square("b7") not in belief.odds


def test_high_pieces_leave_a_possible_mine_to_others() -> None:
    # Red's Oberst faces three unmoved Blue pieces: two Majore and a Mine, Red cannot
    # tell which.  Striking wins a Major two times in three and loses the Oberst one
    # time in three: Stark values it clearly (beyond a yellow review mark) below
    # stepping aside, a high piece strikes only what is very probably weaker.
    state = GAME.from_position("9f/10/10/jjb7/1O~~2~~2/2~~2~~2/10/10/10/FB8 r 0 0")
    view = GAME.view(state, 0)
    values = dict(player.analyse(view, time.monotonic() + 30, random.Random(1), limit=10, max_samples=400))
    assert values["b6-a6"] - values["b6-b7"] > player.REVIEW_THRESHOLDS[0]
    assert player.PLAYER.choose_move(view, "stark", time.monotonic() + 30, random.Random(2), max_samples=400) != "b6-b7"


def test_the_last_movable_pieces_are_worth_more() -> None:
    # Mobility: losing a movable piece costs more the fewer a side has left, so an even
    # trade is bad for the side running out of movable pieces.
    from services.ai_worker.players.general_search import MOBILITY, MOBILITY_MARGINAL

    assert MOBILITY_MARGINAL[1] > MOBILITY_MARGINAL[3] > MOBILITY_MARGINAL[20] > 0
    assert MOBILITY[5] - MOBILITY[4] == pytest.approx(MOBILITY_MARGINAL[5])
    # Red: Hauptmann e5 and an Aufklärer a1 as its only movable pieces; Blue: a revealed
    # Hauptmann on e6 and seven more movable pieces.  The trade e5xe6 leaves Red one
    # movable piece: stepping aside is better.
    state = GAME.from_position("f2aaaaa2/9a/10/10/2~~h*1~~2/2~~H1~~2/10/10/10/FA8 r 0 0")
    view = GAME.view(state, 0)
    values = dict(player.analyse(view, time.monotonic() + 30, random.Random(1), limit=30, max_samples=40))
    assert max(v for text, v in values.items() if text.startswith("e5-") and text != "e5-e6") > values["e5-e6"]


def test_feldmarschall_and_general_hold_back_while_their_threats_are_hidden() -> None:
    from services.ai_worker.players.general_belief import read_belief
    from services.ai_worker.players.general_search import HOLD_BACK, pull_by_rank

    state = _random_positions(1, seed=6)[0]
    pull = pull_by_rank(read_belief(GAME.view(state, state.to_move)))
    assert pull[10] == HOLD_BACK and pull[9] == HOLD_BACK and pull[8] == 1.0
    # the enemy's Spion and Feldmarschall captured: both may go forward
    view = GAME.view(state, state.to_move)
    enemy = 1 - state.to_move
    view["captured"][enemy] = view["captured"][enemy] + [{"id": 200, "rank": "S"}, {"id": 201, "rank": "10"}]
    pull = pull_by_rank(read_belief(view))
    assert pull[10] == 1.0 and pull[9] == 1.0


def test_the_general_leaves_the_fahne_hunt_to_the_mineur() -> None:
    # Blue's last two never-moved pieces, e10 and f10, are its Fahne and a Mine; Red's
    # General stands below e10, Red's Mineur far off on a1.  Striking is a coin toss
    # between winning and losing the General to the Mine; the Mineur finds the Fahne
    # as well without that risk, so Stark sets the Mineur going.
    state = GAME.from_position("4bf4/4G5/a+9/10/2~~2~~2/2~~2~~2/10/10/10/N8F r 0 0")
    view = GAME.view(state, 0)
    for seed in range(3):
        text = player.PLAYER.choose_move(view, "stark", time.monotonic() + 30, random.Random(seed), max_samples=60)
        assert text.startswith("a1-")


def test_the_leaf_delta_matches_the_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    # The search values an enemy reply by reply_delta without building the position; it
    # must agree with evaluate() on the position built (revealed ranks, mobility and the
    # held-back pull included; the hunting term is left out, the leaf does not follow it).
    from services.ai_worker.players import general_search as search

    monkeypatch.setattr(search, "HUNT", 0.0)
    pull = tuple(search.HOLD_BACK if rank in (9, 10) else 1.0 for rank in range(13))
    checked = 0
    for state in _random_positions(8, seed=5):
        me = 1 - state.to_move
        flags = search.flag_ids(state)
        before = search.evaluate(state, me, flags, pull)
        for reply in fast.fast_moves(state):
            after = fast.fast_apply(state, reply)
            if after.outcome is not None:
                continue
            delta = search.reply_delta(state, reply, me, flags, pull)
            assert delta == pytest.approx(search.evaluate(after, me, flags, pull) - before, abs=1e-9)
            checked += 1
    assert checked > 100
