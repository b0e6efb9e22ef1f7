"""The ``games`` rows of the tables: creating, loading and writing them.

Everything here runs on the caller's connection and inside the caller's transaction,
so the lobby can debit both stakes in the same transaction that creates the game,
and the game service can write a move and the outbox event of a finished game
together.  Loading with ``lock=True`` takes the table's row lock (``FOR UPDATE``):
the one thing that keeps two moves on one table from racing, whichever game-service
process handles them.

A table replays exactly from ``(game, options, seed, moves, move_seats)`` (see
migration 0003); ``move_times`` (ms per move), ``remaining_ms`` and
``turn_started_at`` let any process recompute the clocks after a restart.

Every row carries PostgreSQL's ``xmin`` (the transaction that wrote this version of
the row): a game-service process that cached a row writes the next move with one
statement guarded by it (:func:`append_moves`, which writes the moves of many tables
at once), so a write by anyone else since, even one that left ``version`` alone, makes
that statement change nothing for that row.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import orjson
import psycopg
from psycopg.types.json import Jsonb

from shared.clock import Clock, initial_quota_ms
from shared.games import get_game

MODES = ("wartesaal", "computer", "same_device")
STRENGTHS = ("leicht", "mittel", "stark")

_COLUMNS = (
    "id, game, options, seed, seat0_user_id, seat1_user_id, mode, strength, base_ms, inc_ms, rated, stake,"
    " moves, move_seats, move_times, remaining_ms, lag_quota_ms, turn_started_at, version, draw_offer,"
    " takeback_offer, status, result, created_at, finished_at, reshuffles, takeback_declines,"
    " takeback_declined_at, sealed_until, xmin::text::bigint AS xmin"
)
# What a write returns: the row version's new xmin.
_RETURNING_XMIN = " RETURNING xmin::text::bigint AS xmin"


@dataclass(frozen=True)
class GameRow:
    """One ``games`` row as the table code reads it."""

    id: int
    game: str
    options: dict[str, Any]
    seed: int
    seats: tuple[int | None, int | None]  # user ids; None is the computer
    mode: str
    strength: str | None
    clock: Clock | None
    rated: bool
    stake: int
    moves: list[str]
    move_seats: list[int | None]
    move_times: list[int]
    remaining_ms: list[int] | None
    lag_quota_ms: list[int]
    turn_started_at: dt.datetime
    version: int
    draw_offer: int | None
    takeback_offer: int | None
    status: str
    result: dict[str, Any] | None
    created_at: dt.datetime
    finished_at: dt.datetime | None
    # Zug zurück at a computer table mixed the unseen cards: (ply, seed) each (migration 0007).
    reshuffles: tuple[tuple[int, int], ...] = ()
    # ↶ Zurück requests of each seat declined in this game, and when the last was (migration 0013).
    takeback_declines: tuple[int, int] = (0, 0)
    takeback_declined_at: tuple[dt.datetime | None, dt.datetime | None] = (None, None)
    # Until then the game's deal is others' too: after its end only what play showed (migration 0020).
    sealed_until: dt.datetime | None = None
    # The transaction that wrote this version of the row (0: not known; matches no row).
    xmin: int = 0

    @property
    def running(self) -> bool:
        return self.status == "running"

    def seats_of(self, user_id: int) -> list[int]:
        """The seats ``user_id`` holds (both at a same-device table)."""
        return [seat for seat, uid in enumerate(self.seats) if uid == user_id]


def _row(data: dict[str, Any]) -> GameRow:
    clock = Clock(data["base_ms"], data["inc_ms"]) if data["base_ms"] is not None else None
    remaining = [int(v) for v in data["remaining_ms"]] if data["remaining_ms"] is not None else None
    return GameRow(
        id=data["id"], game=data["game"], options=data["options"], seed=data["seed"],
        seats=(data["seat0_user_id"], data["seat1_user_id"]), mode=data["mode"], strength=data["strength"],
        clock=clock, rated=data["rated"], stake=data["stake"], moves=list(data["moves"]),
        move_seats=list(data["move_seats"]), move_times=list(data["move_times"]), remaining_ms=remaining,
        lag_quota_ms=list(data["lag_quota_ms"]), turn_started_at=data["turn_started_at"],
        version=data["version"], draw_offer=data["draw_offer"], takeback_offer=data["takeback_offer"],
        status=data["status"], result=data["result"], created_at=data["created_at"],
        finished_at=data["finished_at"],
        reshuffles=tuple((int(ply), int(seed)) for ply, seed in data.get("reshuffles") or ()),
        takeback_declines=tuple(data.get("takeback_declines") or (0, 0)),
        takeback_declined_at=tuple(data.get("takeback_declined_at") or (None, None)),
        sealed_until=data.get("sealed_until"),
        xmin=int(data.get("xmin") or 0),
    )


def _fetch(conn: psycopg.Connection, sql: str, params: tuple) -> list[dict[str, Any]]:
    # Works whatever row factory the caller's connection uses; fetch first, since in
    # pipeline mode the description is known only once the results arrived.
    cur = conn.execute(sql, params)
    rows = cur.fetchall()
    names = [col.name for col in cur.description]
    return [row if isinstance(row, dict) else dict(zip(names, row, strict=True)) for row in rows]


def create_game(conn: psycopg.Connection, *, game: str, options: dict[str, Any], seed: int,
                seats: tuple[int | None, int | None] | list[int | None], mode: str,
                clock: dict[str, int] | Clock | None, rated: bool, stake: int,
                strength: str | None = None, initial_lag_quota_ms: tuple[int, int] | None = None,
                sealed_until: dt.datetime | None = None) -> int:
    """Insert a running game and return its id, inside the caller's transaction.

    ``options`` are normalized by the engine (``BadOptions`` for anything it does not
    offer); ``clock`` is ``{"base_ms", "inc_ms"}`` or None for "ohne Uhr" (ten
    minutes per move).  ``seats`` are two user ids, None for the computer's seat.
    The clock of the side to move starts now.  ``sealed_until``: the deal is others'
    too until then (see :attr:`GameRow.sealed_until`).
    """
    engine = get_game(game)
    options = engine.normalize_options(dict(options))
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    if len(seats) != 2:
        raise ValueError("two seats")
    if (mode == "computer") != (None in seats) or (mode == "computer" and seats.count(None) != 1):
        raise ValueError("a computer table has exactly one computer seat (None); other tables none")
    if mode == "computer" and strength not in STRENGTHS:
        raise ValueError(f"strength must be one of {STRENGTHS}")
    if stake < 0 or (stake and not rated):
        raise ValueError("stakes only in rated games")
    if isinstance(clock, dict) or clock is None:
        clock = Clock.from_dict(clock)
    if initial_lag_quota_ms is None:
        quota = initial_quota_ms(clock)
        initial_lag_quota_ms = (quota, quota)
    remaining = [clock.base_ms, clock.base_ms] if clock else None
    rows = _fetch(
        conn,
        "INSERT INTO games (game, options, seed, seat0_user_id, seat1_user_id, mode, strength, base_ms, inc_ms,"
        " rated, stake, remaining_ms, lag_quota_ms, turn_started_at, sealed_until)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, clock_timestamp(), %s) RETURNING id",
        (game, Jsonb(options), seed, seats[0], seats[1], mode, strength if mode == "computer" else None,
         clock.base_ms if clock else None, clock.inc_ms if clock else None, rated, stake, remaining,
         list(initial_lag_quota_ms), sealed_until),
    )
    return int(rows[0]["id"])


def load(conn: psycopg.Connection, game_id: int, *, lock: bool = False) -> GameRow | None:
    """The row of ``game_id`` (None if there is none); ``lock`` takes its row lock till commit."""
    rows = _fetch(conn, f"SELECT {_COLUMNS} FROM games WHERE id = %s" + (" FOR UPDATE" if lock else ""),
                  (game_id,))
    return _row(rows[0]) if rows else None


def db_now(conn: psycopg.Connection) -> dt.datetime:
    """The database's wall clock: the one time every game-service process agrees on."""
    return _fetch(conn, "SELECT clock_timestamp() AS now", ())[0]["now"]


