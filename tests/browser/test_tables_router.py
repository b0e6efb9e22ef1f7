"""Two browsers and a spectator at one table, through the deploy's nginx in front of a lobby and
two game processes: every socket of the table lands on one process, pages without a table open
no game socket, and when the table's process is SIGKILLed mid-game the browsers reconnect by
themselves to the other one and play the game to its end with no move lost.  (The short
variant without browsers, in the default suite: tests/tables/test_router.py.)"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.nginx_router import NginxRouter, nginx_binary
from services.embedded import free_port
from shared import game_store
from shared.games import get_game
from tests.browser.test_table import play_hexagon_move
from tests.browser_fixtures import UI_TIMEOUT_MS, guest_page
from tests.metrics_scrape import scrape, value
from tests.stack import Infra, ServiceProcess, wait_until
from tests.table_client import new_game

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (make setup installs it)")]


@pytest.fixture
def site(infra: Infra, log_dir: Path, tmp_path: Path) -> Iterator[tuple[NginxRouter, list[ServiceProcess]]]:
    """nginx as deployed in front of one lobby and two game processes; browsers know only nginx."""
    port = free_port()
    public = f"http://127.0.0.1:{port}"
    lobby = ServiceProcess("services.lobby", infra, "LOBBY_PORT", log_dir, PUBLIC_URL=public, GAME_URL=public)
    games = [ServiceProcess("services.game", infra, "GAME_PORT", log_dir, PUBLIC_URL=public) for _ in range(2)]
    router = None
    try:
        for service in (lobby, *games):
            service.start()
        router = NginxRouter(port, [lobby.url], [g.url for g in games], tmp_path / "nginx").start()
        yield router, games
    finally:
        if router is not None:
            router.stop()
        for service in (lobby, *games):
            service.stop()


def game_sockets(games: list[ServiceProcess]) -> list[float]:
    return [value(scrape(f"{g.url}/metrics"), "spielcenter_game_sockets") if g.process and g.process.poll() is None else 0.0 for g in games]


def test_two_browsers_finish_a_table_whose_process_was_killed(browser, site, pool) -> None:  # noqa: ANN001
    router, games = site
    ctx_a, anna, anna_user = guest_page(browser, router.url)
    ctx_b, bert, bert_user = guest_page(browser, router.url)
    ctx_c, carla, _ = guest_page(browser, router.url)
    try:
        # In the Wartesaal: no game socket anywhere.
        assert game_sockets(games) == [0, 0]
        game_id = new_game(pool, "hexagon", [anna_user["id"], bert_user["id"]], seed=7, clock={"base_ms": 600_000, "inc_ms": 0})
        for page in (anna, bert, carla):
            page.goto(f"{router.url}/#/partie/{game_id}")
        carla.get_by_test_id("table-status").filter(has_text="Du schaust zu").wait_for()
        anna.locator("[data-stone=a5]").wait_for()
        bert.locator("[data-stone=a5]").wait_for()
        # Both players and the spectator on one process.
        wait_until(lambda: sorted(game_sockets(games)) == [0, 3], 10, lambda: f"sockets {game_sockets(games)}")
        counts = game_sockets(games)
        owner, survivor = games[counts.index(3)], games[counts.index(0)]

        script = ["e1-e3", "e9-e7", "e2", "e8", "e3-e5"]
        engine = get_game("hexagon")
        state = engine.new_game(engine.default_options(), 7)
        for text in script:
            state = engine.apply(state, text)
        script.append(next(m.text for m in engine.legal_moves(state) if "-" not in m.text))  # Bert clones
        pages = [anna, bert]
        for ply, text in enumerate(script[:3]):
            play_hexagon_move(pages[ply % 2], text)
            for page in (anna, bert, carla):
                page.get_by_test_id("move").nth(ply).filter(has_text=text).wait_for()
        with pool.connection() as conn:
            wait_until(lambda: game_store.load(conn, game_id).version == 3, 5, "the third move stored")

        assert owner.process is not None
        owner.process.send_signal(signal.SIGKILL)
        owner.process.wait(10)
        # The pages reconnect by themselves, through nginx, to the process still there.
        wait_until(lambda: game_sockets(games)[games.index(survivor)] == 3, 30,
                   lambda: f"sockets {game_sockets(games)}")
        for page in (anna, bert, carla):
            assert [m.inner_text() for m in page.get_by_test_id("move").all()] == script[:3]
        for ply, text in enumerate(script[3:], start=3):
            play_hexagon_move(pages[ply % 2], text)
            for page in (anna, bert, carla):
                page.get_by_test_id("move").nth(ply).filter(has_text=text).wait_for()
        # To the end: Bert resigns (two clicks); everyone sees it.
        bert.get_by_test_id("resign").click()
        bert.get_by_test_id("resign").click()
        anna.get_by_test_id("table-status").filter(has_text="Gewonnen").wait_for(timeout=UI_TIMEOUT_MS)
        carla.get_by_test_id("result").wait_for()
        with pool.connection() as conn:
            row = game_store.load(conn, game_id)
        assert row is not None and row.moves == script and not row.running
    finally:
        for context in (ctx_a, ctx_b, ctx_c):
            context.close()
