"""Load over real sockets (``bench.load``): bots behind the deploy's nginx (``bench.nginx_router``) in
front of two lobby and two game processes chat, challenge and play all four games, with each other
and with the computer.

The short run is part of the default suite: ten bots, zero errors, every rated game
settled exactly once and the Taler ledger holding exactly the start capital.  The
long ramp (growing numbers of concurrent games, one against two processes) runs
under ``make proof``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.load import GAMES, LoadStack, load_stack, ramp

pytestmark = pytest.mark.serial  # the load run counts every dropped socket as an error: it gets the machine to itself

_SHARED: dict[str, Any] = {}


@pytest.fixture(scope="session")
def proof_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoadStack]:
    """The whole system behind nginx, with a PostgreSQL and Redis of its own (the fault tests restart
    them, and the ledger check sums every entry), started once per session: ``tests/proof/test_faults.py``
    imports this fixture too, and a fixture imported into two modules is set up once per module."""
    if "stack" not in _SHARED:
        context = load_stack(2, tmp_path_factory.mktemp("proof"))
        _SHARED["stack"] = context.__enter__()
        _SHARED["context"] = context
    yield _SHARED["stack"]
    context = _SHARED.pop("context", None)
    if context is not None:
        _SHARED.pop("stack")
        context.__exit__(None, None, None)


def _assert_clean(result: dict) -> None:
    ledger = result["ledger"]
    assert ledger["unsettled_or_twice"] == [] and ledger["still_running"] == [], ledger
    assert ledger["stakes_escrowed_twice_each"] and ledger["paid_once"] and ledger["ledger_balances"]
    assert ledger["running_elsewhere"] == [] and ledger["held_by_running_games"] == 0, ledger
    for step in result["steps"]:
        assert step["errors"] == 0, step["error_samples"]
        assert step["moves"] > 0 and step["messages_per_second"] > 0


def test_ten_bots_play_all_four_games_through_two_processes_without_errors(proof_stack: LoadStack) -> None:
    # Six slots, every third against the computer: four pairs and two single bots, ten bots.
    result = ramp(proof_stack, [6], seconds=8, p99_limit_ms=2000, seed=7, computer_every=3)
    _assert_clean(result)
    step = result["steps"][0]
    # Connected: each bot's Wartesaal socket (a game socket opens per table, as in the browser).
    assert step["bots"] == 10 and step["sockets"] == 10
    kinds = step["games_by_kind"]
    assert {k.split(":")[0] for k in kinds} == set(GAMES), kinds
    assert any(k.endswith(":computer") for k in kinds) and any(":" not in k for k in kinds)
    # Rated games with a stake were started in the Wartesaal, resigned at the end and settled.
    assert result["ledger"]["rated_games"] >= 4
    # Generous: the machine is shared; this guards against a stuck path, not a slow one.
    assert step["round_trip_ms"]["p99"] < 3000


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("processes", [1, 2])
def test_ramp_of_concurrent_games(tmp_path: Path, processes: int) -> None:
    with load_stack(processes, tmp_path) as stack:
        result = ramp(stack, [4, 8, 16], seconds=30, p99_limit_ms=500, seed=3)
    _assert_clean(result)
    assert result["sustained_concurrent_games"] >= 4
