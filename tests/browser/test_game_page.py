"""A game page, the Ansicht and keyboard play in real Chromium.

One guest opens the Battlehexagon page (pitch, stars, Anleitung), rates the game after a
finished game, switches the Ansicht (Fassung Jade, Battlebullet Holz in 3D — kept over a
reload), turns the generated music on and off, and plays Battlehexagon at a same-device
table by keyboard only, then a Battlebullet move. Kostenlos spielen opens a table against the computer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared import db
from tests.browser_fixtures import UI_TIMEOUT_MS, launch_chromium
from tests.stack import Infra

pytestmark = pytest.mark.browser

JADE_FRAME = "rgb(92, 199, 154)"  # themes.ts: HEXAGON_FRAMES.jade.frame #5cc79a


@pytest.fixture(scope="module")
def browser(playwright_driver):  # noqa: ANN001, ANN201
    """A Chromium of its own: the music starts without a click only where autoplay is allowed."""
    chromium = launch_chromium(playwright_driver, "--autoplay-policy=no-user-gesture-required")
    yield chromium
    chromium.close()


def finish_a_game_for(infra: Infra, user_id: int, game: str) -> None:
    result = json.dumps({"winner": 0, "reason": "test", "de": "Test", "en": "Test", "score": None})
    pool = db.make_pool(infra.database_url, max_size=1)
    try:
        with pool.connection() as conn:
            conn.execute("INSERT INTO games (game, seed, seat0_user_id, status, result, finished_at, mode)"
                         " VALUES (%s, 1, %s, 'finished', %s::jsonb, now(), 'computer')", (game, user_id, result))
    finally:
        pool.close()


def focus_board_by_tab(page) -> str:  # noqa: ANN001
    """Press Tab until a board cell has the focus (the board is one tab stop); its name."""
    for _ in range(80):
        page.keyboard.press("Tab")
        name = page.evaluate("document.activeElement && document.activeElement.getAttribute('data-cell')")
        if name:
            return name
    raise AssertionError("Tab never reached the board")


def test_game_page_look_music_and_keyboard_play(browser, services, infra: Infra, shots: Path) -> None:  # noqa: ANN001
    lobby, _ = services
    context = browser.new_context()
    context.set_default_timeout(UI_TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(lobby.url)
        page.get_by_test_id("guest").click()
        page.get_by_test_id("me").wait_for()
        user = page.evaluate("fetch('/api/me').then(r => r.json())")["user"]

        # The game page, reached from the Wartesaal's navigation.
        if page.get_by_test_id("pages-menu").is_visible():  # a narrow header folds the links into a menu
            page.get_by_test_id("pages-menu").click()
        page.locator("[data-testid=nav-spiel]:visible").first.click()
        page.get_by_test_id("overview-hexagon").click()
        assert "61 Waben" in page.get_by_test_id("pitch").inner_text()
        assert "Maus / Touch" in page.get_by_test_id("controls").inner_text()
        page.get_by_test_id("plays").filter(has_text="×").wait_for()
        assert page.get_by_test_id("stars-summary").inner_text() == "Noch nicht bewertet"
        assert page.get_by_test_id("rate-hint").is_visible()  # not played yet: no stars to give
        anleitung = page.get_by_test_id("anleitung")
        assert "In 60 Sekunden" in anleitung.inner_text()
        assert "Verdoppeln" in page.get_by_test_id("in-60").inner_text()
        assert "Burggraben" in anleitung.inner_text()  # the full rules follow the summary

        # After a finished game the player may rate: 4 stars, then changed to 5.
        finish_a_game_for(infra, user["id"], "hexagon")
        page.reload()
        page.locator("[data-stars='4']").click()
        page.get_by_test_id("stars-summary").filter(has_text="4,0 von 5 (1 Bewertung)").wait_for()
        page.locator("[data-stars='5']").click()
        page.get_by_test_id("stars-summary").filter(has_text="5,0 von 5 (1 Bewertung)").wait_for()
        assert page.locator("[data-stars='5']").get_attribute("aria-pressed") == "true"
        page.screenshot(path=str(shots / "game-page-hexagon.png"), full_page=True)
        page.locator("nav.languages button[data-lang=en]").click()
        assert "In 60 seconds" in page.get_by_test_id("anleitung").inner_text()
        page.locator("nav.languages button[data-lang=de]").click()

        # Ansicht: Fassung Jade, Battlebullet Holz in 3D; Escape closes the dialog.
        page.get_by_test_id("open-look").click()
        dialog = page.get_by_test_id("look-dialog")
        dialog.wait_for(state="visible")
        page.get_by_test_id("frame-jade").click()
        page.get_by_test_id("bullet-holz").click()
        page.get_by_test_id("depth-3d").click()
        page.screenshot(path=str(shots / "look-dialog.png"))
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
        looks = page.evaluate("[document.documentElement.dataset.hexFrame, document.documentElement.dataset.bulletBoard,"
                              " document.documentElement.dataset.bulletDepth]")
        assert looks == ["jade", "holz", "3d"]

        # Music: the quick switch starts a real AudioContext and closes it again.
        page.get_by_test_id("music-switch").click()
        page.wait_for_function("document.documentElement.dataset.audio === 'running'")
        assert page.get_by_test_id("music-switch").get_attribute("aria-pressed") == "true"
        page.get_by_test_id("music-switch").click()
        page.wait_for_function("document.documentElement.dataset.audio === 'closed'")

        # The Ansicht survives a reload and the boards draw with it.
        page.goto(f"{lobby.url}/#/computer")
        page.reload()
        page.get_by_test_id("game-bullet").click()
        page.locator("[data-testid=preview] .marble.white").first.wait_for()
        fill = page.eval_on_selector("[data-testid=preview] .marble.white", "n => getComputedStyle(n).fill")
        assert "bullet3d-white" in fill, fill
        page.get_by_test_id("preview").screenshot(path=str(shots / "bullet-holz-3d.png"))

        # Same device, keyboard only: Rubin doubles e1 → e2, Perle jumps e9 → e7.
        page.goto(f"{lobby.url}/#/zuzweit")
        page.get_by_test_id("start").click()
        # The start panel's preview board has stones too: wait for the table's own board.
        page.wait_for_url("**/#/partie/*")
        page.locator(".board-wrap [data-stone=e1]").wait_for()
        stroke = page.eval_on_selector("polygon[data-cell=e5]", "n => getComputedStyle(n).stroke")
        assert stroke == JADE_FRAME
        assert page.locator("polygon[data-cell=e1]").get_attribute("aria-label") == "e1: Rubin"
        assert focus_board_by_tab(page) == "e5"
        for _ in range(3):
            page.keyboard.press("ArrowUp")
        assert page.evaluate("document.activeElement.getAttribute('data-cell')") == "e2"
        # The labels say what a press would do, once the table lets Rubin move.
        page.wait_for_function("document.querySelector('polygon[data-cell=e2]').getAttribute('aria-label')"
                               " === 'e2: leer, hierher verdoppeln'")
        page.keyboard.press("Enter")
        page.get_by_test_id("move").first.filter(has_text="e2").wait_for()
        page.wait_for_function("document.querySelector('polygon[data-cell=e2]').getAttribute('aria-label') === 'e2: Rubin'")
        for _ in range(7):
            page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.getAttribute('data-cell')") == "e9"
        page.keyboard.press(" ")
        page.wait_for_function("document.querySelector('polygon[data-cell=e9]').getAttribute('aria-label').includes('ausgewählt')")
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowUp")
        assert "hierher springen" in page.locator("polygon[data-cell=e7]").get_attribute("aria-label")
        page.keyboard.press("Enter")
        page.get_by_test_id("move").nth(1).filter(has_text="e9-e7").wait_for()
        page.screenshot(path=str(shots / "hexagon-jade-keyboard.png"))

        # Wabennamen from the Ansicht while the table is open: the table's own switch follows it,
        # so one click there turns them off again; a new Fassung leaves that switch alone.
        names, switch = page.locator(".board-wrap g.cell-names"), page.get_by_test_id("toggle-names")
        assert not names.is_visible() and switch.get_attribute("aria-pressed") == "false"
        page.get_by_test_id("open-look").click()
        page.get_by_test_id("look-names").check()
        names.wait_for(state="visible")
        page.keyboard.press("Escape")
        assert switch.get_attribute("aria-pressed") == "true"
        switch.click()
        names.wait_for(state="hidden")
        page.get_by_test_id("open-look").click()
        page.get_by_test_id("frame-gold").click()
        page.keyboard.press("Escape")
        page.wait_for_function("document.documentElement.dataset.hexFrame === 'gold'")
        assert not names.is_visible() and switch.get_attribute("aria-pressed") == "false"

        # Battlebullet by keyboard: walk to a white marble, pick it, Tab to an arrow, Enter.
        page.goto(f"{lobby.url}/#/zuzweit")
        page.get_by_test_id("game-bullet").click()
        page.get_by_test_id("start").click()
        page.wait_for_url("**/#/partie/*")
        page.locator(".board-wrap .bullet-board.interactive").wait_for()
        assert focus_board_by_tab(page) == "E5"
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        picked = page.evaluate("document.activeElement.getAttribute('data-cell')")
        assert picked in ("C3", "C4", "C5"), picked
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelector('circle[data-cell={picked}]').getAttribute('aria-label').includes('ausgewählt')")
        page.keyboard.press("Tab")
        label = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert label.startswith("Zug "), label
        page.keyboard.press("Enter")
        page.get_by_test_id("move").first.filter(has_text=label.split()[1].rstrip(",")).wait_for()

        # Battlegeneral by keyboard: in the setup, Enter on a square of your half places the next piece.
        page.goto(f"{lobby.url}/#/zuzweit")
        page.get_by_test_id("game-general").click()
        page.get_by_test_id("start").click()
        page.wait_for_url("**/#/partie/*")
        page.locator(".board-wrap svg.general.interactive").wait_for()
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement && document.activeElement.getAttribute('data-square')"):
                break
        assert page.evaluate("document.activeElement.getAttribute('data-square')") == "e4"
        assert page.locator("rect[data-square=e4]").get_attribute("aria-label") == "e4: leer"
        page.keyboard.press("Enter")
        page.wait_for_function("document.querySelector('rect[data-square=e4]').getAttribute('aria-label').startsWith('e4: Rot, ')")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.getAttribute('data-square')") == "d3"
        page.keyboard.press(" ")
        page.wait_for_function("document.querySelector('rect[data-square=d3]').getAttribute('aria-label').startsWith('d3: Rot, ')")
        assert page.locator("g.piece.red").count() == 2

        # Kostenlos spielen: a table against the computer opens at once.
        page.goto(f"{lobby.url}/#/spiel/bullet")
        page.get_by_test_id("play-free").click()
        page.wait_for_url("**/#/partie/*")
        page.locator(".bullet-board").first.wait_for()
    finally:
        context.close()
