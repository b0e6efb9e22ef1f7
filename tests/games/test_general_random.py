"""Battlegeneral: random complete games, perft and effects against the plain reference,
round trips of every text form, and the hidden-information check of every view."""

import json
import random

import pytest

from shared.games import get_game
from shared.games.general import moves as fast
from shared.games.general.board import square_name
from shared.games.general.pieces import TOKENS
from shared.games.general.setups import PRESET_NAMES, STANDARD_SETUPS
from tests.games import reference_general as ref
from tests.games.reference_general import position_text

G = get_game("general")


def set_up(seed, red=None, blue=None, options=None):
    """Both seats take a preset (random unless named), sometimes mirrored, sometimes
    adjusted by hand; returns the state at the start of play."""
    rng = random.Random(seed)
    st = G.new_game(options or {}, seed)
    for seat, name in ((0, red), (1, blue)):
        name = name or rng.choice(PRESET_NAMES)
        st = G.apply(st, f"aufstellung {name}" + (" gespiegelt" if rng.random() < 0.5 else ""), seat)
        if rng.random() < 0.3:
            square = rng.choice(sorted(G.view(st, seat)["setup"]["own"]))
            rank = G.view(st, seat)["setup"]["own"][square]
            st = G.apply(st, f"entferne {square}", seat)
            st = G.apply(st, f"setze {square} {rank}", seat)
        if rng.random() < 0.3:
            st = G.apply(st, "spiegeln", seat)
    assert_setup_views_private(st)
    st = G.apply(st, "fertig", 1)
    st = G.apply(st, "fertig", 0)
    return st


def assert_setup_views_private(st):
    for seat in (0, 1):
        text = json.dumps(G.view(st, seat))
        enemy_half = range(60, 100) if seat == 0 else range(0, 40)
        assert not any(f'"{square_name(sq)}"' in text for sq in enemy_half)
    spectator = json.dumps(G.view(st, None))
    assert not any(f'"{square_name(sq)}"' in spectator for sq in list(range(40)) + list(range(60, 100)))