def write_turn(conn: psycopg.Connection, game_id: int, *, moves: list[str], move_seats: list[int | None],
               move_times: list[int], remaining_ms: list[int] | None, lag_quota_ms: list[int],
               turn_started_at: dt.datetime, version: int, draw_offer: int | None,
               takeback_offer: int | None) -> int:
    """Store the table after a move, an undo or a takeback (the whole move log at once); the new xmin."""
    return _xmin_of(conn.execute(
        "UPDATE games SET moves = %s, move_seats = %s, move_times = %s, remaining_ms = %s, lag_quota_ms = %s,"
        " turn_started_at = %s, version = %s, draw_offer = %s, takeback_offer = %s WHERE id = %s" + _RETURNING_XMIN,
        (moves, move_seats, move_times, remaining_ms, lag_quota_ms, turn_started_at, version, draw_offer,
         takeback_offer, game_id),
    ))


def _xmin_of(cur: psycopg.Cursor) -> int:
    row = cur.fetchone()
    if row is None:
        return 0
    return int(row["xmin"] if isinstance(row, dict) else row[0])


@dataclass(frozen=True)
class MoveAppend:
    """One move to append to a row that must still be the version written by ``expected_xmin``."""

    game_id: int
    expected_xmin: int
    move: str
    seat: int | None  # None: nobody (a table move such as "weiter") or the computer
    spent_ms: int
    remaining_ms: list[int] | None  # [seat 0, seat 1]; None without a clock
    lag_quota_ms: list[int]  # [seat 0, seat 1]
    turn_started_at: dt.datetime
    version: int


