"""Schnelle Partie in real Chromium: two browsers press it and land at the same table; the table
warns that leaving loses, the Wartesaal shows who plays whom and leads back; the Live page lists
Battlegeneral and Battlehanse and a click watches them."""

from __future__ import annotations

import json
import re

import pytest
import redis

from shared import accounts, game_store
from shared.presence import ELO_CACHE
from tests.browser_fixtures import both_at_one_table, guest_page
from tests.stack import Infra

pytestmark = pytest.mark.browser


def test_two_browsers_press_schnelle_partie_and_land_at_the_same_table(browser, services, pool,  # noqa: ANN001
                                                                        infra: Infra, shots) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    lobby, _game = services
    ctx_a, anna, anna_user = guest_page(browser, lobby.url)
    ctx_b, bert, bert_user = guest_page(browser, lobby.url)
    cache = redis.Redis.from_url(infra.redis_url)
    try:
        # Anna's Elo as the rating service publishes it; the next player list carries it.
        cache.hset(ELO_CACHE, anna_user["id"], json.dumps({"hexagon": 1612, "hanse": 1490}))
        for page in (anna, bert):
            page.get_by_test_id("quick-game").select_option("hexagon")
        anna.get_by_test_id("quick-clock-3+2").check()  # Anna only plays 3+2; Bert takes any
        anna.get_by_test_id("quick-start").click()
        expect(anna.get_by_test_id("quick-searching")).to_contain_text("Battlehexagon")
        anna.screenshot(path=str(shots / "quick-match-searching.png"))
        bert.get_by_test_id("quick-start").click()

        game_id = both_at_one_table(anna, bert, timeout_ms=20_000)
        with pool.connection() as conn:
            row = game_store.load(conn, game_id)
        assert set(row.seats) == {anna_user["id"], bert_user["id"]} and row.rated
        assert (row.clock.base_ms, row.clock.inc_ms) == (180_000, 2_000)

        # At the table: leaving loses, and the page says so.
        for page in (anna, bert):
            page.locator("[data-stone=a5]").wait_for()
            expect(page.get_by_test_id("leave-warning")).to_have_text("Wer die Partie verlässt, verliert sie.")

        # Anna goes to the Wartesaal: it shows who plays whom and leads back to the table.
        anna.evaluate("location.hash = '#/'")  # as the Wartesaal link in the header does
        expect(anna.get_by_test_id("leave-warning")).to_contain_text("Du hast deine laufende Partie verlassen")
        running = anna.get_by_test_id("running-games").locator(f"li[data-game-id='{game_id}']")
        expect(running).to_contain_text(anna_user["name"])
        expect(running).to_contain_text(bert_user["name"])
        bert_row = anna.get_by_test_id("player").filter(has=anna.locator("span.name", has_text=bert_user["name"]))
        expect(bert_row.get_by_test_id("plays-against")).to_have_text(f"spielt gegen {anna_user['name']}")
        anna_row = anna.get_by_test_id("player").filter(has=anna.locator("span.name", has_text=anna_user["name"]))
        expect(anna_row.get_by_test_id("player-elo")).to_have_text("⬢ 1612 · ⚓ 1490")  # the Elo beside the name
        anna.screenshot(path=str(shots / "quick-match-left-the-table.png"))
        # Battlehanse's lists link its Tagesliste (on the Tagesmarkt page).
        rankings = anna.get_by_test_id("rankings")
        expect(rankings.get_by_test_id("ranking-daily")).to_have_count(0)
        rankings.get_by_test_id("ranking-game-hanse").click()
        expect(rankings.get_by_test_id("ranking-daily")).to_have_attribute("href", "#/tagesmarkt")
        anna.get_by_test_id("leave-back").click()
        anna.wait_for_url(re.compile(rf"#/partie/{game_id}$"))
        anna.locator("[data-stone=a5]").wait_for()
        expect(anna.get_by_test_id("leave-warning")).to_have_text("Wer die Partie verlässt, verliert sie.")
    finally:
        cache.hdel(ELO_CACHE, anna_user["id"])
        cache.close()
        ctx_a.close()
        ctx_b.close()


@pytest.mark.slow
def test_the_live_page_lists_battlegeneral_and_battlehanse_and_a_click_watches(browser, services,  # noqa: ANN001
                                                                              pool) -> None:
    from playwright.sync_api import expect

    lobby, _game = services
    seats = [accounts.create_guest(pool) for _ in range(4)]
    with pool.connection() as conn, conn.transaction():
        games = {game: game_store.create_game(conn, game=game, options={}, seed=3, seats=[a.id, b.id],
                                              mode="wartesaal", clock={"base_ms": 300_000, "inc_ms": 3000},
                                              rated=False, stake=0)
                 for game, (a, b) in (("general", seats[:2]), ("hanse", seats[2:]))}
    ctx, carla, _user = guest_page(browser, lobby.url)
    errors: list[str] = []
    carla.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        for game, game_id in games.items():
            carla.evaluate("location.hash = '#/live'")
            link = carla.locator(f"li.game-row[data-game-id='{game_id}'] a")
            expect(link).to_contain_text("Battlegeneral" if game == "general" else "Battlehanse")
            link.click()
            carla.wait_for_url(re.compile(rf"#/partie/{game_id}$"))
            carla.get_by_test_id("board").wait_for()
            expect(carla.get_by_test_id("leave-warning")).to_be_hidden()  # a spectator loses nothing by leaving
        assert errors == []
    finally:
        ctx.close()
