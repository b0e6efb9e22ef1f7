"""Reviews: queue one, or queue every finished game of a period / player (batch).

    python -m services.ai_worker.review --from 2026-11-01 --to 2026-11-30 [--player NAME] [--seat 0|1]
           [--budget-ms 1000] [--no-wait] [--stale-after SECONDS]

selects the finished games (``finished_at`` between the two UTC dates, both included;
with ``--player`` only that account's games and only its seat; ``--seat`` restricts to
one seat), writes a ``reviews`` row (status ``queued``) for every (game, seat) that has
none, sends ``ai.review_game`` (queue ``batch``) for every queued review not yet
sent, and shows ``done/total`` updating until all are done.

Reviews are sent longest game first, so that with several workers the batch ends on
short work.  While it waits, the command sends again every review part whose worker went
silent (heartbeat older than ``--stale-after`` seconds, by default 10 s + 3 × the budget
per move; see ``review_task``): a whole worker killed mid-review is replaced by any
other batch worker within seconds instead of after the broker's one-hour visibility
timeout.  Once the batch queue is empty, it also sends again every part (or review)
handed out longer ago than that limit that no worker started: its worker died between
taking the message and starting (:func:`resend_stale`).

Interrupt with Ctrl-C at any moment and start it again: a review that is done is
skipped, a queued one already sent is not sent twice (``enqueued_at``), one written but
not yet sent is sent now, and a running one continues where its task stopped
(``review_task``).  Exit status 0 when all are done, 1 when some failed, 130 when
interrupted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from collections.abc import Callable, Sequence

import psycopg
from psycopg.rows import dict_row

from shared import settings

DEFAULT_BUDGET_MS = 1000
TASK_NAME = "ai.review_game"
STALE_MIN_S = 10.0
STALE_BUDGETS = 3  # judged moves' budgets on top of STALE_MIN_S
SWEEP_EVERY_S = 2.0  # how often the waiting command looks for parts of dead workers
WHY = {"silent": ("Arbeiter ohne Lebenszeichen", "worker silent"),
       "never started": ("genommen, nie begonnen", "taken, never started")}


def review_seats(conn: psycopg.Connection, date_from: dt.date, date_to: dt.date, player: str | None = None,
                 seat: int | None = None) -> list[tuple[int, int]]:
    """(game_id, seat) of every finished game in the range to review, oldest first."""
    rows = conn.execute(
        """
        SELECT g.id, s.seat
          FROM games g
         CROSS JOIN (VALUES (0), (1)) AS s(seat)
          LEFT JOIN users u ON u.id = CASE s.seat WHEN 0 THEN g.seat0_user_id ELSE g.seat1_user_id END
         WHERE g.status = 'finished'
           AND g.finished_at >= %(start)s AND g.finished_at < %(end)s
           AND (%(player)s::text IS NULL OR u.name_key = %(player)s::text)
           AND (%(seat)s::int IS NULL OR s.seat = %(seat)s::int)
         ORDER BY g.finished_at, g.id, s.seat
        """,
        {"start": dt.datetime.combine(date_from, dt.time(), dt.UTC),
         "end": dt.datetime.combine(date_to + dt.timedelta(days=1), dt.time(), dt.UTC),
         "player": player.casefold() if player else None, "seat": seat},
    ).fetchall()
    return [(r["id"], r["seat"]) if isinstance(r, dict) else (r[0], r[1]) for r in rows]


def ensure_reviews(conn: psycopg.Connection, targets: Sequence[tuple[int, int]], budget_ms: int) -> list[int]:
    """The review ids for ``targets``, writing ``queued`` rows for those without one."""
    ids = []
    for game_id, seat in targets:
        row = conn.execute(
            "INSERT INTO reviews (game_id, seat, budget_ms) VALUES (%s, %s, %s)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET game_id = EXCLUDED.game_id RETURNING id",
            (game_id, seat, budget_ms)).fetchone()
        ids.append(row["id"] if isinstance(row, dict) else row[0])
    return ids


def send_unsent(conn: psycopg.Connection, review_ids: Sequence[int], send: Callable[[int], None]) -> int:
    """Send the task of every queued, never-sent review among ``review_ids``; return how many.

    ``enqueued_at`` is set right after each send: an interruption between the two sends
    that one review twice at worst, which the task's lock and stored moves make harmless.
    """
    # Longest games first: with several workers the batch then ends on short reviews.
    rows = conn.execute("SELECT r.id FROM reviews r JOIN games g ON g.id = r.game_id WHERE r.id = ANY(%s)"
                        " AND r.status = 'queued' AND r.enqueued_at IS NULL"
                        " ORDER BY cardinality(g.moves) DESC, r.id", (list(review_ids),)).fetchall()
    for row in rows:
        review_id = row["id"] if isinstance(row, dict) else row[0]
        send(review_id)
        conn.execute("UPDATE reviews SET enqueued_at = now() WHERE id = %s", (review_id,))
    return len(rows)


def stale_limit_s(budget_ms: int) -> float:
    """Seconds without a heartbeat after which a running part counts as abandoned.

    A part beats with every stored move, about every ``budget_ms``; the limit leaves room
    for a slow move on a loaded machine.  A wrong guess costs little: the extra task finds
    the part's lock taken (or its moves stored) and ends."""
    return STALE_MIN_S + STALE_BUDGETS * budget_ms / 1000