# One statement for a batch of moves: the moves arrive as one JSON array of objects, a
# single text parameter.  psycopg adapts a list parameter element by element: with twelve
# parallel arrays (unnest) this process spent 1.6-1.7× the CPU per statement for two or
# three moves (``python -m bench.move_append``).  The text never changes with the batch
# size, so psycopg prepares it once.  The ids again as an array let the planner find the rows
# by the primary key: it takes json_to_recordset for a hundred rows whatever it holds,
# and would otherwise hash the moves and scan every row of ``games``.
_APPEND_MOVES = (
    "UPDATE games AS g SET moves = array_append(g.moves, v.move),"
    " move_seats = array_append(g.move_seats, v.seat), move_times = array_append(g.move_times, v.spent),"
    " remaining_ms = CASE WHEN v.timed THEN ARRAY[v.r0, v.r1] END, lag_quota_ms = ARRAY[v.q0, v.q1],"
    " turn_started_at = v.turn_started_at, version = v.version, draw_offer = NULL, takeback_offer = NULL"
    " FROM json_to_recordset(%s::json) AS v(id bigint, expected_xmin bigint, move text, seat smallint,"
    " spent integer, timed boolean, r0 integer, r1 integer, q0 integer, q1 integer, turn_started_at timestamptz,"
    " version integer)"
    " WHERE g.id = ANY(%s::bigint[]) AND g.id = v.id AND g.xmin = v.expected_xmin::text::xid"
    " AND g.status = 'running'"
    " RETURNING g.id, g.xmin::text::bigint AS xmin"
)


# A batch of one, the common case below a few hundred moves a second: the same write with
# plain parameters, which PostgreSQL plans as one index update (the batch form costs its
# backend 1.8× the CPU for one move: ``python -m bench.move_append``).
_APPEND_MOVE = (
    "UPDATE games SET moves = array_append(moves, %s::text), move_seats = array_append(move_seats, %s::smallint),"
    " move_times = array_append(move_times, %s::integer), remaining_ms = %s::integer[], lag_quota_ms = %s::integer[],"
    " turn_started_at = %s, version = %s, draw_offer = NULL, takeback_offer = NULL"
    " WHERE id = %s AND xmin = %s::text::xid AND status = 'running'"
    " RETURNING id, xmin::text::bigint AS xmin"
)


def _append_rows(moves: list[MoveAppend]) -> str:
    """The moves as :data:`_APPEND_MOVES` reads them (times in ISO 8601 with their offset)."""
    return orjson.dumps([
        {"id": m.game_id, "expected_xmin": m.expected_xmin, "move": m.move, "seat": m.seat, "spent": m.spent_ms,
         "timed": m.remaining_ms is not None, "r0": m.remaining_ms[0] if m.remaining_ms is not None else None,
         "r1": m.remaining_ms[1] if m.remaining_ms is not None else None, "q0": m.lag_quota_ms[0],
         "q1": m.lag_quota_ms[1], "turn_started_at": m.turn_started_at, "version": m.version}
        for m in moves
    ]).decode()


def append_moves(conn: psycopg.Connection, moves: list[MoveAppend]) -> dict[int, int]:
    """Append each move to its row if that row is still exactly the version it expects.

    One statement, one round trip, one transaction on an autocommit connection (the
    row locks are taken and released inside it).  Returns game id → new xmin for the
    rows written; a game missing from the answer changed meanwhile (another process,
    another write) and got nothing.  Offers lapse with a move, as in :func:`write_turn`.

    At most one move per game: PostgreSQL's ``UPDATE … FROM`` with two source rows
    for one target row writes one of them, unpredictably which."""
    if not moves:
        return {}
    if len({m.game_id for m in moves}) != len(moves):
        raise ValueError("at most one move per game in one statement")
    if any(len(m.lag_quota_ms) != 2 or (m.remaining_ms is not None and len(m.remaining_ms) != 2) for m in moves):
        raise ValueError("clocks and lag quotas are [seat 0, seat 1]")
    if len(moves) == 1:
        m = moves[0]
        return _xmins(conn.execute(_APPEND_MOVE, (m.move, m.seat, m.spent_ms, m.remaining_ms, list(m.lag_quota_ms),
                                                  m.turn_started_at, m.version, m.game_id, str(m.expected_xmin))))
    return _xmins(conn.execute(_APPEND_MOVES, (_append_rows(moves), [m.game_id for m in moves])))


def _xmins(cur: psycopg.Cursor) -> dict[int, int]:
    return {int(r["id"] if isinstance(r, dict) else r[0]): int(r["xmin"] if isinstance(r, dict) else r[1])
            for r in cur.fetchall()}


