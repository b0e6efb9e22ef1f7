"""Reviews: queue one, or queue every finished game of a period / player (batch).

    python -m services.ai_worker.review --from 2026-11-01 --to 2026-11-30 [--player NAME] [--seat 0|1]
           [--budget-ms 1000] [--no-wait]

selects the finished games (``finished_at`` between the two UTC dates, both included;
with ``--player`` only that account's games and only its seat; ``--seat`` restricts to
one seat), writes a ``reviews`` row (status ``queued``) for every (game, seat) that has
none, sends ``ai.review_game`` (queue ``batch``) for every queued review not yet
sent, and shows ``done/total`` updating until all are done.

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
    rows = conn.execute("SELECT id FROM reviews WHERE id = ANY(%s) AND status = 'queued' AND enqueued_at IS NULL"
                        " ORDER BY id", (list(review_ids),)).fetchall()
    for row in rows:
        review_id = row["id"] if isinstance(row, dict) else row[0]
        send(review_id)
        conn.execute("UPDATE reviews SET enqueued_at = now() WHERE id = %s", (review_id,))
    return len(rows)


def counts(conn: psycopg.Connection, review_ids: Sequence[int]) -> dict[str, int]:
    rows = conn.execute("SELECT status, count(*) AS n FROM reviews WHERE id = ANY(%s) GROUP BY status",
                        (list(review_ids),)).fetchall()
    found = {r["status"]: r["n"] for r in rows}
    return {s: found.get(s, 0) for s in ("queued", "running", "done", "failed")}


def celery_send(review_id: int) -> None:
    from services.ai_worker.app import app

    app.send_task(TASK_NAME, args=[review_id])


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
    parser.add_argument("--interval", type=float, default=0.5, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None, send: Callable[[int], None] = celery_send) -> int:
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
            while True:
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
