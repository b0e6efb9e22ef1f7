"""The pure challenge negotiation (shared.challenge): settings, proposals, confirmations, expiry."""

from __future__ import annotations

import dataclasses

import pytest

from shared import challenge as c
from shared.challenge import ChallengeRefusal, Party

ANNA, BERT, CARL = Party(1, "Anna"), Party(2, "Bert"), Party(3, "Carl")
T0 = 1_000_000.0


def opened(game: str = "hexagon") -> c.Challenge:
    return c.open_challenge(ANNA, BERT, game, T0)


def test_defaults_come_from_the_seed_and_the_challenger_agrees_by_opening() -> None:
    ch = opened()
    assert ch.settings.options == {"map": "klassisch", "end_rule": "auffuellen"}
    assert ch.settings.clock == "5+3" and ch.settings.rated and ch.settings.stake == 0 and not ch.settings.swap
    assert ch.agreed == {1} and ch.status == "open" and ch.version == 1
    bullet = opened("bullet")
    assert bullet.settings.options == {"layout": "standard", "win_target": 6, "move_limit": None}


def test_accepting_the_defaults_agrees_and_seats_follow_swap() -> None:
    ch = c.accept(opened(), BERT.user_id, 1, T0 + 5)
    assert ch.status == "agreed" and ch.agreed == {1, 2}
    assert ch.seats() == (1, 2)
    swapped = dataclasses.replace(ch, settings=dataclasses.replace(ch.settings, swap=True))
    assert swapped.seats() == (2, 1)


def test_a_change_must_be_confirmed_by_the_other_side() -> None:
    ch = opened()
    new = dataclasses.replace(ch.settings, clock="10+5", options={"map": "krater"})
    ch = c.propose(ch, BERT.user_id, new, T0 + 1)
    assert ch.agreed == {2} and ch.version == 2 and ch.status == "open"
    assert ch.settings.options == {"map": "krater", "end_rule": "auffuellen"}
    with pytest.raises(ChallengeRefusal) as stale:
        c.accept(ch, ANNA.user_id, 1, T0 + 2)  # agreeing to what she saw before the change
    assert stale.value.code == "challenge_stale"
    assert c.accept(ch, ANNA.user_id, 2, T0 + 2).status == "agreed"


def test_proposing_the_same_settings_is_agreement() -> None:
    ch = opened()
    assert c.propose(ch, BERT.user_id, ch.settings, T0 + 1).status == "agreed"


def test_a_challenge_changes_at_most_max_changes_times() -> None:
    """Each change redraws the other's panel and keeps the challenge alive: no endless stream of them."""
    ch = opened()
    stakes = [10 * (i % 5 + 1) for i in range(c.MAX_CHANGES)]
    for i, stake in enumerate(stakes):
        ch = c.propose(ch, (ANNA, BERT)[i % 2].user_id, dataclasses.replace(ch.settings, stake=stake), T0 + i)
    assert ch.version == c.MAX_CHANGES + 1
    with pytest.raises(ChallengeRefusal) as refused:
        c.propose(ch, BERT.user_id, dataclasses.replace(ch.settings, stake=90), T0 + 99)
    assert refused.value.code == "challenge_too_many_changes" and refused.value.params == {"limit": c.MAX_CHANGES}
    # What is on the table may still be agreed to, or declined.
    assert c.propose(ch, BERT.user_id if ch.agreed == {ANNA.user_id} else ANNA.user_id, ch.settings,
                     T0 + 99).status == "agreed"
    assert c.decline(ch, BERT.user_id, T0 + 99).status == "declined"


@pytest.mark.parametrize(
    "game,changes,code",
    [
        ("bullet", {"clock": "ohne"}, "challenge_bad_clock"),
        ("hexagon", {"clock": "1+0"}, "challenge_bad_clock"),
        ("hexagon", {"stake": 5}, "challenge_bad_stake"),
        ("hexagon", {"stake": 101}, "challenge_bad_stake"),
        ("hexagon", {"stake": 50, "rated": False}, "challenge_bad_stake"),
        ("hexagon", {"options": {"map": "mond"}}, "challenge_bad_options"),
        ("hexagon", {"options": {"map": "zufall", "map_seed": 7}}, "challenge_bad_options"),
        ("bullet", {"options": {"win_target": 5}}, "challenge_bad_options"),
    ],
)
def test_settings_not_offered_are_refused_and_change_nothing(game: str, changes: dict, code: str) -> None:
    ch = opened(game)
    with pytest.raises(ChallengeRefusal) as refused:
        c.propose(ch, BERT.user_id, dataclasses.replace(ch.settings, **changes), T0 + 1)
    assert refused.value.code == code
    assert ch.version == 1 and ch.agreed == {1}


