"""The authoritative table: parse → authorize → engine → persist, one transaction each.

Every action on a table runs in one PostgreSQL transaction that begins by taking the
table's row lock (``SELECT … FOR UPDATE``), so two actions on one table never race,
whichever game-service processes receive them.  Inside, the clock is checked first
(a flag that fell before the action arrived ends the game on time), then the action
is authorized and handed to the engine, and the whole table is written back.  A game
that ends writes its result and the ``game_finished`` outbox event in the same
transaction.  What happens after the commit (publishing, flag deadlines, computer
moves, presence) is the listener's (:class:`TableListener`), through ``settled``.

The common move on a table that one process alone serves (``may_show_first``: both
players' sockets there, as a deployment that routes by table keeps them) is shown
before it is written: the players and spectators on this process's sockets see it
(``shown``) as soon as the engine accepted it on the row this process last wrote,
while its one UPDATE is on its way; everything beyond the process (the other
processes' sockets, the flag deadline, the computer, the rating) hears of it only after
the commit.  A PostgreSQL round trip is then no longer between a
move and its sight: under load it was most of the time from one player's move to the
other's screen (bench/tables.py).  What that costs:

- If the UPDATE finds the row changed meanwhile (a flag or a claim another process
  decided in the same instant) or the database unreachable, the move is decided again
  under the row lock.  Refused there, this process's sockets are sent the table as it
  truly stands (``retracted``), and the mover gets the refusal.
- While a move is on its way, everything else on that table in this process (a join, a
  resignation, a flag, a second move) waits for the write: nobody here reads a table
  older than what its sockets were shown.
- A process that dies in those milliseconds loses the move it showed: its players,
  reconnected, see the table as stored and move again (lichess keeps its live games in
  memory and writes them every 30 s; here it is one move, for about a millisecond).  A
  process told to stop writes every move first (``stop_showing_first``).
  Game ends, flags, round pauses and refusals are never shown before their commit.

Nothing here touches sockets or Redis: it is tested through the real service.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import psycopg
from psycopg_pool import ConnectionPool

from services.game.rules import takeback_backoff
from services.game.rules.deadlines import clock_seat, flag_deadline
from services.game.rules.move_limits import minutes_text, per_move_limit_ms
from services.game.rules.round_pause import in_round_pause, pause_deadline, pause_end_move, player_may_end_pause
from services.game.rules.undo_reshuffle import reshuffles_after_undo
from services.game.tables.move_writer import MoveWriter
from services.game.tables.refusals import TableRefusal
from services.game.tables.row_cache import RowCache
from shared import clock, game_store, outbox
from shared.game_store import GameRow, MoveAppend
from shared.games import get_game
from shared.games.base import GameError, Outcome
from shared.games.table_reason import TableReason
from shared.schemas.outbox_events import GAME_FINISHED, GameFinished
from shared.table_replay import StateCache

log = logging.getLogger("game.table")

# Results the table itself decides (the engine decides the game's own ends).
RESULT_TEXTS: dict[TableReason, tuple[str, str]] = {
    TableReason.TIME: ("Zeit abgelaufen", "Time out"),
    TableReason.MOVE_TIME: ("Zugzeit überschritten (10 Minuten)", "Move time exceeded (10 minutes)"),
    TableReason.RESIGNED: ("Aufgegeben", "Resigned"),
    TableReason.DRAW_AGREED: ("Remis vereinbart", "Draw agreed"),
    TableReason.LEFT: ("Partie verlassen", "Left the game"),
    TableReason.LEFT_DRAW: ("Remis: der Gegner hat die Partie verlassen", "Draw: the opponent left the game"),
}


@dataclass(frozen=True)
class Settled:
    """A table after a committed change: its row, its engine state, and whether it just ended."""

    row: GameRow
    state: Any
    finished_now: bool = False
    started_now: bool = False
    # What this process's sockets were shown before the commit (TableListener.shown): sent on, not built again.
    shown: list[dict[str, Any]] | None = field(default=None, compare=False, repr=False)


def _ms(delta: dt.timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def now_utc() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def result_of(reason: TableReason, winner: int | None) -> dict[str, Any]:
    de, en = RESULT_TEXTS[reason]
    return {"winner": winner, "reason": str(reason), "de": de, "en": en, "score": None}


def time_result(row: GameRow, loser: int) -> dict[str, Any]:
    """Lost on time: the chess clock fell (``zeit``) or the move time ran out (``zugzeit``)."""
    limit = per_move_limit_ms(row)
    if row.clock is not None or limit is None:
        return result_of(TableReason.TIME, 1 - loser)
    result = result_of(TableReason.MOVE_TIME, 1 - loser)
    # The allowance differs by game (Battlegeneral: five minutes), so the text names it.
    de, en = minutes_text(limit)
    result["de"], result["en"] = f"Zugzeit überschritten ({de})", f"Move time exceeded ({en})"
    return result


class TableListener(Protocol):
    """Where a table's changes go beyond the table: in the game service, to the publisher, the
    flag deadlines, the computer and the players' presence (services.game.table_reactions)."""

    def settled(self, settled: Settled) -> None:
        """After each commit that changed the table (and after a table was created): tell everyone."""

    def may_show_first(self, game_id: int) -> bool:
        """Whether a move on the table may be shown before its commit (only one process serves it)."""

    def shown(self, settled: Settled) -> list[dict[str, Any]] | None:
        """A move before its commit, to this process's sockets: what was sent (Settled.shown)."""

    def retracted(self, tables: Tables, game_id: int) -> None:
        """A shown move that was refused after all: the table as it stands (read through
        ``tables``) to this process's sockets."""


