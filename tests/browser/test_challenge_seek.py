"""„Gegner suchen" in two real Chromium contexts: Anna opens a seek for Battlegeneral, Bert
sees it in the Wartesaal with its Elo range and takes it, and both land at the new table
(Anna, who sought, plays Blue; Bert plays Red and begins)."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared import game_store
from tests.browser.test_wartesaal import enter_as_guest
from tests.browser_fixtures import both_at_one_table

pytestmark = pytest.mark.browser


def test_a_seek_is_opened_taken_and_both_reach_the_table(browser, lobby, pool, shots: Path) -> None:  # noqa: ANN001, F811
    from playwright.sync_api import expect

    ctx_a, anna = enter_as_guest(browser, lobby.url)
    ctx_b, bert = enter_as_guest(browser, lobby.url)
    try:
        anna_name = anna.get_by_test_id("me").inner_text()
        anna.get_by_test_id("seek-start-general").click()
        expect(anna.get_by_test_id("seek-mine")).to_contain_text("Du suchst einen Gegner für")
        expect(anna.get_by_test_id("seek-mine")).to_contain_text("1200–1800 Elo")
        offer = bert.get_by_test_id("seek-list").locator("li").filter(has_text=anna_name)
        expect(offer).to_contain_text("sucht einen Gegner")
        expect(offer).to_contain_text("Battlegeneral")
        bert.screenshot(path=str(shots / "seek-wartesaal.png"), full_page=True)
        offer.get_by_test_id("seek-take").click()
        game_id = both_at_one_table(anna, bert)
        with pool.connection() as conn:
            game = game_store.load(conn, game_id)
            names = game_store.user_names(conn, list(game.seats))
        assert game.game == "general" and game.clock is None and game.rated
        assert [names[uid] for uid in game.seats] == [bert.get_by_test_id("me").inner_text(), anna_name]
    finally:
        ctx_a.close()
        ctx_b.close()
