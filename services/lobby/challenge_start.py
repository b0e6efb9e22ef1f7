"""Starting the game two players agreed on: one PostgreSQL transaction.

In it: both players' user rows are locked (in id order, so two starts never
deadlock), both balances are re-checked against the stake, the game row is created
(``shared.game_store.create_game``), both stakes leave the balances
(``shared.ledger``), and ``challenge_starts`` records the challenge, whose primary
key makes a second start of the same challenge fail whatever Redis believed.
Either everything commits or nothing does.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import psycopg
from psycopg_pool import ConnectionPool

from shared import game_store, ledger
from shared.challenge import Challenge, ChallengeRefusal, Party

STAKE_REASON = "stake"


def stake_ref(game_id: int) -> str:
    """The ledger ``ref`` of every Taler movement belonging to a game (stakes, pot, returns)."""
    return f"game:{game_id}"


def balances(conn: psycopg.Connection, user_ids: list[int]) -> dict[int, int]:
    rows = conn.execute(
        "SELECT u.id, COALESCE(SUM(t.amount), 0) AS balance FROM users u"
        " LEFT JOIN taler_ledger t ON t.user_id = u.id WHERE u.id = ANY(%s) GROUP BY u.id",
        (user_ids,),
    ).fetchall()
    return {int(r["id"]): int(r["balance"]) for r in rows}


def refuse_guest_stake(conn: psycopg.Connection, parties: list[Party], stake: int) -> None:
    """Refuse a stake (naming who) when a player is a guest: guests hold no Taler (``shared.accounts``)."""
    if stake <= 0:
        return
    guests = {int(r["id"]) for r in conn.execute("SELECT id FROM users WHERE id = ANY(%s) AND is_guest",
                                                  ([p.user_id for p in parties],)).fetchall()}
    for party in parties:
        if party.user_id in guests:
            raise ChallengeRefusal("challenge_guest_stake", name=party.name)


def require_stake(conn: psycopg.Connection, parties: list[Party], stake: int) -> None:
    """Refuse (naming who) when a player is a guest or holds less than the stake."""
    if stake <= 0:
        return
    refuse_guest_stake(conn, parties, stake)
    held = balances(conn, [p.user_id for p in parties])
    for party in parties:
        if held.get(party.user_id, 0) < stake:
            raise ChallengeRefusal("challenge_stake_too_high", name=party.name, balance=held.get(party.user_id, 0),
                                   stake=stake)


def check_stake(pool: ConnectionPool, parties: list[Party], stake: int, *, guests_among: Sequence[Party] = ()) -> None:
    """The balance check at a proposal and at acceptance, before anything changes; ``guests_among``:
    further players who only must not be guests (the other side of a proposal)."""
    with pool.connection() as conn:
        refuse_guest_stake(conn, [*parties, *guests_among], stake)
        require_stake(conn, parties, stake)


def existing_game(pool: ConnectionPool, challenge_id: str) -> int | None:
    """The game a challenge started, if its start committed."""
    with pool.connection() as conn:
        row = conn.execute("SELECT game_id FROM challenge_starts WHERE challenge_id = %s", (challenge_id,)).fetchone()
    return int(row["game_id"]) if row else None


def start_game(pool: ConnectionPool, challenge: Challenge) -> int:
    """Create the agreed game and take both stakes; return the game id."""
    seats = challenge.seats()
    stake = challenge.settings.stake if challenge.settings.rated else 0
    with pool.connection() as conn, conn.transaction():
        conn.execute("SELECT id FROM users WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (list(seats),))
        require_stake(conn, list(challenge.parties()), stake)
        game_id = game_store.create_game(
            conn, game=challenge.game, options=challenge.settings.options, seed=secrets.randbits(31),
            seats=seats, mode="wartesaal", clock=challenge.clock(), rated=challenge.settings.rated, stake=stake,
        )
        conn.execute("INSERT INTO challenge_starts (challenge_id, game_id) VALUES (%s, %s)", (challenge.id, game_id))
        if stake:
            for user_id in seats:
                ledger.record(conn, user_id, -stake, STAKE_REASON, stake_ref(game_id))
    return game_id
