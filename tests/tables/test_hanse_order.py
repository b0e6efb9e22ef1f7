"""Who begins Battlehanse matches started from the Wartesaal (seed 000): "Beginner
tauschen legt fest, wer die erste Runde beginnt" and "Bei der Revanche beginnt der
andere" — through the lobby's own start (``challenge_start.start_game``) and the
engine the game service referees with.  (Within a match the loser of a round begins
the next: ``tests/tables/test_hanse.py`` checks that at the running table.)
"""

from __future__ import annotations

import dataclasses
import time

import pytest

from services.lobby.challenge_start import start_game
from shared import accounts
from shared.challenge import Party, accept, default_settings, open_challenge, rematch_settings
from shared.games import get_game
from tests.table_client import load, players

ENGINE = get_game("hanse")


def party(account: accounts.Account) -> Party:
    return Party(account.id, account.name)


def started(pool, challenger: accounts.Account, challenged: accounts.Account, settings) -> int:  # noqa: ANN001
    """Both agree to ``settings``; the lobby starts the game."""
    now = time.time()
    challenge = open_challenge(party(challenger), party(challenged), "hanse", now, settings=settings)
    challenge = accept(challenge, challenged.id, challenge.version, now)
    assert challenge.status == "agreed"
    return start_game(pool, challenge)


def first_round_beginner(pool, game_id: int) -> int:  # noqa: ANN001
    """The user who moves first in round 1 of the table's match."""
    row = load(pool, game_id)
    view = ENGINE.view(ENGINE.new_game(row.options, row.seed), None)
    assert view["round"] == 1 and view["to_move"] == [view["starter"]]
    return row.seats[view["starter"]]


def revanche(pool, game_id: int, asker: accounts.Account, other: accounts.Account) -> int:  # noqa: ANN001
    row = load(pool, game_id)
    previous = {"clock": "5+3", "options": row.options, "rated": row.rated, "stake": row.stake}
    settings = rematch_settings("hanse", previous, row.seats, asker.id)
    return started(pool, asker, other, settings)


@pytest.mark.parametrize("first", [0, 1])
def test_beginner_tauschen_decides_round_one_and_at_the_revanche_the_other_begins(pool, first: int) -> None:  # noqa: ANN001
    anna, bert = players(pool, 2)
    base = dataclasses.replace(default_settings("hanse"), options={**default_settings("hanse").options, "first": first})
    plain = started(pool, anna, bert, dataclasses.replace(base, swap=False))
    swapped = started(pool, anna, bert, dataclasses.replace(base, swap=True))
    # ⇄ Beginner tauschen turns who begins, whatever the seats' option says.
    assert {first_round_beginner(pool, plain), first_round_beginner(pool, swapped)} == {anna.id, bert.id}
    assert (first_round_beginner(pool, plain) == anna.id) == (first == 0)
    for game_id in (plain, swapped):
        beginner = first_round_beginner(pool, game_id)
        # Whoever asks for the Revanche, the other player begins it — and the one after it, the first again.
        for asker, other in ((anna, bert), (bert, anna)):
            again = revanche(pool, game_id, asker, other)
            assert first_round_beginner(pool, again) != beginner
            third = revanche(pool, again, other, asker)
            assert first_round_beginner(pool, third) == beginner
