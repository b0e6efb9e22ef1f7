"""Rückblick: asking for the review of one's own moves, and who may read it.

"Zu jedem deiner Züge rechnet der starke Computer nach, was besser gewesen wäre" (seed
000) — "auf der Rundentafel, am Partieende" and when replaying.  A review belongs to one
seat of one game (``reviews``, migration 0003; computed by ``ai.review_game`` on the
``batch`` queue, one ``review_moves`` row per judged move).  Only the player of that seat
may ask for it and read it; the opponent and spectators see it only after that player
made it public (``reviews.public``, migration 0007), and only once the game is over.

While a match against the computer runs, its player may ask on the Rundentafel (the
pause between rounds) for the moves so far; asked again later (the next Rundentafel, the
end), the same review is queued once more and the task judges only the moves it has not
judged yet.  A Zug zurück drops the game's reviews (:mod:`services.game.rules.undo_reshuffle`),
since the moves they judged may be gone.  In Wartesaal games a review during the game
would be outside help, so there it exists only after the end.  Every check is here, on
the server: the routes and socket events only call it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.ai_worker.review import ensure_reviews, send_unsent
from services.game.rules.round_pause import in_round_pause
from services.game.rules.sealed import is_sealed
from services.game.solo.hint import hints_of
from services.game.tables.refusals import TableRefusal
from shared import game_store
from shared.game_store import GameRow
from shared.games import get_game
from shared.table_replay import replay, states_along

# Search time per judged move of a player's own Rückblick: a match has 20–60 own moves,
# so the page fills within a minute on one batch worker.
PLAYER_REVIEW_BUDGET_MS = 600

def _game_row(conn: Any, game_id: int) -> GameRow:
    row = game_store.load(conn, game_id)
    if row is None or row.status == "aborted":
        raise TableRefusal("not_found")
    return row


def _finished_row(conn: Any, game_id: int) -> GameRow:
    row = _game_row(conn, game_id)
    if row.status != "finished":
        raise TableRefusal("review_after_end")
    return row


def _requestable_row(conn: Any, game_id: int) -> GameRow:
    """A finished game, or a running one against the computer on its Rundentafel."""
    row = _game_row(conn, game_id)
    if row.running and not (row.mode == "computer" and in_round_pause(row, _state(row))):
        raise TableRefusal("review_after_end")
    return row


def _state(row: GameRow) -> Any:
    return replay(row.game, row.options, row.seed, row.moves, row.move_seats, row.reshuffles)


def own_moves(row: GameRow, seat: int) -> int:
    """How many moves of ``seat`` a review judges: those it made while it alone was to move
    (as ``ai.review_game``'s ``replay_points`` counts them; no views built here)."""
    engine = get_game(row.game)
    states = states_along(row.game, row.options, row.seed, row.moves, row.move_seats, row.reshuffles)
    return sum(1 for state, mover in zip(states, row.move_seats, strict=False)
               if mover == seat and engine.to_move(state) == (seat,))


def _own_seat(row: GameRow, user_id: int, seat: int | None) -> int:
    """The seat ``user_id`` asks about: the given one if it is theirs, else their first."""
    seats = row.seats_of(user_id)
    if not seats or (seat is not None and seat not in seats):
        raise TableRefusal("review_not_yours")
    return seat if seat is not None else seats[0]


def request_review(conn: Any, user_id: int, game_id: int, seat: int | None,
                   send: Callable[[int], None]) -> dict[str, Any]:
    """Queue the review of ``user_id``'s seat and return its data.  Once it covers every
    own move, asking again only reports; moves made since are judged on a new request."""
    row = _requestable_row(conn, game_id)
    own = _own_seat(row, user_id, seat)
    review_ids = ensure_reviews(conn, [(row.id, own)], PLAYER_REVIEW_BUDGET_MS)
    # A review made on an earlier Rundentafel (or one that failed) goes to work again.
    conn.execute("UPDATE reviews SET status = 'queued', enqueued_at = NULL, finished_at = NULL, error = NULL"
                 " WHERE id = %s AND status IN ('done', 'failed') AND moves_done < %s",
                 (review_ids[0], own_moves(row, own)))
    conn.commit()  # the worker must find the row it is sent for
    send_unsent(conn, review_ids, send)
    conn.commit()
    return _data(conn, row, own, user_id)


def set_public(conn: Any, user_id: int, game_id: int, public: bool) -> dict[str, Any]:
    """The owner shows (or hides again) their review to everyone."""
    row = _finished_row(conn, game_id)
    own = _own_seat(row, user_id, None)
    conn.execute("UPDATE reviews SET public = %s WHERE game_id = %s AND seat = %s", (public, row.id, own))
    conn.commit()
    return _data(conn, row, own, user_id)


def readable_review(conn: Any, user_id: int | None, game_id: int, seat: int | None) -> dict[str, Any]:
    """The review of ``seat`` (default: the reader's own) if ``user_id`` may read it: the
    seat's player (during a match against the computer too), anyone once public and over."""
    row = _game_row(conn, game_id)
    if row.running and row.mode != "computer":
        raise TableRefusal("review_after_end")
    if seat is None:
        seat = _own_seat(row, user_id, None) if user_id is not None else None
    if seat not in (0, 1):
        raise TableRefusal("review_not_yours")
    if user_id is None or row.seats[seat] != user_id:
        if row.running:
            raise TableRefusal("review_not_yours")
        if is_sealed(row):
            # Its moves name the day's cards: to others only once the deal is no longer played.
            raise TableRefusal("deal_sealed")
        found = conn.execute("SELECT public FROM reviews WHERE game_id = %s AND seat = %s",
                             (row.id, seat)).fetchone()
        if found is None or not _value(found, "public", 0):
            raise TableRefusal("review_not_yours")
    return _data(conn, row, seat, user_id)


def review_id_of(conn: Any, game_id: int, seat: int) -> int | None:
    found = conn.execute("SELECT id FROM reviews WHERE game_id = %s AND seat = %s", (game_id, seat)).fetchone()
    return int(_value(found, "id", 0)) if found is not None else None


def _value(row: Any, name: str, index: int) -> Any:
    return row[name] if isinstance(row, dict) else row[index]


def _data(conn: Any, row: GameRow, seat: int, reader: int | None) -> dict[str, Any]:
    """The ``Review`` record (shared.schemas.table_events) of ``seat`` in ``row`` as ``reader`` sees it."""
    found = conn.execute(
        "SELECT id, status, moves_done, public FROM reviews WHERE game_id = %s AND seat = %s",
        (row.id, seat)).fetchone()
    # total: the seat's moves to judge now (more than the review covers after it was asked
    # for on a Rundentafel and the match went on).
    base = {"game_id": row.id, "game": row.game, "seat": seat, "mine": reader is not None and row.seats[seat] == reader,
            "hints": hints_of(conn, row.id), "total": own_moves(row, seat)}
    if found is None:
        return {**base, "review_id": None, "status": "none", "done": 0, "public": False, "moves": []}
    review_id = int(_value(found, "id", 0))
    moves = conn.execute(
        "SELECT ply, played, best, best_value, played_value, loss, class FROM review_moves WHERE review_id = %s"
        " ORDER BY ply", (review_id,)).fetchall()
    names = ("ply", "played", "best", "best_value", "played_value", "loss", "class")
    listed = []
    for m in moves:
        entry = {n: _value(m, n, i) for i, n in enumerate(names)}
        for n in ("best_value", "played_value", "loss"):
            entry[n] = round(float(entry[n]), 2)
        listed.append(entry)
    return {**base, "review_id": review_id, "status": _value(found, "status", 1),
            "done": int(_value(found, "moves_done", 2)), "public": bool(_value(found, "public", 3)), "moves": listed}
