"""Battlehanse random play: many complete seeded games, every state checked.

Checked along the way: the state's cards and tokens add up, every game ends, JSON and
position text round-trip, the record replays to the same final state, and no view
for a seat contains what docs/rules.md hides from it.  The leak test is two-sided: the
structure is inspected (no opponent hand, no hidden Ratsmarken values, no deck order),
and the view must come out identical after all hidden parts are re-sampled
(:func:`state_from_view`) — a view that depended on anything hidden would differ.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from shared.games import get_game
from shared.games.hanse import fast_moves
from shared.games.hanse.serial import check_state

GAME = get_game("hanse")
MAX_MOVES = 5000


class Tally:
    """How often re-sampling changed hidden parts (so the leak test can fail)."""

    def __init__(self) -> None:
        self.deck_changed = 0
        self.hand_changed = 0
        self.rats_changed = 0
        self.views = 0


def _card_names(obj) -> Counter:
    found: Counter = Counter()
    if isinstance(obj, dict):
        for value in obj.values():
            found += _card_names(value)
    elif isinstance(obj, list):
        for value in obj:
            found += _card_names(value)
    elif isinstance(obj, str):
        found[obj] += 1
    return found


def check_view(state, seat, rng: random.Random, tally: Tally) -> None:
    view = GAME.view(state, seat)
    text = json.dumps(view, ensure_ascii=False)
    assert json.loads(text) == view
    over = GAME.outcome(state) is not None
    playing = state.phase == 0
    if over:
        assert view["hidden"] is not None
        return
    assert view["hidden"] is None and "deck" not in view
    if len(state.deck) >= 8:
        # No list in a view holds 8 bare card names (market 5, gemerkt <= 7), so this can only be the deck.
        order = [["Bernstein", "Gold", "Silber", "Tuch", "Salz", "Pelz", "Packpferd"][c] for c in reversed(state.deck)]
        assert json.dumps(order[:8], ensure_ascii=False)[1:-1] not in text
    for p in (0, 1):
        player = view["players"][p]
        if p == seat:
            continue
        assert player["hand"] is None
        # The only card names shown for the opponent are its gemerkte Karten.
        assert _card_names({k: v for k, v in player.items() if k != "seat"}) == Counter(player["known"])
        if playing:
            assert player["rats"] is None
            for move in view["moves"]:
                if move["seat"] == p and move["round"] == state.round_no:
                    assert move["rats"] is None
    if seat is None:
        assert view["legal_moves"] == []
    elif playing and state.turn == seat:
        assert [m["text"] for m in view["legal_moves"]] == [i.text for i in GAME.legal_moves(state)]
    # Re-sample everything this seat cannot know: the view must not change.
    sampled = GAME.state_from_view(view, rng)
    check_state(sampled)
    assert GAME.view(sampled, seat) == view
    assert GAME.to_move(sampled) == GAME.to_move(state)
    tally.views += 1
    tally.deck_changed += sampled.deck != state.deck
    if seat is not None:
        opp = 1 - seat
        tally.hand_changed += sampled.hands[opp] != state.hands[opp]
        tally.rats_changed += sampled.rats_won[opp] != state.rats_won[opp]


def check_state_text(state) -> None:
    data = GAME.to_json(state)
    assert GAME.from_json(json.loads(json.dumps(data))) == state
    position = GAME.to_position(state)
    again = GAME.from_position(position, {"first": state.first, "seals_to_win": state.seals_to_win})
    assert GAME.to_position(again) == position
    assert again.key() == state.key()


def play_random_game(seed: int, check_every: int, tally: Tally) -> tuple:
    rng = random.Random(seed)
    state = GAME.new_game({"first": seed % 2, "seals_to_win": 2}, seed)
    moves = 0
    while GAME.outcome(state) is None:
        assert moves < MAX_MOVES, f"game {seed} does not end"
        check_state(state)
        if moves % check_every == seed % check_every:
            check_state_text(state)
            check_view(state, rng.choice((0, 1, None)), rng, tally)
        before = GAME.to_json(state) if moves % 97 == 0 else None
        state = GAME.apply(state, rng.choice(fast_moves(state)))
        if before is not None:
            assert GAME.to_json(GAME.from_json(before)) == before
        moves += 1
    check_state(state)
    check_state_text(state)
    for seat in (0, 1, None):
        check_view(state, seat, rng, tally)
    record = GAME.record(state, {"Spieler1": f"Zufall {seed}", "Spieler2": "Zufall", "Datum": "2026-11-30"})
    assert GAME.parse_record(record) == state
    assert GAME.history(state) == [entry[2] for entry in state.history]
    return state, moves


def _run(games: int, check_every: int) -> None:
    tally = Tally()
    seals_seen = Counter()
    for seed in range(games):
        state, _ = play_random_game(seed, check_every, tally)
        seals_seen[tuple(sorted(state.seals))] += 1
        assert max(state.seals) == 2
    assert tally.views > games
    assert tally.deck_changed > 0.9 * tally.views
    assert tally.hand_changed > 0 and tally.rats_changed > 0
    assert len(seals_seen) >= 2  # 2-0 and 2-1 both occur


def test_random_games_short() -> None:
    _run(games=250, check_every=12)


@pytest.mark.slow
@pytest.mark.timeout(7200)
def test_random_games_10000() -> None:
    _run(games=10_000, check_every=40)
