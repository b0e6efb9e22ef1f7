"""The browser tests' shared parts: one Chromium and one lobby with its game service per test process.

The fixtures are imported into ``tests/conftest.py`` only, so that every test process starts
each of them once; a fixture imported into a test module would be set up again for that module.
Each test opens contexts of its own, so tests share no cookies, storage or pages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.stack import Infra, ServiceProcess

WEB_DIST = Path(__file__).resolve().parent.parent / "web" / "dist" / "index.html"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# Where the screenshots go (look at them after a UI change); a temp dir unless set.
SCREENSHOT_DIR_ENV = "SCREENSHOT_DIR"
UI_TIMEOUT_MS = 15_000


def launch_chromium(playwright, *extra_args: str):  # noqa: ANN001, ANN201
    """Debian's chromium, as every browser test drives it."""
    if not WEB_DIST.is_file():
        pytest.fail("web/dist is missing: build the client first (cd web && npm ci && npm run build)")
    return playwright.chromium.launch(executable_path="/usr/bin/chromium", args=[*CHROMIUM_ARGS, *extra_args])


def guest_page(browser, url: str, **context_args):  # noqa: ANN001, ANN201
    """A context of its own that entered the lobby as a new guest: the context, its page and the guest's user."""
    context = browser.new_context(**context_args)
    context.set_default_timeout(UI_TIMEOUT_MS)
    page = context.new_page()
    page.goto(url)
    page.get_by_test_id("guest").click()
    page.get_by_test_id("me").wait_for()
    user = page.evaluate("fetch('/api/me').then(r => r.json())")["user"]
    return context, page, user


def both_at_one_table(first, second, timeout_ms: int = 15_000) -> int:  # noqa: ANN001
    """The game id once both pages went to a table, the same one (a challenge, seek or invitation accepted)."""
    for page in (first, second):
        page.wait_for_url(re.compile(r"#/partie/\d+$"), timeout=timeout_ms)
    game_id = int(first.url.rsplit("/", 1)[1])
    assert second.url.endswith(f"#/partie/{game_id}")
    return game_id


@pytest.fixture(scope="session")
def playwright_driver():  # noqa: ANN201
    """The one Playwright of a test process: a second sync_playwright() inside it refuses to start."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright_driver):  # noqa: ANN001, ANN201
    chromium = launch_chromium(playwright_driver)
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def services(infra: Infra, log_dir: Path) -> Iterator[tuple[ServiceProcess, ServiceProcess]]:
    """A lobby and a game service that know each other's address (ticket URL, CORS origin)."""
    lobby = ServiceProcess("services.lobby", infra, "LOBBY_PORT", log_dir, PRESENCE_TTL_SECONDS="2")
    game = ServiceProcess("services.game", infra, "GAME_PORT", log_dir, PUBLIC_URL=lobby.url)
    # The lobby's port is only known once its process object exists; the ticket names the game service.
    lobby._env["GAME_URL"] = game.url
    game.start()
    lobby.start()
    yield lobby, game
    lobby.stop()
    game.stop()
