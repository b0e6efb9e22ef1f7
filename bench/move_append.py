"""The statement that appends moves: this process's CPU per statement, JSON against list parameters.

``python -m bench.move_append [--statements N] [--rounds R]`` prints JSON.

``game_store.append_moves`` sends a batch of moves as one JSON text (``json_to_recordset``),
one move with plain parameters.  The baseline is the batch form the JSON one replaced,
kept here: twelve parallel arrays (``unnest``); for one move the plain statement runs
too, as the reason a batch of one does not take the JSON form.  All run on an embedded
PostgreSQL (or ``DATABASE_URL``), autocommit as the game service's move writer, for
batches of one, two and three moves, the two forms alternating round by round, with
3,000 other games stored (the planner picks its join by the table's size).  CPU per
statement is this process's (``time.process_time``) and that of the PostgreSQL backend
serving its connection (the kernel's counters for ``pg_backend_pid()``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

from shared import db, game_store
from shared.game_store import MoveAppend

_LISTS = (
    "UPDATE games AS g SET moves = array_append(g.moves, v.move),"
    " move_seats = array_append(g.move_seats, v.seat), move_times = array_append(g.move_times, v.spent),"
    " remaining_ms = CASE WHEN v.has_remaining THEN ARRAY[v.r0, v.r1] END, lag_quota_ms = ARRAY[v.q0, v.q1],"
    " turn_started_at = v.turn_started_at, version = v.version, draw_offer = NULL, takeback_offer = NULL"
    " FROM unnest(%s::bigint[], %s::bigint[], %s::text[], %s::smallint[], %s::integer[], %s::boolean[],"
    " %s::bigint[], %s::bigint[], %s::integer[], %s::integer[], %s::timestamptz[], %s::integer[])"
    " AS v(id, expected_xmin, move, seat, spent, has_remaining, r0, r1, q0, q1, turn_started_at, version)"
    " WHERE g.id = v.id AND g.xmin = v.expected_xmin::text::xid AND g.status = 'running'"
    " RETURNING g.id, g.xmin::text::bigint AS xmin"
)


def append_with_lists(conn: Any, moves: list[MoveAppend]) -> dict[int, int]:
    """The batch statement as it was: twelve parallel arrays."""
    timed = [m.remaining_ms or (None, None) for m in moves]
    return game_store._xmins(conn.execute(_LISTS, (
        [m.game_id for m in moves], [m.expected_xmin for m in moves], [m.move for m in moves],
        [m.seat for m in moves], [m.spent_ms for m in moves], [m.remaining_ms is not None for m in moves],
        [r[0] for r in timed], [r[1] for r in timed], [m.lag_quota_ms[0] for m in moves],
        [m.lag_quota_ms[1] for m in moves], [m.turn_started_at for m in moves], [m.version for m in moves],
    )))


def append_with_json(conn: Any, moves: list[MoveAppend]) -> dict[int, int]:
    """The batch statement ``game_store.append_moves`` sends for two moves or more, for any number."""
    return game_store._xmins(conn.execute(game_store._APPEND_MOVES,
                                          (game_store._append_rows(moves), [m.game_id for m in moves])))


def _ratio(a: float, b: float) -> float | None:
    """a ÷ b; None where b measured nothing (the kernel counts a process's CPU in 10 ms ticks:
    a short run may see none in PostgreSQL's backend)."""
    return round(a / b, 2) if b else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statements", type=int, default=150,
                        help="statements per form, batch size and round (a game's length of moves)")
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()

    from tests.stack import start_infra
    from tests.table_rows import copies_of_game, move_append, running_game, tables_pool

    infra = start_infra(Path(tempfile.mkdtemp(prefix="spielcenter-bench-append-")) / "infra")
    try:
        setup = db.make_pool(infra.database_url, max_size=1)
        rows = [running_game(setup, clock={"base_ms": 600_000, "inc_ms": 0}) for _ in range(3)]
        with setup.connection() as conn, conn.transaction():
            copies_of_game(conn, rows[0].id, 3000)
        setup.close()
        pool = tables_pool(infra.database_url, max_size=1)
        xmins = {row.id: row.xmin for row in rows}
        versions = {row.id: row.version for row in rows}
        # "plain": what append_moves sends for one move (game_store._APPEND_MOVE).
        forms = {"json": append_with_json, "lists": append_with_lists, "plain": game_store.append_moves}
        cpu_us: dict[str, dict[int, list[float]]] = {name: {n: [] for n in (1, 2, 3)} for name in forms}
        pg_us: dict[str, dict[int, list[float]]] = {name: {n: [] for n in (1, 2, 3)} for name in forms}
        with pool.connection() as conn:
            backend = psutil.Process(conn.info.backend_pid)
            for _ in range(args.rounds):
                for n in (1, 2, 3):
                    for name, append in forms.items():
                        if name == "plain" and n > 1:
                            continue
                        # Each form starts from empty move lists: a game's lists stay short, and
                        # array_append copies the whole list.
                        xmins.update(game_store._xmins(conn.execute(
                            "UPDATE games SET moves = '{}', move_seats = '{}', move_times = '{}'"
                            " WHERE id = ANY(%s) RETURNING id, xmin::text::bigint AS xmin",
                            ([row.id for row in rows],))))
                        template = [move_append(row, "a1", 0) for row in rows[:n]]
                        started, pg_started = time.process_time(), sum(backend.cpu_times()[:2])
                        for _ in range(args.statements):
                            batch = [dataclasses.replace(m, expected_xmin=xmins[m.game_id],
                                                         version=versions[m.game_id] + 1) for m in template]
                            written = append(conn, batch)
                            assert len(written) == n, "a row changed under the benchmark"
                            for m in batch:
                                xmins[m.game_id] = written[m.game_id]
                                versions[m.game_id] += 1
                        cpu_us[name][n].append((time.process_time() - started) * 1e6 / args.statements)
                        pg_us[name][n].append((sum(backend.cpu_times()[:2]) - pg_started) * 1e6 / args.statements)
        pool.close()
    finally:
        infra.stop()
    result: dict[str, Any] = {"statements": args.statements, "rounds": args.rounds, "cpu_us_per_statement": {},
                              "postgres_cpu_us_per_statement": {}}
    for key, table in (("cpu_us_per_statement", cpu_us), ("postgres_cpu_us_per_statement", pg_us)):
        for n in (1, 2, 3):
            us = {name: statistics.median(table[name][n]) for name in forms if table[name][n]}
            result[key][f"{n} moves"] = {**{name: round(v) for name, v in us.items()},
                                         "ratio_json_to_lists": _ratio(us["json"], us["lists"]),
                                         **({"ratio_json_to_plain": _ratio(us["json"], us["plain"])}
                                            if "plain" in us else {})}
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