def resend_stale(conn: psycopg.Connection, send: Callable[[int, int | None], None],
                 stale_after: float | None = None,
                 batch_waiting: Callable[[], int] | None = None) -> list[tuple[int, int | None, str]]:
    """Send again the work of workers that died; return ``(review_id, part, why)`` of each.

    ``why`` is ``"silent"``: a running part whose heartbeat is older than the limit
    (:func:`stale_limit_s`, or ``stale_after`` seconds).  It goes back to 'queued', handed
    out anew (``sent_at``) in the statement that picks it, so of several processes looking
    at once only one sends it; from then on it is a part handed out and not started:

    ``"never started"``: a part handed out, or a review's first task sent (``enqueued_at``;
    ``part`` None), longer ago than the same limit, that no worker started (nor beat for,
    ``heartbeat_at``) since, while the batch queue is empty.  Its message is then in no
    queue: a worker took it and died (or failed) before marking it, and the broker would
    hand it out again only after its one-hour visibility timeout (a failed task's message
    never).  A part still waiting in the queue, however long, is not sent twice; only one a
    live worker took a few milliseconds ago and has not marked yet can be, which costs one
    task that finds the part running or done.  Lowering the visibility timeout instead
    would have to stay above the longest part a worker runs (``CHUNK_SECONDS``: minutes)
    and would apply to the interactive queue too.  ``batch_waiting`` (messages in the
    batch queue; default: the broker's count) is asked only when such work exists."""
    limit = {"after": stale_after, "min": STALE_MIN_S, "per": STALE_BUDGETS}
    older = ("< now() - make_interval(secs => coalesce(%(after)s::float8,"
             " %(min)s + %(per)s * r.budget_ms / 1000.0))")
    rows = conn.execute(
        "UPDATE review_parts p SET status = 'queued', sent_at = now() FROM reviews r"
        " WHERE r.id = p.review_id AND r.status = 'running' AND p.status = 'running'"
        f" AND p.heartbeat_at {older} RETURNING p.review_id, p.part", limit).fetchall()
    found = [(_col(r, 0, "review_id"), _col(r, 1, "part"), "silent") for r in rows]
    unstarted_part = ("r.id = p.review_id AND r.status = 'running' AND p.status = 'queued'"
                      f" AND greatest(p.sent_at, p.heartbeat_at) {older}")
    unstarted = conn.execute(
        f"SELECT (EXISTS (SELECT 1 FROM review_parts p JOIN reviews r ON {unstarted_part})"
        f" OR EXISTS (SELECT 1 FROM reviews r WHERE r.status = 'queued' AND r.enqueued_at {older})) AS found",
        limit).fetchone()
    if _col(unstarted, 0, "found") and (batch_waiting or celery_batch_waiting)() == 0:
        rows = conn.execute(f"UPDATE review_parts p SET sent_at = now() FROM reviews r WHERE {unstarted_part}"
                            " RETURNING p.review_id, p.part", limit).fetchall()
        found += [(_col(r, 0, "review_id"), _col(r, 1, "part"), "never started") for r in rows]
        rows = conn.execute(f"UPDATE reviews r SET enqueued_at = now() WHERE r.status = 'queued' AND r.enqueued_at"
                            f" {older} RETURNING r.id", limit).fetchall()
        found += [(_col(r, 0, "id"), None, "never started") for r in rows]
    found.sort(key=lambda f: (f[0], -1 if f[1] is None else f[1]))
    for review_id, part, _why in found:
        send(review_id, part)
    return found