def test_ohne_uhr_and_stakes_where_allowed() -> None:
    ch = opened("hexagon")
    ch = c.propose(ch, ANNA.user_id, dataclasses.replace(ch.settings, clock="ohne", stake=100), T0 + 1)
    assert ch.clock() is None and ch.settings.stake == 100
    assert c.open_challenge(ANNA, BERT, "bullet", T0).clock() == {"base_ms": 300_000, "inc_ms": 3_000}


def test_decline_withdraw_and_outsiders() -> None:
    assert c.decline(opened(), BERT.user_id, T0 + 1).status == "declined"
    assert c.decline(opened(), ANNA.user_id, T0 + 1).status == "withdrawn"
    with pytest.raises(ChallengeRefusal) as outsider:
        c.accept(opened(), CARL.user_id, 1, T0 + 1)
    assert outsider.value.code == "challenge_not_yours"
    with pytest.raises(ChallengeRefusal) as itself:
        c.open_challenge(ANNA, ANNA, "hexagon", T0)
    assert itself.value.code == "challenge_self"


def test_accepting_a_withdrawn_or_expired_challenge_is_refused() -> None:
    withdrawn = c.decline(opened(), ANNA.user_id, T0 + 1)
    with pytest.raises(ChallengeRefusal) as closed:
        c.accept(withdrawn, BERT.user_id, 1, T0 + 2)
    assert closed.value.code == "challenge_closed" and closed.value.params == {"status": "withdrawn"}
    late = T0 + c.EXPIRY_SECONDS
    with pytest.raises(ChallengeRefusal) as expired:
        c.accept(opened(), BERT.user_id, 1, late)
    assert expired.value.params == {"status": "expired"}


def test_expiry_counts_from_the_last_activity() -> None:
    ch = c.propose(opened(), BERT.user_id, dataclasses.replace(opened().settings, clock="3+2"), T0 + 50)
    assert c.expire(ch, T0 + c.EXPIRY_SECONDS) is None  # activity at +50 keeps it alive
    gone = c.expire(ch, T0 + 50 + c.EXPIRY_SECONDS)
    assert gone is not None and gone.status == "expired"
    assert c.expire(gone, T0 + 1000) is None  # already closed


def test_start_once_and_failed_start_reopens_for_new_agreement() -> None:
    agreed = c.accept(opened(), BERT.user_id, 1, T0 + 1)
    started = c.started(agreed, 42, T0 + 2)
    assert started.status == "started" and started.game_id == 42
    with pytest.raises(ChallengeRefusal):
        c.started(started, 43, T0 + 3)
    failed = c.start_failed(agreed, "challenge_stake_too_high", T0 + 2)
    assert failed.status == "open" and failed.agreed == frozenset() and failed.version == 2
    assert failed.reason == "challenge_stake_too_high"


def test_rematch_swaps_colours() -> None:
    previous = {"clock": "3+2", "options": {"map": "krater", "end_rule": "aussetzen"}, "rated": True, "stake": 20}
    # Anna began last time (seat 0) and asks for the rematch: now Bert begins.
    settings = c.rematch_settings("hexagon", previous, (1, 2), challenger=1)
    ch = c.open_challenge(ANNA, BERT, "hexagon", T0, settings=settings, rematch_of=9)
    assert ch.seats() == (2, 1) and ch.settings.clock == "3+2" and ch.settings.stake == 20
    # Bert (seat 1 last time) asks: he is the challenger and takes seat 0.
    by_bert = c.open_challenge(BERT, ANNA, "hexagon", T0, settings=c.rematch_settings("hexagon", previous, (1, 2), challenger=2))
    assert by_bert.seats() == (2, 1)


def test_json_round_trip() -> None:
    ch = c.propose(opened(), BERT.user_id, dataclasses.replace(opened().settings, stake=30), T0 + 3)
    assert c.Challenge.from_json(ch.to_json()) == ch


def test_battlegeneral_challenger_plays_blue_without_a_clock() -> None:
    """Seed 002: the challenger plays Blue, the accepting player Red, and Red begins; five minutes a move."""
    ch = c.accept(opened("general"), BERT.user_id, 1, T0 + 5)
    assert ch.settings.clock == "ohne" and ch.clock() is None
    assert ch.seats() == (BERT.user_id, ANNA.user_id)  # Bert accepted: Red, seat 0
    swapped = dataclasses.replace(ch, settings=dataclasses.replace(ch.settings, swap=True))
    assert swapped.seats() == (ANNA.user_id, BERT.user_id)
    # After a game in which Bert was Red, a rematch gives Anna Red, whoever asks for it.
    previous = {"clock": "ohne", "options": ch.settings.options, "rated": True, "stake": 0}
    for asker, other in ((ANNA, BERT), (BERT, ANNA)):
        settings = c.rematch_settings("general", previous, (BERT.user_id, ANNA.user_id), challenger=asker.user_id)
        rematch = c.open_challenge(asker, other, "general", T0, settings=settings, rematch_of=9)
        assert rematch.seats() == (ANNA.user_id, BERT.user_id)
