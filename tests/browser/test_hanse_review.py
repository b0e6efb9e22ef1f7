"""Battlehanse against Mittel in real Chromium: Tipp sets the Handelskasten's selection (the
player presses the button), Zug zurück, the Rückblick at the match's end fills in and a
tap on a judged move jumps to its position; the record on the Gegen-Computer panel keeps
the match with a Tipp apart."""

from __future__ import annotations

import pytest

from tests.browser_fixtures import guest_page

pytestmark = pytest.mark.browser


def play_hint(page, plies_after: int) -> None:  # noqa: ANN001
    """Ask for a Tipp, check it set a legal selection, press the button, wait for the answer."""
    from playwright.sync_api import expect

    page.get_by_test_id("hint").click()
    trade = page.get_by_test_id("trade-text")
    expect(trade).not_to_have_attribute("data-move", "", timeout=30_000)
    expect(page.get_by_test_id("table-error")).to_contain_text("Auswahl ist gesetzt")
    expect(page.get_by_test_id("play-selection")).to_be_enabled()
    page.get_by_test_id("play-selection").click()
    expect(page.get_by_test_id("move")).to_have_count(plies_after, timeout=30_000)


def test_tipp_undo_rueckblick_and_record(browser, services, ai_worker) -> None:  # noqa: ANN001, F811
    from playwright.sync_api import expect

    lobby, _ = services
    context, page, _user = guest_page(browser, lobby.url)
    try:
        page.goto(f"{lobby.url}/#/computer")
        page.get_by_test_id("game-hanse").click()
        page.get_by_test_id("option-strength").select_option("mittel")
        page.get_by_test_id("start").click()
        page.wait_for_function("location.hash.startsWith('#/partie/')")
        expect(page.get_by_test_id("market-card")).to_have_count(5, timeout=30_000)

        play_hint(page, 2)
        expect(page.get_by_test_id("hint-marked")).to_be_visible()
        page.get_by_test_id("undo").click()
        expect(page.get_by_test_id("move")).to_have_count(0)
        play_hint(page, 2)
        play_hint(page, 4)
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign").click()
        expect(page.get_by_test_id("table-status")).to_contain_text("Aufgegeben")
        page.get_by_test_id("board").click()  # the result (and the Rückblick) at once

        # The Rückblick at the end: asked for, then filled in by the batch queue.
        page.get_by_test_id("review-request").click(timeout=30_000)
        expect(page.get_by_test_id("review-progress")).to_have_attribute("data-status", "done", timeout=60_000)
        judged = page.get_by_test_id("review-move")
        expect(judged).to_have_count(2)
        for i in range(2):
            assert judged.nth(i).get_attribute("data-class") in ("green", "yellow", "red")
        expect(page.get_by_test_id("review-hinted")).to_be_visible()
        judged.nth(1).locator("button").click()  # the second own move was ply 2
        expect(page.locator('button[data-testid=move][data-ply="2"]')).to_have_class("move current")

        # The record kept by this device: a match with a Tipp is counted apart, not as a loss.
        page.goto(f"{lobby.url}/#/computer")
        page.get_by_test_id("game-hanse").click()
        expect(page.get_by_test_id("record-hinted-mittel")).to_have_text("1")
        expect(page.get_by_test_id("record-mittel").locator("td").nth(2)).to_have_text("0")
    finally:
        context.close()
