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
timeout.

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


def resend_stale(conn: psycopg.Connection, send: Callable[[int, int], None],
                 stale_after: float | None = None) -> list[tuple[int, int]]:
    """Send again every running part whose worker went silent; return their (review_id, part).

    ``stale_after`` (seconds) overrides :func:`stale_limit_s`.  The heartbeat is reset in
    the same statement that picks a part, so of several processes looking at once only
    one sends it, and it is not sent again before the new task had its chance."""
    rows = conn.execute(
        """
        UPDATE review_parts p SET heartbeat_at = now()
          FROM reviews r
         WHERE r.id = p.review_id AND r.status = 'running' AND p.status = 'running'
           AND p.heartbeat_at < now() - make_interval(secs => coalesce(%(after)s::float8,
                                                                      %(min)s + %(per)s * r.budget_ms / 1000.0))
        RETURNING p.review_id, p.part
        """, {"after": stale_after, "min": STALE_MIN_S, "per": STALE_BUDGETS}).fetchall()
    found = sorted((r["review_id"], r["part"]) if isinstance(r, dict) else (r[0], r[1]) for r in rows)
    for review_id, part in found:
        send(review_id, part)
    return found


def counts(conn: psycopg.Connection, review_ids: Sequence[int]) -> dict[str, int]:
    rows = conn.execute("SELECT status, count(*) AS n FROM reviews WHERE id = ANY(%s) GROUP BY status",
                        (list(review_ids),)).fetchall()
    found = {r["status"]: r["n"] for r in rows}
    return {s: found.get(s, 0) for s in ("queued", "running", "done", "failed")}


def celery_send(review_id: int) -> None:
    from services.ai_worker.app import app

    app.send_task(TASK_NAME, args=[review_id])


def celery_send_part(review_id: int, part: int) -> None:
    from services.ai_worker.app import app

    app.send_task(TASK_NAME, args=[review_id, part])


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
         send_part: Callable[[int, int], None] = celery_send_part) -> int:
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
                    for review_id, part in resend_stale(conn, send_part, args.stale_after):
                        print(f"\nRückblick {review_id} Teil {part} neu gesendet (Arbeiter ohne Lebenszeichen) / "
                              f"review {review_id} part {part} sent again (worker silent)", file=out, flush=True)
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
