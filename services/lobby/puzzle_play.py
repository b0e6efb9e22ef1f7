"""Aufgaben: giving a player a puzzle, judging each move on the server, rating the first attempt.

The puzzles come from :mod:`shared.puzzles.catalog` (the full start position and the solution
stay on the server).  A player is *given* a puzzle as an attempt (a ``puzzle_attempts`` row);
every move names the attempt and its ply, the number of solution moves played so far:

* a move for an attempt that is not the player's (or of another game): ``aufgabe_not_given``;
* a move at a ply the attempt has left (another tab moved on): ``aufgabe_stale``;
* a move for an ended attempt: ``aufgabe_over``.

The attempt's row is locked while a move is judged, so of two tabs sending a move at the
same ply exactly one is judged; the other is stale.  The right move is answered by the
stored forced reply until the line is solved; a legal wrong move ends the attempt (failed).
Only then does the answer carry the solution, with the solver's view after each of its
moves for the animation.  A view is always the engine's ``view(state, seat)`` of the
solver's seat: Battlegeneral's hidden ranks stay hidden.

Only a player's first attempt of a puzzle counts (``counted``; the partial unique index
``puzzle_attempts_first`` makes a second counted one impossible): when it ends, player and
puzzle are rated by Glicko-2 (:mod:`services.lobby.puzzle_ratings`) in the same transaction.

Modes: ``rated`` gives the untried puzzle nearest the player's rating (optionally with a
theme) and keeps giving the open one until it is played; ``streak`` gives puzzles rising
from below the player's rating until the first mistake ends the streak; ``daily`` gives the
day's puzzle of the game, the same for everyone (see :func:`daily_puzzle`).

The day's puzzle is the Tagesmarkt's kind of secret: the same for everyone, and its first
attempt counts.  So nothing about it leaves the server early: it comes from the daily pool
(:func:`in_daily_pool`), a fixed part of the catalogue that the other modes never give,
so what they give (a theme's puzzles included) is the same on every day and tells nothing
about which puzzle is the day's; and while its day lasts an ended attempt at it shows the
result but neither the solution nor the themes (``solution_from``: the next day), so a
throw-away guest cannot learn it for an account's counted attempt.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import random
from typing import Any

import psycopg

from services.lobby import puzzle_ratings
from services.lobby.daily_market import berlin_day
from shared.accounts import Account
from shared.games import GameError, get_game
from shared.puzzles import catalog

GAMES = ("hexagon", "bullet", "general")
MODES = ("rated", "streak", "daily")
NEAREST = 8  # the next puzzle is drawn from this many untried ones nearest the target rating
DAILY_POOL_EVERY = 10  # one puzzle in this many (by its id) is kept for the daily puzzle
STREAK_START_BELOW = 300  # a streak begins this far below the player's rating ...
STREAK_STEP = 50  # ... and rises by this much per solved puzzle


class PlayError(ValueError):
    """A request about an attempt that is refused; German and English message, HTTP status."""

    def __init__(self, code: str, de: str, en: str, status: int = 400) -> None:
        super().__init__(en)
        self.code, self.de, self.en, self.status = code, de, en, status


def _not_given() -> PlayError:
    return PlayError("aufgabe_not_given", "Diese Aufgabe wurde dir nicht gestellt.",
                     "This puzzle was not given to you.", 404)


def _none_yet() -> PlayError:
    return PlayError("aufgaben_none", "Für dieses Spiel gibt es noch keine Aufgaben.",
                     "There are no puzzles for this game yet.", 404)


def _puzzle(puzzle_id: str) -> catalog.Puzzle:
    found = catalog.get(puzzle_id)
    if found is None:  # an attempt at a puzzle the catalogue no longer has
        raise PlayError("aufgabe_gone", "Diese Aufgabe gibt es nicht mehr.", "This puzzle no longer exists.", 410)
    return found


# ---- the day's puzzle ---------------------------------------------------------------------------
def in_daily_pool(puzzle: catalog.Puzzle) -> bool:
    """One puzzle in :data:`DAILY_POOL_EVERY`, by a hash of its stable id: the daily puzzles are
    drawn from these and the other modes never give them.  The pool does not change with the
    day, so nothing the other modes do reveals a day's puzzle; knowing the pool tells nothing
    about which of its puzzles a day has (that is keyed with the server's secret)."""
    digest = hashlib.sha256(f"aufgabe-tagespool-{puzzle.id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % DAILY_POOL_EVERY == 0


def daily_pool(game: str) -> list[catalog.Puzzle]:
    """The daily pool of ``game`` in id order (the whole catalogue while the pool would be empty)."""
    puzzles = sorted(catalog.load(game), key=lambda p: p.id)
    return [p for p in puzzles if in_daily_pool(p)] or puzzles


def daily_puzzle(game: str, day: dt.date, secret: str) -> catalog.Puzzle:
    """The puzzle of ``game`` on ``day`` (Europe/Berlin): the days run through the daily pool in
    cycles of its size, each cycle in an order keyed with the server's secret (HMAC-SHA-256), so
    every player gets the same one that day, nobody outside the installation can tell a later
    day's in advance (as the Tagesmarkt's deal), and no puzzle comes back before the whole pool
    has had its day: a solution shown the day after its day is not the answer to another day
    of the same cycle."""
    pool = daily_pool(game)
    if not pool:
        raise _none_yet()
    cycle, place = divmod(day.toordinal(), len(pool))

    def order(puzzle: catalog.Puzzle) -> bytes:
        return hmac.new(secret.encode(), f"aufgabe-{game}-{cycle}-{puzzle.id}".encode(), hashlib.sha256).digest()

    return sorted(pool, key=order)[place]


def offered(game: str) -> list[catalog.Puzzle]:
    """What the rated and streak modes give: the catalogue without the daily pool (the same on
    every day)."""
    pool = {p.id for p in daily_pool(game)}
    return [p for p in catalog.load(game) if p.id not in pool]


# ---- the line ------------------------------------------------------------------------------------
def _play(puzzle: catalog.Puzzle, moves: list[str]) -> Any:
    """The puzzle's state after ``moves`` (move texts, each by the seat to move)."""
    engine = get_game(puzzle.game)
    state = catalog.state(puzzle)
    for text in moves:
        seat = engine.to_move(state)[0]
        state = engine.apply(state, engine.parse_move(state, text, seat), seat)
    return state


def _view(puzzle: catalog.Puzzle, moves: list[str]) -> dict[str, Any]:
    return get_game(puzzle.game).view(_play(puzzle, moves), puzzle.seat)


def theme_texts(game: str, puzzles: list[catalog.Puzzle] | None = None) -> list[dict[str, str]]:
    """The themes some puzzle of ``game`` has (of ``puzzles``, default the whole catalogue),
    with their German and English names."""
    names = catalog.theme_names
    used = sorted({key for p in (catalog.load(game) if puzzles is None else puzzles) for key in p.themes})
    return [{"key": key, "de": names[key]["de"], "en": names[key]["en"]} for key in used if key in names]


def filter_themes(game: str) -> list[dict[str, str]]:
    """The themes to filter by: those of the puzzles the rated mode gives."""
    return theme_texts(game, offered(game))


# ---- giving a puzzle -----------------------------------------------------------------------------
def _streak_row(conn: psycopg.Connection, user_id: int, game: str) -> dict[str, Any]:
    row = conn.execute(
        "SELECT id, length FROM puzzle_streaks WHERE user_id = %s AND game = %s AND NOT ended", (user_id, game)
    ).fetchone()
    if row is None:
        row = conn.execute(
            "INSERT INTO puzzle_streaks (user_id, game) VALUES (%s, %s) RETURNING id, length", (user_id, game)
        ).fetchone()
    return row


def _choose(conn: psycopg.Connection, user_id: int, game: str, target: float, theme: str | None) -> catalog.Puzzle:
    """An untried puzzle of those :func:`offered` (of ``theme``), among the :data:`NEAREST`
    nearest ``target`` by their current rating."""
    if not offered(game):
        raise _none_yet()
    tried = {row["puzzle_id"] for row in conn.execute(
        "SELECT DISTINCT puzzle_id FROM puzzle_attempts WHERE user_id = %s AND game = %s", (user_id, game))}
    current = puzzle_ratings.puzzle_ratings(conn, game)
    candidates = [p for p in offered(game) if p.id not in tried and (theme is None or theme in p.themes)]
    if not candidates:
        raise PlayError("aufgaben_all_tried", "Du hast alle Aufgaben dieser Auswahl schon versucht.",
                        "You have tried every puzzle of this choice.", 404)
    candidates.sort(key=lambda p: (abs(current.get(p.id, p.rating) - target), p.id))
    return random.SystemRandom().choice(candidates[:NEAREST])


def _insert(conn: psycopg.Connection, user_id: int, puzzle: catalog.Puzzle, mode: str,
            day: dt.date | None, streak_id: int | None) -> int:
    """A new attempt; it counts when it is the player's first of the puzzle.  The unique index
    decides a race: a counted insert that collides becomes practice."""
    row = conn.execute(
        "INSERT INTO puzzle_attempts (user_id, game, puzzle_id, mode, day, streak_id, counted)"
        " SELECT %s, %s, %s, %s, %s, %s, true WHERE NOT EXISTS (SELECT 1 FROM puzzle_attempts"
        "  WHERE user_id = %s AND game = %s AND puzzle_id = %s)"
        " ON CONFLICT (user_id, game, puzzle_id) WHERE counted DO NOTHING RETURNING id",
        (user_id, puzzle.game, puzzle.id, mode, day, streak_id, user_id, puzzle.game, puzzle.id),
    ).fetchone()
    if row is None:
        row = conn.execute(
            "INSERT INTO puzzle_attempts (user_id, game, puzzle_id, mode, day, streak_id, counted)"
            " VALUES (%s, %s, %s, %s, %s, %s, false) RETURNING id",
            (user_id, puzzle.game, puzzle.id, mode, day, streak_id),
        ).fetchone()
    return int(row["id"])


def give(conn: psycopg.Connection, account: Account, game: str, mode: str, theme: str | None,
         now: dt.datetime, secret: str) -> dict[str, Any]:
    """The player's attempt in ``mode``: the open one if there is one, else a new puzzle
    (inside the caller's transaction).  Returns the attempt as the client sees it."""
    if game not in GAMES:
        raise PlayError("aufgaben_unknown_game", "Für dieses Spiel gibt es keine Aufgaben.",
                        "There are no puzzles for this game.", 404)
    if theme is not None and theme not in {t["key"] for t in filter_themes(game)}:
        raise PlayError("aufgaben_unknown_theme", "Dieses Thema gibt es hier nicht.",
                        "There is no such theme here.", 400)
    today = berlin_day(now)
    # The account's row lock orders two tabs asking at once: only one creates the attempt.
    conn.execute("SELECT id FROM users WHERE id = %s FOR UPDATE", (account.id,))
    streak_id = None
    if mode == "daily":
        open_row = conn.execute(
            "SELECT id, puzzle_id FROM puzzle_attempts WHERE user_id = %s AND game = %s AND mode = 'daily' AND day = %s"
            " AND status = 'open' ORDER BY id LIMIT 1", (account.id, game, today)).fetchone()
    elif mode == "streak":
        streak_id = int(_streak_row(conn, account.id, game)["id"])
        open_row = conn.execute(
            "SELECT id, puzzle_id FROM puzzle_attempts WHERE streak_id = %s AND status = 'open' LIMIT 1", (streak_id,)
        ).fetchone()
    else:
        open_row = conn.execute(
            "SELECT id, puzzle_id FROM puzzle_attempts WHERE user_id = %s AND game = %s AND mode = 'rated'"
            " AND status = 'open' ORDER BY id LIMIT 1", (account.id, game)).fetchone()
    if open_row is not None and catalog.get(open_row["puzzle_id"]) is None:
        # Its puzzle left the catalogue: the attempt ends unrated, and the player gets another.
        conn.execute("UPDATE puzzle_attempts SET status = 'failed', counted = false, finished_at = now()"
                     " WHERE id = %s", (open_row["id"],))
        open_row = None
    if open_row is not None:
        return attempt_payload(conn, int(open_row["id"]), now=now)
    rating = puzzle_ratings.player_rating(conn, account.id, game)["rating"]
    if mode == "daily":
        attempt_id = _insert(conn, account.id, daily_puzzle(game, today, secret), "daily", today, None)
    elif mode == "streak":
        length = int(conn.execute("SELECT length FROM puzzle_streaks WHERE id = %s", (streak_id,)).fetchone()["length"])
        target = rating - STREAK_START_BELOW + STREAK_STEP * length
        puzzle = _choose(conn, account.id, game, target, theme)
        attempt_id = _insert(conn, account.id, puzzle, "streak", None, streak_id)
    else:
        puzzle = _choose(conn, account.id, game, rating, theme)
        attempt_id = _insert(conn, account.id, puzzle, "rated", None, None)
    return attempt_payload(conn, attempt_id, now=now)


# ---- a move --------------------------------------------------------------------------------------
def _solves(puzzle: catalog.Puzzle, state_after: Any) -> bool:
    """A move that wins the game at once solves the puzzle whatever the stored line says."""
    outcome = get_game(puzzle.game).outcome(state_after)
    return outcome is not None and outcome.winner == puzzle.seat


def move(conn: psycopg.Connection, account: Account, game: str, attempt_id: int, ply: int,
         text: str, now: dt.datetime | None = None) -> dict[str, Any]:
    """Judge the player's move ``text`` at ``ply`` of attempt ``attempt_id`` (inside the caller's
    transaction); returns the attempt afterwards.  PlayError for everything refused: then
    nothing changes."""
    row = conn.execute(
        "SELECT id, user_id, game, puzzle_id, mode, streak_id, counted, status, ply FROM puzzle_attempts"
        " WHERE id = %s FOR UPDATE", (attempt_id,)).fetchone()
    if row is None or row["user_id"] != account.id or row["game"] != game:
        raise _not_given()
    if row["status"] != "open":
        raise PlayError("aufgabe_over", "Dieser Versuch ist schon zu Ende.", "This attempt has already ended.", 409)
    if row["ply"] != ply:
        raise PlayError("aufgabe_stale",
                        "Dieser Versuch ist inzwischen weiter (in einem anderen Fenster?). Lade die Aufgabe neu.",
                        "This attempt has moved on (in another window?). Reload the puzzle.", 409)
    puzzle = _puzzle(row["puzzle_id"])
    engine = get_game(puzzle.game)
    line = list(puzzle.solution)
    state = _play(puzzle, line[:ply])
    try:
        chosen = engine.parse_move(state, text, puzzle.seat)
        canonical = engine.move_text(state, chosen)
        after = engine.apply(state, chosen, puzzle.seat)
    except GameError as exc:
        raise PlayError("aufgabe_illegal_move", exc.de, exc.en, 400) from None
    off_line = None
    if canonical == line[ply]:
        new_ply = ply + 1
        if new_ply < len(line):
            new_ply += 1  # the stored forced reply
        status = "solved" if new_ply >= len(line) else "open"
    elif _solves(puzzle, after):  # another move that wins at once: solved off the line
        new_ply, status, off_line = ply, "solved", canonical
    else:
        new_ply, status, off_line = ply, "failed", canonical
    conn.execute(
        "UPDATE puzzle_attempts SET ply = %s, status = %s, off_line_move = %s,"
        " finished_at = CASE WHEN %s = 'open' THEN NULL ELSE now() END WHERE id = %s",
        (new_ply, status, off_line, status, attempt_id),
    )
    if status != "open":
        _finish(conn, account.id, row, puzzle, status == "solved")
    # Still open after a right move: the stored reply was played; the page shows the move first.
    reply_from = engine.view(after, puzzle.seat) if status == "open" else None
    return attempt_payload(conn, attempt_id, reply_from, now)


def _finish(conn: psycopg.Connection, user_id: int, row: dict[str, Any], puzzle: catalog.Puzzle,
            solved: bool) -> None:
    if row["counted"]:
        change = puzzle_ratings.rate(conn, user_id, puzzle.game, puzzle.id, float(puzzle.rating), 1.0 if solved else 0.0)
        conn.execute(
            "UPDATE puzzle_attempts SET player_before = %s, player_after = %s, puzzle_before = %s, puzzle_after = %s"
            " WHERE id = %s",
            (change["player_before"], change["player_after"], change["puzzle_before"], change["puzzle_after"], row["id"]),
        )
    if row["streak_id"] is not None:
        if solved:
            conn.execute("UPDATE puzzle_streaks SET length = length + 1 WHERE id = %s", (row["streak_id"],))
        else:
            conn.execute("UPDATE puzzle_streaks SET ended = true WHERE id = %s", (row["streak_id"],))


# ---- what the client sees ------------------------------------------------------------------------
def streak_status(conn: psycopg.Connection, user_id: int, game: str) -> dict[str, int]:
    running = conn.execute(
        "SELECT length FROM puzzle_streaks WHERE user_id = %s AND game = %s AND NOT ended", (user_id, game)
    ).fetchone()
    best = conn.execute(
        "SELECT COALESCE(max(length), 0) AS best FROM puzzle_streaks WHERE user_id = %s AND game = %s", (user_id, game)
    ).fetchone()
    return {"length": int(running["length"]) if running else 0, "best": int(best["best"])}


def attempt_payload(conn: psycopg.Connection, attempt_id: int, reply_from: dict[str, Any] | None = None,
                    now: dt.datetime | None = None) -> dict[str, Any]:
    """The attempt as its player sees it (``AufgabeAttempt``): the solver's view at its ply; the
    solution, its views, the themes and the puzzle's rating only once the attempt has ended, and
    for the day's puzzle the solution and themes only after its day (``now``, default the
    clock).  ``reply_from``: in the answer to a right move, the solver's view after that move,
    before the reply."""
    row = conn.execute("SELECT * FROM puzzle_attempts WHERE id = %s", (attempt_id,)).fetchone()
    puzzle = _puzzle(row["puzzle_id"])
    line = list(puzzle.solution)
    played = line[: row["ply"]]
    ended = row["status"] != "open"
    sealed = row["day"] is not None and row["day"] >= berlin_day(now or dt.datetime.now(dt.UTC))
    shown = played + ([row["off_line_move"]] if row["off_line_move"] else [])
    names = {t["key"]: t for t in theme_texts(puzzle.game)}
    payload: dict[str, Any] = {
        "attempt_id": int(row["id"]), "game": puzzle.game, "puzzle_id": puzzle.id, "mode": row["mode"],
        "day": row["day"].isoformat() if row["day"] else None, "counted": bool(row["counted"]),
        "status": row["status"], "ply": int(row["ply"]), "seat": puzzle.seat,
        "task": {"de": puzzle.task["de"], "en": puzzle.task["en"]},
        "themes": [names[key] for key in puzzle.themes if key in names] if ended and not sealed else [],
        "view": _view(puzzle, shown), "line": shown, "last_move": shown[-1] if shown else None,
        "wrong_move": row["off_line_move"] if row["status"] == "failed" else None, "reply_from": reply_from,
        "player": puzzle_ratings.player_rating(conn, row["user_id"], puzzle.game),
        "puzzle_rating": None, "change": None, "solution": None, "solution_views": None,
        "streak": streak_status(conn, row["user_id"], puzzle.game) if row["mode"] == "streak" else None,
        "solution_from": (row["day"] + dt.timedelta(days=1)).isoformat() if ended and sealed else None,
    }
    if ended:
        initial = float(puzzle.rating)
        payload["puzzle_rating"] = round(puzzle_ratings.puzzle_rating(conn, puzzle.game, puzzle.id, initial).rating)
        if not sealed:
            payload["solution"] = line
            payload["solution_views"] = [_view(puzzle, line[:n]) for n in range(len(line) + 1)]
        if row["player_after"] is not None:
            payload["change"] = {key: round(float(row[key])) for key in
                                 ("player_before", "player_after", "puzzle_before", "puzzle_after")}
    return payload


def overview(conn: psycopg.Connection, account: Account, game: str, now: dt.datetime) -> dict[str, Any]:
    """The page's head: the player's rating, streaks, the themes to filter by, today's daily state."""
    if game not in GAMES:
        raise PlayError("aufgaben_unknown_game", "Für dieses Spiel gibt es keine Aufgaben.",
                        "There are no puzzles for this game.", 404)
    today = berlin_day(now)
    daily = conn.execute(
        "SELECT status FROM puzzle_attempts WHERE user_id = %s AND game = %s AND mode = 'daily' AND day = %s"
        " ORDER BY id LIMIT 1", (account.id, game, today)).fetchone()
    return {"game": game, "player": puzzle_ratings.player_rating(conn, account.id, game),
            "streak": streak_status(conn, account.id, game), "themes": filter_themes(game),
            "day": today.isoformat(), "daily_status": daily["status"] if daily else None,
            "count": len(catalog.load(game))}