class Tables:
    """Every action on a table, against PostgreSQL; ``listener.settled`` runs after each commit."""

    def __init__(self, pool: ConnectionPool, cache: StateCache, listener: TableListener) -> None:
        self.pool = pool
        self.cache = cache
        self.writer = MoveWriter(pool)  # the moves on cached rows, group-committed
        self.rows = RowCache()
        self.listener = listener
        self._stopping = False  # see stop_showing_first
        # game id → set once its move on the cached row is written (or not); shown first or not, others wait
        self._unwritten: dict[int, threading.Event] = {}

    # ---- the transaction frame -------------------------------------------------------
    def _locked(self, game_id: int, act: Callable[[Any, GameRow, Any, dt.datetime], Settled | None]) -> Settled:
        """Run ``act(conn, row, state, now)`` under the table's row lock; flags first.

        Whatever it committed (or found, when refused) becomes the row cached for the
        next move; a failure drops the cached row, so the next move reads the table.

        The pool does not test connections before lending them (that is a round trip per
        move); a connection that died meanwhile fails here once, and the action is tried
        again on a fresh one.  Trying again is safe: an action that did commit is then
        refused as stale, since every change moves the table's version on."""
        try:
            return self._locked_once(game_id, act)
        except psycopg.OperationalError:
            self.rows.forget(game_id)
            log.warning("database connection lost; trying table %s again", game_id)
            return self._locked_once(game_id, act)
        except TableRefusal:
            raise
        except Exception:
            self.rows.forget(game_id)
            raise

    def _locked_once(self, game_id: int, act: Callable[[Any, GameRow, Any, dt.datetime], Settled | None]) -> Settled:
        self.until_written(game_id)
        refusal: TableRefusal | None = None
        # (psycopg's pipeline mode would save two round trips, but under gevent it
        # measured slower: its wait loop spins on the always-writable socket.)
        with self.pool.connection() as conn, conn.transaction():
            row = game_store.load(conn, game_id, lock=True)
            if row is None:
                raise TableRefusal("unknown_table")
            state = self.cache.state(row)
            now = now_utc()
            written = self._end_pause_if_due(conn, row, state, now)
            if written is not None:  # the action then meets the next round, at the new version
                row, state = written.row, written.state
            settled = self._flag_if_due(conn, row, state, now)
            if settled is None:
                try:
                    settled = act(conn, row, state, now)
                except TableRefusal as exc:
                    # Refused: nothing written; the caller learns the state unchanged.
                    refusal = exc
                    settled = Settled(row, state)
                    if exc.current_game_id is None:
                        raise
            else:
                refusal = TableRefusal("table_finished", current_game_id=game_id)
        if written is not None and settled.row is row:
            settled = written  # only the pause ended: that is what the others must hear
        self.rows.put(settled.row)  # committed: the next move may start from it
        if settled.row is not row or written is not None:  # something was written
            self.listener.settled(settled)
        if refusal is not None:
            raise refusal
        return settled

    def _end_pause_if_due(self, conn: Any, row: GameRow, state: Any, now: dt.datetime) -> Settled | None:
        """A round pause whose countdown ran out: the table plays the move that ends it."""
        deadline = pause_deadline(row, state)
        if deadline is None or now < deadline:
            return None
        text = pause_end_move(row, state)
        new_state = get_game(row.game).apply(state, text, None)
        return self._after_move(conn, row, state, new_state, now, None, text, 0, False)

    def _flag_if_due(self, conn: Any, row: GameRow, state: Any, now: dt.datetime) -> Settled | None:
        deadline = flag_deadline(row, state)
        if deadline is None or now < deadline:
            return None
        seat = clock_seat(row, state)
        assert seat is not None
        remaining = list(row.remaining_ms) if row.remaining_ms is not None else None
        if remaining is not None:
            remaining[seat] = 0
        return self._finish(conn, dataclasses.replace(row, remaining_ms=remaining), state, now,
                            time_result(row, seat))

    def _finish(self, conn: Any, row: GameRow, state: Any, now: dt.datetime, result: dict[str, Any],
                status: str = "finished") -> Settled:
        # The end of a game (its result, the outbox event) waits for the disk even where
        # moves do not (see the tables pool in services.game.app).
        conn.execute("SET LOCAL synchronous_commit = on")
        engine = get_game(row.game)
        names = game_store.user_names(conn, [u for u in row.seats if u is not None])
        seat_names = [names.get(uid, "?") if uid is not None else f"Computer ({row.strength})" for uid in row.seats]
        headers = {"Spiel": engine.title, "Partie": str(row.id), "Datum": now.strftime("%Y-%m-%d"),
                   engine.seat_names[0][0]: seat_names[0], engine.seat_names[1][0]: seat_names[1],
                   "Ergebnis": result["de"]}
        # Ended by the table (resigned, time, agreement, left) or by the rules: after the
        # end everything shows, in the record and in every view (hidden setups, hands).
        state = engine.conclude(state, Outcome.from_dict(result))
        record = engine.record(state, headers)
        version = row.version + 1
        finished_at = now if status == "finished" else None
        xmin = game_store.finish(conn, row.id, result=result, record=record, remaining_ms=row.remaining_ms,
                                 version=version, finished_at=finished_at, status=status)
        if status == "finished":
            outbox.record(conn, GAME_FINISHED, GameFinished(
                game_id=row.id, game=row.game, seats=list(row.seats), result=result, rated=row.rated,
                stake=row.stake, mode=row.mode, plies=len(row.moves), duration_ms=_ms(now - row.created_at),
            ).payload())
        after = dataclasses.replace(row, status=status, result=result, version=version, draw_offer=None,
                                    takeback_offer=None, finished_at=finished_at, xmin=xmin)
        return Settled(after, state, finished_now=True)

    @staticmethod
    def _require_running(row: GameRow) -> None:
        if not row.running:
            raise TableRefusal("table_finished", current_game_id=row.id)

    @staticmethod
    def _human_seats(row: GameRow, user_id: int) -> list[int]:
        seats = row.seats_of(user_id)
        if not seats:
            raise TableRefusal("spectator")
        return seats

    # ---- moves -----------------------------------------------------------------------
    def move(self, user_id: int | None, game_id: int, version: int, text: str, lag_ms: int = 0) -> Settled:
        """Play ``text`` for ``user_id`` (None: the computer) on the table as it stood at ``version``.

        Most moves take the one-statement path (:meth:`_move_on_cached_row`); everything
        else, and every refusal, is decided under the row lock."""
        settled = self._move_on_cached_row(user_id, game_id, version, text, lag_ms)
        if isinstance(settled, Settled):
            self.listener.settled(settled)
            return settled

        def act(conn: Any, row: GameRow, state: Any, now: dt.datetime) -> Settled:
            seat, canonical, new_state, clock_ran = self._checked_move(row, state, user_id, version, text)
            return self._after_move(conn, row, state, new_state, now, seat, canonical, lag_ms, clock_ran)

        try:  # after a move shown, not written: decided again (committed here, it is published as any other)
            return self._locked(game_id, act)
        except Exception:
            if settled is False:
                self.listener.retracted(self, game_id)
            raise

    def _move_on_cached_row(self, user_id: int | None, game_id: int, version: int, text: str,
                            lag_ms: int) -> Settled | bool | None:
        """The common move, shown first and written in one round trip to PostgreSQL: the
        settled table, or None to take the locked path, or False when the move was shown
        but not written (the locked path decides it again).

        The row this process wrote or read last is cached with its ``xmin``; the move is
        checked against it and appended by one UPDATE that matches only while the row is
        still exactly that version (``game_store.append_moves`` through the move writer,
        which writes the moves that arrive together in one statement and returns once
        this one is committed).
        If anything else wrote the row meanwhile (another process, a hint, a test), the
        UPDATE matches nothing and the locked path decides from the stored row.  Moves
        that end the game, come after a flag, meet a round pause or are refused always
        go the locked way: their writes (result, outbox event) need one transaction."""
        row = self.rows.get(game_id)
        if row is None or not row.running or game_id in self._unwritten:
            return None
        state = self.cache.state(row)
        now = now_utc()
        deadline = flag_deadline(row, state)
        if pause_deadline(row, state) is not None or (deadline is not None and now >= deadline):
            return None
        try:
            seat, canonical, new_state, clock_ran = self._checked_move(row, state, user_id, version, text)
        except TableRefusal:
            return None
        remaining, quotas, spent, flagged = self._charged(row, seat, now, lag_ms, clock_ran)
        if flagged or get_game(row.game).outcome(new_state) is not None:
            return None
        after = self._moved(row, seat, canonical, now, remaining, quotas, spent)
        first = not self._stopping and self.listener.may_show_first(game_id)
        written = self._unwritten[game_id] = threading.Event()
        try:
            shown = self.listener.shown(Settled(after, new_state)) if first else None
            xmin = self.writer.append(MoveAppend(game_id=game_id, expected_xmin=row.xmin, move=canonical, seat=seat,
                                                 spent_ms=spent, remaining_ms=remaining, lag_quota_ms=quotas,
                                                 turn_started_at=now, version=after.version),
                                      shown=shown is not None)
        except psycopg.OperationalError:
            # A connection that died in the pool: the locked path tries on a fresh one
            # (a move that did commit is then refused as stale, as there).
            log.warning("database connection lost; trying table %s under its lock", game_id)
            xmin = None
        finally:
            del self._unwritten[game_id]
            written.set()
        if xmin is None:
            self.rows.forget(game_id)
            return False if first else None
        after = dataclasses.replace(after, xmin=xmin)
        self.cache.put(game_id, after.moves, after.move_seats, new_state, after.reshuffles)
        self.rows.put(after)
        return Settled(after, new_state, shown=shown)

    def stop_showing_first(self) -> None:
        """From now on every move is written before anyone sees it: the process is stopping,
        and a move shown but not yet written when its greenlet is killed would be lost."""
        self._stopping = True

    def until_written(self, game_id: int) -> None:
        """Wait while this process has a move on the table on its way to PostgreSQL.

        Whatever reads the stored table for a player who may have seen that move (a
        join, the Tipp desk) waits here first, or it finds the table a version behind."""
        written = self._unwritten.get(game_id)
        if written is not None:
            written.wait()

    def _checked_move(self, row: GameRow, state: Any, user_id: int | None, version: int,
                      text: str) -> tuple[int, str, Any, bool]:
        """(seat, canonical text, new state, whether the mover's clock ran) or a refusal."""
        self._require_running(row)
        seats = [s for s, uid in enumerate(row.seats) if uid is None] if user_id is None \
            else self._human_seats(row, user_id)
        engine = get_game(row.game)
        to_move = engine.to_move(state)
        if version != row.version and not _setup_overtaken(engine, state, row, seats, version):
            raise TableRefusal("stale_version", current_game_id=row.id)
        movers = [s for s in seats if s in to_move]
        clock_ran = len(to_move) == 1
        if in_round_pause(row, state):
            # Nobody is to move: the Rundentafel shows.  At local tables the player
            # ends it; in Wartesaal games the countdown does (both clocks stand still).
            if not player_may_end_pause(row):
                raise TableRefusal("round_pause_countdown")
            movers, clock_ran = seats[:1], False
        if not movers:
            computer_turn = any(row.seats[s] is None for s in to_move)
            raise TableRefusal("computer_thinking" if computer_turn else "not_your_turn")
        seat = movers[0]
        try:
            parsed = engine.parse_move(state, text, seat)
            canonical = engine.move_text(state, parsed)
            new_state = engine.apply(state, parsed, seat)
        except GameError as exc:
            raise TableRefusal(exc.code, de=exc.de, en=exc.en) from None
        return seat, canonical, new_state, clock_ran

    @staticmethod
    def _charged(row: GameRow, seat: int | None, now: dt.datetime, lag_ms: int,
                 clock_ran: bool) -> tuple[list[int] | None, list[int], int, bool]:
        """The clocks after ``seat`` moved now: (remaining, lag quotas, ms charged, flagged)."""
        remaining = list(row.remaining_ms) if row.remaining_ms is not None else None
        quotas = list(row.lag_quota_ms)
        if not clock_ran or seat is None:
            return remaining, quotas, 0, False
        timing = clock.on_move(row.clock, remaining[seat] if remaining else None, quotas[seat],
                               _ms(now - row.turn_started_at), lag_ms)
        limit = per_move_limit_ms(row)
        flagged = timing.flagged if row.clock is not None else limit is not None and timing.spent_ms > limit
        if flagged:
            if remaining is not None:
                remaining[seat] = 0
            return remaining, quotas, timing.spent_ms, True
        quotas[seat] = timing.quota_ms
        if remaining is not None:
            remaining[seat] = timing.remaining_ms
        return remaining, quotas, timing.spent_ms, False

    @staticmethod
    def _moved(row: GameRow, seat: int | None, text: str, now: dt.datetime, remaining: list[int] | None,
               quotas: list[int], spent: int) -> GameRow:
        return dataclasses.replace(
            row, moves=[*row.moves, text], move_seats=[*row.move_seats, seat], move_times=[*row.move_times, spent],
            remaining_ms=remaining, lag_quota_ms=quotas, turn_started_at=now, version=row.version + 1,
            draw_offer=None, takeback_offer=None,  # an offer is void once someone moves
        )

    def _after_move(self, conn: Any, row: GameRow, state: Any, new_state: Any, now: dt.datetime, seat: int | None,
                    text: str, lag_ms: int, clock_ran: bool) -> Settled:
        remaining, quotas, spent, flagged = self._charged(row, seat, now, lag_ms, clock_ran)
        if flagged:
            # The move came after the flag fell (inside the grace the flag scheduler had not fired yet).
            return self._finish(conn, dataclasses.replace(row, remaining_ms=remaining), state, now,
                                time_result(row, seat))
        after = self._moved(row, seat, text, now, remaining, quotas, spent)
        xmin = game_store.write_turn(conn, row.id, moves=after.moves, move_seats=after.move_seats,
                                     move_times=after.move_times, remaining_ms=remaining, lag_quota_ms=quotas,
                                     turn_started_at=now, version=after.version, draw_offer=None,
                                     takeback_offer=None)
        after = dataclasses.replace(after, xmin=xmin)
        self.cache.put(row.id, after.moves, after.move_seats, new_state, after.reshuffles)
        outcome = get_game(row.game).outcome(new_state)
        if outcome is not None:
            return self._finish(conn, after, new_state, now, outcome.to_dict())
        return Settled(after, new_state)

    def computer_move(self, game_id: int, version: int, seat: int, text: str) -> Settled:
        """Play the computer's answer if the table still stands at ``version`` with ``seat`` to move."""
        return self.move(None, game_id, version, text)

    # ---- endings ---------------------------------------------------------------------
    def resign(self, user_id: int, game_id: int) -> Settled:
        def act(conn: Any, row: GameRow, state: Any, now: dt.datetime) -> Settled:
            self._require_running(row)
            seats = self._human_seats(row, user_id)
            # At a same-device table the side to move gives up.
            to_move = get_game(row.game).to_move(state)
            seat = next((s for s in seats if s in to_move), seats[0])
            return self._finish(conn, row, state, now, result_of(TableReason.RESIGNED, 1 - seat))

        return self._locked(game_id, act)

    def draw(self, user_id: int, game_id: int, action: str) -> Settled:
        def act(conn: Any, row: GameRow, state: Any, now: dt.datetime) -> Settled:
            self._require_running(row)
            seat = self._human_seats(row, user_id)[0]
            if row.mode != "wartesaal":
                raise TableRefusal("draw_not_here")
            offer = row.draw_offer
            if action == "offer" and offer == seat:
                raise TableRefusal("offer_pending")
            if action == "accept" or (action == "offer" and offer == 1 - seat):
                if offer != 1 - seat:
                    raise TableRefusal("no_offer")
                return self._finish(conn, row, state, now, result_of(TableReason.DRAW_AGREED, None))
            if action == "decline" and offer != 1 - seat:
                raise TableRefusal("no_offer")
            return self._write_offers(conn, row, state, draw=seat if action == "offer" else None,
                                      takeback=row.takeback_offer)

        return self._locked(game_id, act)

    def _write_offers(self, conn: Any, row: GameRow, state: Any, *, draw: int | None,
                      takeback: int | None) -> Settled:
        after = dataclasses.replace(row, version=row.version + 1, draw_offer=draw, takeback_offer=takeback)
        xmin = game_store.write_offers(conn, row.id, version=after.version, draw_offer=draw, takeback_offer=takeback)
        return Settled(dataclasses.replace(after, xmin=xmin), state)

    def takeback(self, user_id: int, game_id: int, action: str) -> Settled:
        """↶ Zurück in friendly Wartesaal games: the offerer's last move (and any answer) goes."""
        undo_act = self._undo_for(user_id)

        def act(conn: Any, row: GameRow, state: Any, now: dt.datetime) -> Settled:
            self._require_running(row)
            seat = self._human_seats(row, user_id)[0]
            if row.mode != "wartesaal" and action == "offer":
                # A local table has nobody to ask: the offer is granted as Zug zurück.
                return undo_act(conn, row, state, now)
            if row.mode != "wartesaal" or row.rated:
                raise TableRefusal("takeback_not_here")
            offer = row.takeback_offer
            if action == "offer":
                if offer == seat:
                    raise TableRefusal("offer_pending")
                if seat not in row.move_seats:
                    raise TableRefusal("nothing_to_take_back")
                wait_s = takeback_backoff.seconds_left(row.takeback_declines[seat], row.takeback_declined_at[seat],
                                                       now)
                if wait_s:
                    raise TableRefusal(
                        "takeback_wait",
                        de=f"Dein Gegner hat ↶ Zurück abgelehnt; du kannst in {wait_s} Sekunden wieder fragen.",
                        en=f"Your opponent declined ↶ Take back; you can ask again in {wait_s} seconds.")
                return self._write_offers(conn, row, state, draw=row.draw_offer, takeback=seat)
            if offer != 1 - seat:
                raise TableRefusal("no_offer")
            if action == "decline":
                declined = self._write_offers(conn, row, state, draw=row.draw_offer, takeback=None)
                return self._takeback_backoff(conn, declined, offer, now, declined=True)
            taken = self._truncate(conn, row, now, _last_index_of(row.move_seats, offer), before=state)
            return self._takeback_backoff(conn, taken, offer, now, declined=False)

        return self._locked(game_id, act)

    @staticmethod
    def _takeback_backoff(conn: Any, settled: Settled, seat: int, now: dt.datetime, *, declined: bool) -> Settled:
        """The asking seat's back-off after its ↶ Zurück was declined (one more) or accepted (over)."""
        row = settled.row
        declines, declined_at = list(row.takeback_declines), list(row.takeback_declined_at)
        declines[seat], declined_at[seat] = (declines[seat] + 1, now) if declined else (0, None)
        xmin = game_store.write_takeback_backoff(conn, row.id, declines=(declines[0], declines[1]),
                                                 declined_at=(declined_at[0], declined_at[1]))
        after = dataclasses.replace(row, takeback_declines=(declines[0], declines[1]),
                                    takeback_declined_at=(declined_at[0], declined_at[1]), xmin=xmin)
        return Settled(after, settled.state, settled.finished_now, settled.started_now)

    def _undo_for(self, user_id: int) -> Callable[[Any, GameRow, Any, dt.datetime], Settled]:
        def act(conn: Any, row: GameRow, state: Any, now: dt.datetime) -> Settled:
            self._require_running(row)
            seats = self._human_seats(row, user_id)
            if row.mode == "wartesaal":
                raise TableRefusal("undo_not_here")
            if row.mode == "same_device":
                if not row.moves:
                    raise TableRefusal("nothing_to_take_back")
                return self._truncate(conn, row, now, len(row.moves) - 1, before=state)
            cut = _last_index_of(row.move_seats, seats[0])
            if cut is None:
                raise TableRefusal("nothing_to_take_back")
            # Against the computer the unseen cards are mixed anew (Battlehanse, seed 000).
            return self._truncate(conn, row, now, cut, mix=True, before=state)

        return act

    def undo(self, user_id: int, game_id: int) -> Settled:
        """Zug zurück at a local table: vs computer your last move and its answer; same device the last move."""
        return self._locked(game_id, self._undo_for(user_id))

    def _truncate(self, conn: Any, row: GameRow, now: dt.datetime, keep: int | None, mix: bool = False,
                  before: Any = None) -> Settled:
        """Keep the first ``keep`` moves; replay from (options, seed, moves[:keep], reshuffles).
        ``before`` (the state with every move): what the take-back must keep from it."""
        if keep is None:
            raise TableRefusal("nothing_to_take_back")
        after = dataclasses.replace(
            row, moves=row.moves[:keep], move_seats=row.move_seats[:keep], move_times=row.move_times[:keep],
            turn_started_at=now, version=row.version + 1, draw_offer=None, takeback_offer=None,
        )
        xmin = game_store.write_turn(conn, row.id, moves=after.moves, move_seats=after.move_seats,
                                     move_times=after.move_times, remaining_ms=after.remaining_ms,
                                     lag_quota_ms=after.lag_quota_ms, turn_started_at=now, version=after.version,
                                     draw_offer=None, takeback_offer=None)
        after = dataclasses.replace(after, xmin=xmin)
        after = reshuffles_after_undo(conn, after, keep, mix, before, self.cache.state)
        return Settled(after, self.cache.state(after))

    def flag(self, game_id: int) -> bool:
        """Check the table's clock now (the flag scheduler calls this); True if the flag fell now."""
        try:
            self._locked(game_id, lambda conn, row, state, now: Settled(row, state))
        except TableRefusal as exc:
            return exc.code == "table_finished"
        return False

    def abandon(self, game_id: int, user_id: int) -> bool:
        """``user_id`` left (no connection for the leave timeout): a Wartesaal game is lost, a local one aborted."""

        def act(conn: Any, row: GameRow, state: Any, now: dt.datetime) -> Settled:
            if not row.running or user_id not in row.seats:
                return Settled(row, state)
            if row.mode != "wartesaal":
                return self._finish(conn, row, state, now, result_of(TableReason.LEFT, None), status="aborted")
            seat = row.seats.index(user_id)
            return self._finish(conn, row, state, now, result_of(TableReason.LEFT, 1 - seat))

        try:
            return self._locked(game_id, act).finished_now
        except TableRefusal:
            return False

    def claim(self, user_id: int, game_id: int, action: str, away_ms: Callable[[GameRow, int], int | None],
              leave_after_ms: int) -> Settled:
        """The player still at a Wartesaal table ends it because the opponent has had no
        connection for ``leave_after_ms``: won (``win``, as if the leave rule had struck)
        or, if the player prefers, drawn (``draw``).  ``away_ms(row, user_id)`` says how
        long a player has been away (None: connected)."""

        def act(conn: Any, row: GameRow, state: Any, now: dt.datetime) -> Settled:
            self._require_running(row)
            seats = self._human_seats(row, user_id)
            if row.mode != "wartesaal" or len(seats) != 1 or row.seats[1 - seats[0]] is None:
                raise TableRefusal("claim_not_here", de="Hier kann niemand den Tisch verlassen haben.",
                                   en="Nobody can have left this table.")
            seat = seats[0]
            away = away_ms(row, row.seats[1 - seat])
            if away is None:
                raise TableRefusal("opponent_here", de="Dein Gegner ist am Tisch.",
                                   en="Your opponent is at the table.")
            if away < leave_after_ms:
                wait_s = -(-(leave_after_ms - away) // 1000)
                raise TableRefusal(
                    "opponent_not_gone_long",
                    de=f"Dein Gegner ist erst seit {away // 1000} Sekunden fort; in {wait_s} Sekunden kannst du"
                       " den Sieg einfordern.",
                    en=f"Your opponent has been gone for only {away // 1000} seconds; you can claim the win in"
                       f" {wait_s} seconds.")
            if action == "win":
                return self._finish(conn, row, state, now, result_of(TableReason.LEFT, seat))
            return self._finish(conn, row, state, now, result_of(TableReason.LEFT_DRAW, None))

        return self._locked(game_id, act)

    # ---- reading ---------------------------------------------------------------------
    def current(self, game_id: int) -> Settled:
        """The table as stored now (no lock: a read for joins and stale answers)."""
        self.until_written(game_id)
        with self.pool.connection() as conn:
            row = game_store.load(conn, game_id)
        if row is None:
            raise TableRefusal("unknown_table")
        self.rows.put(row)
        return Settled(row, self.cache.state(row))

    def create_local(self, user_id: int, game: str, mode: str, options: dict[str, Any], strength: str | None,
                     seat: int | None, clock_setting: dict[str, int] | None, seed: int) -> Settled:
        """A computer or same-device table for ``user_id`` (no rating, no Taler)."""
        if mode == "computer":
            if strength is None or clock_setting is not None or seat not in (None, 0, 1):
                raise TableRefusal("bad_local_table")
            human = seat or 0
            seats: tuple[int | None, int | None] = (user_id, None) if human == 0 else (None, user_id)
        else:
            if strength is not None or seat is not None:
                raise TableRefusal("bad_local_table")
            seats = (user_id, user_id)
        try:
            with self.pool.connection() as conn, conn.transaction():
                game_id = game_store.create_game(conn, game=game, options=options, seed=seed, seats=seats,
                                                 mode=mode, clock=clock_setting, rated=False, stake=0,
                                                 strength=strength)
                row = game_store.load(conn, game_id)
        except GameError as exc:
            raise TableRefusal("bad_options", de=exc.de, en=exc.en) from None
        except ValueError:
            raise TableRefusal("bad_local_table") from None
        assert row is not None
        settled = Settled(row, self.cache.state(row), started_now=True)
        self.listener.settled(settled)
        return settled


def _setup_overtaken(engine: Any, state: Any, row: GameRow, seats: list[int], version: int) -> bool:
    """A setup action sent before the opponent's own setup actions arrived: still valid;
    one sent before this seat's own last action arrived: stale (a retry applies once).

    During a setup phase (Battlegeneral: both seats place their pieces at once) the
    other seat's actions move the version on without touching what this seat acts on
    (its own half, which the engine checks), so they are no reason to refuse.  This
    seat's own actions are: a retried "spiegeln" must not mirror twice.  Every change
    of a table moves its version on by exactly one and appends at most one move, so the
    changes since ``version`` appended at most ``row.version - version`` moves, all at
    the end of the log: if none of those is this seat's, the seat has not acted since
    it saw the table (a per-seat version, read from the move log).  When offers were
    made in between, the window is wider than needed: refusing then is the safe side.
    Elsewhere a move must see the table as it stands."""
    if not 0 <= version < row.version or len(seats) != 1:
        return False
    if engine.view(state, seats[0]).get("phase") != "setup":
        return False
    return seats[0] not in row.move_seats[-(row.version - version):]


def _last_index_of(move_seats: list[int | None], seat: int | None) -> int | None:
    for i in range(len(move_seats) - 1, -1, -1):
        if move_seats[i] == seat:
            return i
    return None
