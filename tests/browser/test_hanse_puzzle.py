"""A Handelsaufgabe solved in real Chromium: the list, the puzzle on the Battlehanse board,
the best move chosen card by card and played with the Handelskasten's button, three stars
and the best moves with their values; the stars stay with the player (list and server)."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.lobby import hanse_puzzles
from tests.browser.test_hanse import tap_move
from tests.browser_fixtures import guest_page
from tests.stack import ServiceProcess

pytestmark = pytest.mark.browser


def test_solve_a_handelsaufgabe(browser, lobby: ServiceProcess, shots: Path) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    data = hanse_puzzles.puzzle("punkte-01")
    best = data["moves"][0]
    view = hanse_puzzles.puzzle_view(data)
    effect = next(m["effect"] for m in view["legal_moves"] if m["text"] == best["move"])
    context, page, user = guest_page(browser, lobby.url)
    try:
        if page.get_by_test_id("pages-menu").is_visible():  # a narrow header folds the links into a menu
            page.get_by_test_id("pages-menu").click()
        page.locator("[data-testid=nav-solo]:visible").first.click()
        page.get_by_test_id("daily-market-page").wait_for()
        page.get_by_test_id("solo-tab-handelsaufgaben").click()
        expect(page.get_by_test_id("puzzle-total")).to_contain_text("0 / 72")
        page.get_by_test_id("puzzle-link-punkte-01").click()
        expect(page.get_by_test_id("puzzle-task")).to_contain_text("möglichst viele Punkte")
        # The opponent's hand is backs only: the page shows what the seat may see.
        assert page.locator("[data-testid=opponent-hand] [data-card]").count() == 0

        tap_move(page, effect)
        expect(page.get_by_test_id("trade-text")).to_have_attribute("data-move", best["move"])
        page.get_by_test_id("play-selection").click()
        expect(page.get_by_test_id("puzzle-stars")).to_have_attribute("data-stars", "3")
        expect(page.get_by_test_id("puzzle-best-stars")).to_have_text("★★★")
        rows = page.get_by_test_id("puzzle-best-move")
        expect(rows).to_have_count(min(5, len(data["moves"])))
        expect(rows.first).to_have_attribute("data-move", best["move"])
        expect(rows.first).to_contain_text("Du verkaufst")  # in words, as the Handelskasten says it
        expect(rows.first).to_contain_text(str(best["value"]))
        page.screenshot(path=str(shots / "handelsaufgabe-solved.png"), full_page=True)

        page.get_by_test_id("puzzle-all").click()
        expect(page.get_by_test_id("puzzle-link-punkte-01")).to_have_attribute("data-stars", "3")
        expect(page.get_by_test_id("puzzle-total")).to_contain_text("3 / 72")
        page.screenshot(path=str(shots / "handelsaufgaben-list.png"), full_page=True)
        stored = page.evaluate("fetch('/api/handelsaufgaben').then(r => r.json())")
        assert next(p for p in stored["puzzles"] if p["id"] == "punkte-01")["stars"] == 3
        assert stored["stars"] == 3 and user["guest"]
    finally:
        context.close()