def _objects(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _objects(value)
    elif isinstance(node, list):
        for value in node:
            yield from _objects(value)


def assert_views_hide_ranks(st):
    """No view shows a rank its seat may not know, checked twice: the rank field of
    every piece, and a search of every object that names a hidden piece for its rank."""
    data = G.to_json(st)
    over = G.outcome(st) is not None
    for seat in (0, 1, None):
        view = G.view(st, seat)
        json.dumps(view)
        hidden = {
            piece: TOKENS[data["ranks"][piece]]
            for piece in range(80)
            if data["pos"][piece] >= 0 and piece // 40 != seat and not data["flags"][piece] & 4
        }
        for entry in view["pieces"]:
            known = over or entry["owner"] == seat or entry["id"] not in hidden
            assert (entry["rank"] is not None) == known
        if over:
            continue
        for obj in _objects(view):
            for key in ("id", "piece", "target"):
                if obj.get(key) in hidden:
                    rank = hidden[obj[key]]
                    assert rank not in [v for k, v in obj.items() if k not in (key, "owner")], (seat, obj)
        if seat is not None and seat in G.to_move(st):
            for move in view["legal_moves"]:
                assert set(move["effect"]) == {"from", "to", "piece", "path", "attack", "target"}


def assert_round_trips(st):
    data = G.to_json(st)
    assert json.loads(json.dumps(data)) == data
    again = G.from_json(json.loads(json.dumps(data)))
    assert G.to_json(again) == data
    assert [m.text for m in G.legal_moves(again)] == [m.text for m in G.legal_moves(st)] if G.outcome(st) is None else True
    position = G.to_position(st)
    assert G.to_position(G.from_position(position)) == position


def engine_summary(st):
    data = G.to_json(st)
    pieces = {}
    for piece in range(80):
        square = data["pos"][piece]
        if square >= 0:
            flags = data["flags"][piece]
            pieces[square_name(square)] = (
                piece, piece // 40, TOKENS[data["ranks"][piece]], bool(flags & 1), bool(flags & 2), bool(flags & 4)
            )
    return pieces, data["to_move"], data["quiet"]


def play_random(seed, check_every=0, with_reference=False):
    rng = random.Random(seed * 7919 + 1)
    # games cross-checked move by move against the slow reference are kept short
    options = {"max_quiet_moves": 40} if with_reference else {}
    st = set_up(seed, options=options)
    reference = ref.from_position(G.to_position(st), **options) if with_reference else None
    ply = 0
    while G.outcome(st) is None:
        moves = fast.fast_moves(st)
        move = rng.choice(moves)
        if with_reference:
            assert sorted(ref.move_text(m) for m in ref.legal_moves(reference)) == sorted(m.text for m in G.legal_moves(st))
            assert ref.summary(reference) == engine_summary(st)
        checking = check_every and ply % check_every == 0
        if checking:
            assert_round_trips(st)
            assert_views_hide_ranks(st)
            before, snapshot = st, G.to_json(st)
        text = G.move_text(st, move)
        # through the text door now and then, through the move-int door otherwise
        st = G.apply(st, text) if ply % 4 == 1 else G.apply(st, move)
        if checking:
            assert G.to_json(before) == snapshot  # apply never changes its input
        if with_reference:
            reference = ref.apply(reference, ref.parse(text))
        ply += 1
    if with_reference:
        assert ref.summary(reference) == engine_summary(st)
        out = G.outcome(st)
        assert reference["result"] == (out.winner, out.reason)
    assert_round_trips(st)
    assert_views_hide_ranks(st)
    record = G.record(st, {"red": "anna", "blue": "bert", "date": "2026-11-30"})
    assert G.to_json(G.parse_record(record)) == G.to_json(st)
    assert len(G.history(st)) == ply
    return st


def test_random_games_against_reference():
    reasons = set()
    for seed in range(16):
        st = play_random(seed, check_every=40, with_reference=True)
        reasons.add(G.outcome(st).reason)
    assert reasons  # every game ended with a reason


def test_many_random_games():
    reasons = {}
    for seed in range(100, 170):  # 70 games reach all three endings; the slow test plays 10,000
        st = play_random(seed, check_every=300)
        reasons[G.outcome(st).reason] = reasons.get(G.outcome(st).reason, 0) + 1
    assert {"keine_zuege", "zweihundert_zuege", "fahne_erobert"} <= set(reasons)


@pytest.mark.slow
@pytest.mark.timeout(7200)
def test_ten_thousand_random_games():
    for seed in range(10_000):
        play_random(10_000 + seed, check_every=500 if seed % 10 else 60, with_reference=seed % 500 == 0)


@pytest.mark.parametrize("index", range(8))
def test_perft_from_standard_setups_matches_reference(index):
    red = STANDARD_SETUPS[index]
    blue = STANDARD_SETUPS[(index + 3) % 8]
    st = G.new_game({}, 1)
    st = G.apply(G.apply(st, f"aufstellung {red}", 0), "fertig", 0)
    st = G.apply(G.apply(st, f"aufstellung {blue}" + (" gespiegelt" if index % 2 else ""), 1), "fertig", 1)
    reference = ref.from_position(G.to_position(st))
    depth = 4 if index < 2 else 3
    for d in range(1, depth + 1):
        assert G.perft(st, d) == ref.perft(reference, d), (red, blue, d)


SMALL_POSITIONS = [
    # one mobile piece a side: chases, two-squares limits and fights all happen inside the tree
    {"j1": "F", "i1": "B", "j2": "B", "a10": "f", "b10": "b", "a9": "b", "a1": "J", "b2": "h"},
    {"j1": "F", "i1": "B", "j2": "B", "a10": "f", "b10": "b", "a9": "b", "e1": "J", "e2": "h", "d1": "B", "f1": "B", "d2": "B", "f2": "B"},
    {"j1": "F", "i1": "B", "j2": "B", "j10": "f", "i10": "b", "j9": "b", "a1": "G", "b1": "n", "b2": "b"},
]


@pytest.mark.parametrize(("index", "depth", "side"), [(0, 9, "b"), (1, 12, "b"), (2, 9, "b")])
def test_perft_with_repetition_matches_reference(index, depth, side):
    text = position_text(SMALL_POSITIONS[index], side)
    st = G.from_position(text)
    reference = ref.from_position(text)
    assert [G.perft(st, d) for d in range(1, depth + 1)] == [ref.perft(reference, d) for d in range(1, depth + 1)]


def test_effects_match_reference_on_random_positions():
    rng = random.Random(3)
    st = set_up(42)
    checked = 0
    while G.outcome(st) is None and checked < 60:
        for _ in range(rng.randrange(1, 30)):
            if G.outcome(st) is not None:
                break
            st = fast.fast_apply(st, rng.choice(fast.fast_moves(st)))
        if G.outcome(st) is not None:
            break
        # both sides read the same position text (ids by square, no repetition history)
        reference = ref.from_position(G.to_position(st))
        mine = {m.text: m.effect for m in G.legal_moves(G.from_position(G.to_position(st)))}
        theirs = {ref.move_text(m): ref.effect(reference, m) for m in ref.legal_moves(reference)}
        assert mine == theirs
        checked += 1
    assert checked > 5
