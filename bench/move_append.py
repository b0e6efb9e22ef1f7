"""The statement that appends moves: this process's CPU per statement, JSON against list parameters.

``python -m bench.move_append [--statements N] [--rounds R]`` prints JSON.

``game_store.append_moves`` sends its moves as one JSON text (``json_to_recordset``).  The
baseline is the form it replaced, kept here: plain parameters with the two clock arrays
for one move, twelve parallel arrays (``unnest``) for a batch.  Both run on an embedded
PostgreSQL (or ``DATABASE_URL``), autocommit as the game service's move writer, for
batches of one, two and three moves, the two forms alternating round by round; CPU is
this process's (``time.process_time``), so PostgreSQL's own work is not in it.
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
_ONE = (
    "UPDATE games SET moves = array_append(moves, %s::text), move_seats = array_append(move_seats, %s::smallint),"
    " move_times = array_append(move_times, %s::integer), remaining_ms = %s::integer[], lag_quota_ms = %s::integer[],"
    " turn_started_at = %s, version = %s, draw_offer = NULL, takeback_offer = NULL"
    " WHERE id = %s AND xmin = %s::text::xid AND status = 'running'"
    " RETURNING id, xmin::text::bigint AS xmin"
)


def append_with_lists(conn: Any, moves: list[MoveAppend]) -> dict[int, int]:
    """The list-parameter form: plain parameters for one move, parallel arrays for more."""
    if len(moves) == 1:
        m = moves[0]
        return game_store._xmins(conn.execute(_ONE, (m.move, m.seat, m.spent_ms, m.remaining_ms,
                                                     list(m.lag_quota_ms), m.turn_started_at, m.version,
                                                     m.game_id, str(m.expected_xmin))))
    timed = [m.remaining_ms or (None, None) for m in moves]
    return game_store._xmins(conn.execute(_LISTS, (
        [m.game_id for m in moves], [m.expected_xmin for m in moves], [m.move for m in moves],
        [m.seat for m in moves], [m.spent_ms for m in moves], [m.remaining_ms is not None for m in moves],
        [r[0] for r in timed], [r[1] for r in timed], [m.lag_quota_ms[0] for m in moves],
        [m.lag_quota_ms[1] for m in moves], [m.turn_started_at for m in moves], [m.version for m in moves],
    )))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statements", type=int, default=400, help="statements per form, batch size and round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    from tests.stack import start_infra
    from tests.table_rows import move_append, running_game, tables_pool

    infra = start_infra(Path(tempfile.mkdtemp(prefix="spielcenter-bench-append-")) / "infra")
    try:
        setup = db.make_pool(infra.database_url, max_size=1)
        rows = [running_game(setup, clock={"base_ms": 600_000, "inc_ms": 0}) for _ in range(3)]
        setup.close()
        pool = tables_pool(infra.database_url, max_size=1)
        xmins = {row.id: row.xmin for row in rows}
        versions = {row.id: row.version for row in rows}
        forms = {"json": game_store.append_moves, "lists": append_with_lists}
        cpu_us: dict[str, dict[int, list[float]]] = {name: {n: [] for n in (1, 2, 3)} for name in forms}
        with pool.connection() as conn:
            for _ in range(args.rounds):
                for n in (1, 2, 3):
                    for name, append in forms.items():
                        # The rows' move lists grow alike for both forms: each round writes as many moves.
                        template = [move_append(row, "a1", 0) for row in rows[:n]]
                        started = time.process_time()
                        for _ in range(args.statements):
                            batch = [dataclasses.replace(m, expected_xmin=xmins[m.game_id],
                                                         version=versions[m.game_id] + 1) for m in template]
                            written = append(conn, batch)
                            assert len(written) == n, "a row changed under the benchmark"
                            for m in batch:
                                xmins[m.game_id] = written[m.game_id]
                                versions[m.game_id] += 1
                        cpu_us[name][n].append((time.process_time() - started) * 1e6 / args.statements)
        pool.close()
    finally:
        infra.stop()
    result: dict[str, Any] = {"statements": args.statements, "rounds": args.rounds, "cpu_us_per_statement": {}}
    for n in (1, 2, 3):
        json_us, lists_us = statistics.median(cpu_us["json"][n]), statistics.median(cpu_us["lists"][n])
        result["cpu_us_per_statement"][f"{n} moves"] = {
            "json": round(json_us), "lists": round(lists_us), "ratio_json_to_lists": round(json_us / lists_us, 2)}
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