def write_offers(conn: psycopg.Connection, game_id: int, *, version: int, draw_offer: int | None,
                 takeback_offer: int | None) -> int:
    """Store the open offers; the new xmin."""
    return _xmin_of(conn.execute(
        "UPDATE games SET version = %s, draw_offer = %s, takeback_offer = %s WHERE id = %s" + _RETURNING_XMIN,
        (version, draw_offer, takeback_offer, game_id),
    ))


def write_takeback_backoff(conn: psycopg.Connection, game_id: int, *, declines: tuple[int, int],
                           declined_at: tuple[dt.datetime | None, dt.datetime | None]) -> int:
    """Each seat's count of declined ↶ Zurück requests and the last decline's time; the new xmin."""
    return _xmin_of(conn.execute(
        "UPDATE games SET takeback_declines = %s, takeback_declined_at = %s::timestamptz[] WHERE id = %s"
        + _RETURNING_XMIN,
        (list(declines), list(declined_at), game_id),
    ))


def finish(conn: psycopg.Connection, game_id: int, *, result: dict[str, Any], record: str | None,
           remaining_ms: list[int] | None, version: int, finished_at: dt.datetime,
           status: str = "finished") -> int:
    """Mark the game over with ``result`` (winner, reason, de, en, score); the new xmin."""
    return _xmin_of(conn.execute(
        "UPDATE games SET status = %s, result = %s, record = %s, remaining_ms = %s, version = %s,"
        " draw_offer = NULL, takeback_offer = NULL, finished_at = %s WHERE id = %s" + _RETURNING_XMIN,
        (status, Jsonb(result), record, remaining_ms, version, finished_at, game_id),
    ))


def running_ids(conn: psycopg.Connection, after_id: int = 0) -> list[int]:
    """Ids of running games above ``after_id``, ascending."""
    return [r["id"] for r in _fetch(conn, "SELECT id FROM games WHERE status = 'running' AND id > %s ORDER BY id",
                                    (after_id,))]


def live_games(conn: psycopg.Connection, limit: int = 200) -> list[dict[str, Any]]:
    """Running Wartesaal games with the players' names, newest first."""
    return _fetch(
        conn,
        "SELECT g.id, g.game, g.options, g.rated, g.stake, g.base_ms, g.inc_ms, g.created_at,"
        " cardinality(g.moves) AS plies, g.seat0_user_id, g.seat1_user_id, u0.name AS seat0_name,"
        " u1.name AS seat1_name FROM games g LEFT JOIN users u0 ON u0.id = g.seat0_user_id"
        " LEFT JOIN users u1 ON u1.id = g.seat1_user_id"
        " WHERE g.status = 'running' AND g.mode = 'wartesaal' ORDER BY g.created_at DESC LIMIT %s",
        (limit,),
    )


def finished_games_of(conn: psycopg.Connection, user_id: int, limit: int = 200) -> list[dict[str, Any]]:
    """``user_id``'s finished games (every mode), newest first."""
    return _fetch(
        conn,
        "SELECT g.id, g.game, g.options, g.mode, g.strength, g.rated, g.stake, g.base_ms, g.inc_ms, g.result,"
        " g.created_at, g.finished_at, cardinality(g.moves) AS plies, g.seat0_user_id, g.seat1_user_id,"
        " u0.name AS seat0_name, u1.name AS seat1_name,"
        " EXISTS (SELECT 1 FROM hanse_daily_attempts a WHERE a.game_id = g.id) AS daily FROM games g"
        " LEFT JOIN users u0 ON u0.id = g.seat0_user_id LEFT JOIN users u1 ON u1.id = g.seat1_user_id"
        " WHERE g.status = 'finished' AND (g.seat0_user_id = %s OR g.seat1_user_id = %s)"
        " ORDER BY g.finished_at DESC LIMIT %s",
        (user_id, user_id, limit),
    )


def user_names(conn: psycopg.Connection, user_ids: list[int]) -> dict[int, str]:
    rows = _fetch(conn, "SELECT id, name FROM users WHERE id = ANY(%s)", ([u for u in user_ids if u is not None],))
    return {r["id"]: r["name"] for r in rows}


def people(conn: psycopg.Connection, user_ids: list[int | None], game: str) -> dict[int, dict[str, Any]]:
    """Name and Elo in ``game`` of each user (Elo 1500, the start value, before a first rated game)."""
    rows = _fetch(
        conn,
        "SELECT u.id, u.name, COALESCE(r.elo, 1500) AS elo FROM users u"
        " LEFT JOIN ratings r ON r.user_id = u.id AND r.game = %s WHERE u.id = ANY(%s)",
        (game, [u for u in user_ids if u is not None]),
    )
    return {r["id"]: {"name": r["name"], "elo": r["elo"]} for r in rows}
