"""„Gegner suchen" in two real Chromium contexts: Anna opens a seek for Battlegeneral, Bert
sees it in the Wartesaal with its Elo range and takes it, and both land at the new table
(Anna, who sought, plays Blue; Bert plays Red and begins)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared import db, game_store
from tests.browser.test_wartesaal import enter_as_guest
from tests.stack import Infra

pytestmark = pytest.mark.browser


def test_a_seek_is_opened_taken_and_both_reach_the_table(browser, lobby, infra: Infra, shots: Path) -> None:  # noqa: ANN001, F811
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
        for page in (anna, bert):
            page.wait_for_url(re.compile(r"#/partie/\d+$"), timeout=15_000)
        game_id = int(anna.url.rsplit("/", 1)[1])
        assert bert.url.endswith(f"#/partie/{game_id}")
        pool = db.make_pool(infra.database_url, max_size=1)
        try:
            with pool.connection() as conn:
                game = game_store.load(conn, game_id)
                names = game_store.user_names(conn, list(game.seats))
        finally:
            pool.close()
        assert game.game == "general" and game.clock is None and game.rated
        assert [names[uid] for uid in game.seats] == [bert.get_by_test_id("me").inner_text(), anna_name]
    finally:
        ctx_a.close()
        ctx_b.close()
