"""Durability and concurrency: a SIGKILLed game service, two processes serving one table."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

from tests.metrics_scrape import scrape, value
from tests.stack import Infra, ServiceProcess
from tests.table_client import TableClient, legal_texts, load, my_turn, new_game, players, stored_when
from tests.tables.test_play import play_out


def test_the_game_goes_on_after_the_service_is_killed(infra: Infra, log_dir: Path, pool) -> None:  # noqa: ANN001
    a, b = players(pool)
    game_id = new_game(pool, "hexagon", (a.id, b.id), clock={"base_ms": 120_000, "inc_ms": 1000})
    first = ServiceProcess("services.game", infra, "GAME_PORT", log_dir).start()
    clients = [TableClient(first.url, x).connect() for x in (a, b)]
    second = None
    try:
        for c in clients:
            c.join(game_id)
        rng = random.Random(3)
        for ply in range(6):
            mover = next(c for c in clients if my_turn(c.state(game_id, lambda s, v=ply: s["version"] == v)))
            mover.emit("table:move", {"game_id": game_id, "version": ply,
                                      "move": rng.choice(legal_texts(mover.states[game_id]))})
        for c in clients:
            c.state(game_id, lambda s: s["version"] == 6)
        # Served by one process, the sixth move is shown before it is written: wait for the row.
        before = stored_when(pool, game_id, lambda r: r.version == 6)
        first.kill()
        killed = time.monotonic()
        for c in clients:
            c.close()
        time.sleep(2)  # the scenario: the service stays away, long past the clock check's 500 ms slack
        second = ServiceProcess("services.game", infra, "GAME_PORT", log_dir).start()
        clients = [TableClient(second.url, x).connect() for x in (a, b)]
        states = [c.join(game_id) for c in clients]
        down_ms = (time.monotonic() - killed) * 1000
        assert states[0]["version"] == 6 and states[0]["moves"] == before.moves
        # The clock of the side to move kept running while the service was away, recomputed from stored times.
        running = states[0]["clocks"]["running"]
        assert running == 0
        assert states[0]["clocks"]["remaining_ms"][running] <= before.remaining_ms[running] - down_ms + 500
        assert states[0]["clocks"]["remaining_ms"][1] == before.remaining_ms[1]
        final = play_out(game_id, clients, rng)
        assert final["status"] == "finished" and load(pool, game_id).moves[:6] == before.moves
    finally:
        for c in clients:
            c.close()
        first.stop()
        if second is not None:
            second.stop()


def test_two_processes_serve_one_table_without_races(infra: Infra, log_dir: Path, pool) -> None:  # noqa: ANN001
    a, b, w = players(pool, 3)
    game_id = new_game(pool, "bullet", (a.id, b.id), clock={"base_ms": 600_000, "inc_ms": 0},
                       options={"move_limit": 100})
    one = ServiceProcess("services.game", infra, "GAME_PORT", log_dir).start()
    two = ServiceProcess("services.game", infra, "GAME_PORT", log_dir).start()
    # a plays in two tabs, one on each process; b is on the second process; w watches on
    # the first (the second builds the spectator state only once it learns of w).
    a1, a2, b2 = TableClient(one.url, a).connect(), TableClient(two.url, a).connect(), TableClient(two.url, b).connect()
    c1 = TableClient(one.url, w).connect()
    clients = [a1, a2, b2, c1]
    try:
        for c in clients:
            c.join(game_id)
        rng = random.Random(11)
        for ply in range(0, 20, 2):
            state = a1.state(game_id, lambda s, v=ply: s["version"] == v)
            a2.state(game_id, lambda s, v=ply: s["version"] == v)
            options = legal_texts(state)
            # Both of a's tabs send a different move for the same version at the same moment.
            gate = threading.Barrier(2)

            def send(client: TableClient, text: str, v: int = ply, gate: threading.Barrier = gate) -> None:
                gate.wait()
                client.emit("table:move", {"game_id": game_id, "version": v, "move": text})

            threads = [threading.Thread(target=send, args=(c, rng.choice(options))) for c in (a1, a2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            after = b2.state(game_id, lambda s, v=ply: s["version"] == v + 1)
            # b answers from the other process.
            b2.emit("table:move", {"game_id": game_id, "version": ply + 1, "move": rng.choice(legal_texts(after))})
            for c in clients:
                c.state(game_id, lambda s, v=ply: s["version"] == v + 2)
        row = load(pool, game_id)
        assert len(row.moves) == 20 and row.version == 20
        # Exactly one of each pair of simultaneous moves was refused as stale; nothing else went wrong.
        a1.quiet()
        a2.quiet()
        codes = [e["code"] for e in a1.errors + a2.errors]
        assert codes.count("stale_version") + codes.count("not_your_turn") == 10, codes
        assert set(codes) <= {"stale_version", "not_your_turn"}
        # All four sockets hold the same table; the spectator's has no legal moves.
        assert a1.states[game_id]["moves"] == a2.states[game_id]["moves"] == b2.states[game_id]["moves"] == \
            c1.states[game_id]["moves"] == row.moves
        assert c1.states[game_id]["you"] is None and c1.states[game_id]["view"]["legal_moves"] == []
        # Served by both processes, the table's moves were all written before anyone saw them.
        assert [value(scrape(f"{p.url}/metrics"), "spielcenter_game_moves_shown_first_total") for p in (one, two)] == [0, 0]
        # Both processes watch the flags of every table: a flag falls once, one game_finished event.
        flagged = new_game(pool, "hexagon", (a.id, b.id), clock={"base_ms": 1500, "inc_ms": 0})
        a1.join(flagged)
        b2.join(flagged)
        assert b2.state(flagged, lambda s: s["status"] == "finished", timeout=15)["result"]["reason"] == "zeit"
        # A duration: the other process's flag rounds (every 0.2 s, new games every 1 s) must have had
        # their chance to flag it again, and a round that finds nothing leaves no trace to wait for.
        time.sleep(1.0)
        with pool.connection() as conn:
            events = conn.execute("SELECT count(*) AS n FROM outbox WHERE type = 'game_finished'"
                                  " AND payload->>'game_id' = %s", (str(flagged),)).fetchone()["n"]
        assert events == 1
    finally:
        for c in clients:
            c.close()
        one.stop()
        two.stop()
