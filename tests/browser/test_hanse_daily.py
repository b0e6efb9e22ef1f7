"""Tagesmarkt in real Chromium: a guest is told the list needs an account, practises, and
sits at a computer table dealt with today's cards (the same for everyone), which says it is
practice; the first move is played there through the Handelskasten.  A registered
player's first attempt of the day says at the table that it counts."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from services.lobby import daily_market
from shared.games import get_game
from tests.browser.test_hanse import play_through_ui
from tests.browser_fixtures import guest_page
from tests.stack import TEST_SECRET as SECRET
from tests.stack import ServiceProcess

pytestmark = pytest.mark.browser

HANSE = get_game("hanse")


def test_a_guest_practises_todays_market(browser, services: tuple[ServiceProcess, ServiceProcess],
                                         shots: Path) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    lobby, _ = services
    context, page, _user = guest_page(browser, lobby.url)
    try:
        page.goto(f"{lobby.url}/#/tagesmarkt")
        expect(page.get_by_test_id("daily-needs-account")).to_contain_text("angemeldet")
        page.get_by_test_id("daily-start").click()
        page.wait_for_url("**/#/partie/*")
        expect(page.get_by_test_id("market-card")).to_have_count(5, timeout=30_000)
        deal = daily_market.daily_deal(daily_market.berlin_day(daily_market.now_utc()), SECRET)
        view = HANSE.view(deal, 0)
        shown_market = page.eval_on_selector_all("[data-testid=market-card]", "ns => ns.map(n => n.dataset.card)")
        shown_hand = page.eval_on_selector_all("[data-testid=hand-card]", "ns => ns.map(n => n.dataset.card)")
        assert sorted(shown_market) == sorted(view["market"])
        assert sorted(shown_hand) == sorted(c["card"] for c in view["players"][0]["hand"])
        expect(page.get_by_test_id("seals")).to_contain_text("/ 1")  # one round decides
        day = daily_market.berlin_day(daily_market.now_utc())
        expect(page.get_by_test_id("daily-line")).to_have_text(
            f"Tagesmarkt {day.day}.{day.month}. – Übung: als Gast zählt kein Versuch.")
        move = next(m for m in HANSE.legal_moves(deal, 0) if m.effect["type"] == "nimm")
        play_through_ui(page, move)
        page.get_by_test_id("move").first.wait_for()
        page.screenshot(path=str(shots / "tagesmarkt-table.png"))
        page.goto(f"{lobby.url}/#/tagesmarkt")
        expect(page.get_by_test_id("daily-list-empty").or_(page.get_by_test_id("daily-list"))).to_be_visible()
        page.screenshot(path=str(shots / "tagesmarkt-page.png"), full_page=True)
    finally:
        context.close()
    context, page, _user = guest_page(browser, lobby.url)
    try:
        name = f"Tb{uuid.uuid4().hex[:10]}"
        assert page.request.post(f"{lobby.url}/api/register", data={"name": name, "password": "passwort-lang"}).ok
        page.goto(f"{lobby.url}/#/tagesmarkt")
        page.get_by_test_id("daily-start").click()
        page.wait_for_url("**/#/partie/*")
        expect(page.get_by_test_id("daily-line")).to_contain_text("dieser Versuch zählt", timeout=30_000)
        page.locator("nav.languages button[data-lang=en]").click()
        expect(page.get_by_test_id("daily-line")).to_contain_text("Daily market")
        expect(page.get_by_test_id("daily-line")).to_contain_text("this attempt counts")
    finally:
        context.close()
