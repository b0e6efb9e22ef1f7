"""``bench.tables_scaling``: the run order that cancels a drifting host, and the ratios it reports."""

from __future__ import annotations

from bench.tables_scaling import abba, summary


def _run(processes: int, ours: float, echo: float) -> dict:
    return {"game_processes": processes,
            "game_service": {"cpu_ms_per_move": {"server": ours, "postgres_redis": 0.0, "clients": 5.0}},
            "echo": {"cpu_ms_per_move": {"server": echo, "clients": 5.0}}}


def test_the_runs_alternate_in_abba_order() -> None:
    assert abba(3, 2) == [1, 2, 2, 1, 1, 2]
    assert abba(2, 4) == [1, 4, 4, 1]


def test_a_linear_drift_falls_on_both_sides_alike() -> None:
    # The host slows by 0.1 ms a run; two processes cost 20 % more than one.
    order = abba(2, 2)
    runs = [_run(p, (1.0 + 0.1 * i) * (1.2 if p == 2 else 1.0), 1.0 + 0.1 * i) for i, p in enumerate(order)]
    result = summary(runs, 2)
    assert result["ratio_pooled"] == 1.2
    # Each neighbouring pair alone is off by the drift between its two runs, in opposite directions.
    assert result["ratios"] == [round(1.2 * 1.1 / 1.0, 3), round(1.2 * 1.2 / 1.3, 3)]
    assert result["echo_ratio_pooled"] == 1.0


def test_postgres_and_redis_count_with_the_server() -> None:
    runs = [_run(1, 1.0, 1.0), _run(2, 1.0, 1.0)]
    runs[1]["game_service"]["cpu_ms_per_move"]["postgres_redis"] = 0.5
    assert summary(runs, 2)["ratios"] == [1.5]