def _col(row: object, index: int, name: str) -> object:
    return row[name] if isinstance(row, dict) else row[index]


def counts(conn: psycopg.Connection, review_ids: Sequence[int]) -> dict[str, int]:
    rows = conn.execute("SELECT status, count(*) AS n FROM reviews WHERE id = ANY(%s) GROUP BY status",
                        (list(review_ids),)).fetchall()
    found = {r["status"]: r["n"] for r in rows}
    return {s: found.get(s, 0) for s in ("queued", "running", "done", "failed")}


def celery_send(review_id: int) -> None:
    from services.ai_worker.app import app

    app.send_task(TASK_NAME, args=[review_id])


def celery_send_part(review_id: int, part: int | None) -> None:
    """``part`` None: the review's first task (it plans the parts)."""
    from services.ai_worker.app import app

    app.send_task(TASK_NAME, args=[review_id] if part is None else [review_id, part])


def celery_batch_waiting() -> int:
    """Messages waiting in the batch queue, as the broker counts them (every priority)."""
    from services.ai_worker.app import BATCH, app

    with app.connection_for_read() as connection:
        # Not passive: the Redis transport calls an empty queue missing.  Declaring it is harmless.
        return connection.default_channel.queue_declare(queue=BATCH).message_count


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"kein Datum JJJJ-MM-TT / not a date YYYY-MM-DD: {text!r}") from None


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m services.ai_worker.review",
        description="Rückblicke für beendete Partien einreihen / queue reviews of finished games")
    parser.add_argument("--from", dest="date_from", type=_date, required=True, help="erster Tag / first day (UTC)")
    parser.add_argument("--to", dest="date_to", type=_date, required=True, help="letzter Tag / last day (UTC)")
    parser.add_argument("--player", help="nur Partien dieses Kontos, nur sein Platz / only this account's seat")
    parser.add_argument("--seat", type=int, choices=(0, 1), help="nur dieser Platz / only this seat")
    parser.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS,
                        help="Rechenzeit je Zug (ms) / search time per move (ms)")
    parser.add_argument("--no-wait", action="store_true", help="nur einreihen / only queue, do not wait")
    parser.add_argument("--stale-after", type=float, default=None,
                        help="Sekunden ohne Lebenszeichen, nach denen ein Teil neu gesendet wird / seconds without a "
                             "heartbeat after which a part is sent again (default 10 + 3 x budget)")
    parser.add_argument("--interval", type=float, default=0.5, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None, send: Callable[[int], None] = celery_send,
         send_part: Callable[[int, int | None], None] = celery_send_part) -> int:
    args = parse_args(argv)
    out = sys.stdout
    try:
        with psycopg.connect(settings.load().database_url, autocommit=True, row_factory=dict_row) as conn:
            ids = ensure_reviews(conn, review_seats(conn, args.date_from, args.date_to, args.player, args.seat),
                                 args.budget_ms)
            before = counts(conn, ids)
            sent = send_unsent(conn, ids, send)
            print(f"Rückblicke / reviews: {len(ids)} gesamt/total, {before['done']} fertig/done, "
                  f"{sent} neu eingereiht/newly queued", file=out, flush=True)
            if args.no_wait or not ids:
                return 0
            next_sweep = time.monotonic() + SWEEP_EVERY_S
            while True:
                if time.monotonic() >= next_sweep:
                    next_sweep = time.monotonic() + SWEEP_EVERY_S
                    for review_id, part, why in resend_stale(conn, send_part, args.stale_after):
                        de, en = WHY[why]
                        teil, part_en = ("", "") if part is None else (f" Teil {part}", f" part {part}")
                        print(f"\nRückblick {review_id}{teil} neu gesendet ({de}) / "
                              f"review {review_id}{part_en} sent again ({en})", file=out, flush=True)
                now = counts(conn, ids)
                finished = now["done"] + now["failed"]
                print(f"\rFertig / done {now['done']}/{len(ids)}  läuft/running {now['running']}  "
                      f"wartet/queued {now['queued']}  Fehler/failed {now['failed']}", end="", file=out, flush=True)
                if finished == len(ids):
                    print(file=out, flush=True)
                    return 1 if now["failed"] else 0
                time.sleep(args.interval)
    except KeyboardInterrupt:
        print("\nUnterbrochen – erneut starten setzt fort / interrupted – run again to continue", file=out,
              flush=True)
        return 130


if __name__ == "__main__":
    sys.exit(main())
