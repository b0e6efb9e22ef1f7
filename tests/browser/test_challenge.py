"""Two real Chromium contexts: one challenges the other from the player list, the other changes the
time, the first confirms, and both land on #/partie/<id> of the new game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared import game_store
from tests.browser.test_wartesaal import enter_as_guest
from tests.browser_fixtures import both_at_one_table

pytestmark = pytest.mark.browser


def test_challenge_agree_and_both_open_the_table(browser, lobby, pool, shots: Path) -> None:  # noqa: ANN001, F811
    ctx_a, anna = enter_as_guest(browser, lobby.url)
    ctx_b, bert = enter_as_guest(browser, lobby.url)
    try:
        bert_name = bert.get_by_test_id("me").inner_text()
        row = anna.get_by_test_id("player").filter(has_text=bert_name)
        row.get_by_test_id("challenge-open").click()
        row.get_by_test_id("challenge-hexagon").click()

        panel = bert.get_by_test_id("challenge-panel")
        panel.wait_for()
        assert "Battlehexagon" in panel.locator("h3").inner_text()
        panel.locator('[data-option="map"] button[data-value="krater"]').wait_for()
        # Both play as guests: no stake, and the panel says why (Freundschaft or Gewertet remain).
        assert panel.get_by_test_id("challenge-stake").is_disabled()
        assert "Gäste haben keine Taler" in panel.get_by_test_id("challenge-guest-stake").inner_text()
        # Bert wants 3+2: a change Anna must confirm.
        panel.locator('[data-option="clock"] button[data-value="3+2"]').click()
        anna_panel = anna.get_by_test_id("challenge-panel")
        anna_panel.locator('[data-option="clock"] button[data-value="3+2"][aria-pressed="true"]').wait_for()
        assert "bitte bestätigen" in anna_panel.get_by_test_id("challenge-status").inner_text()
        anna_panel.locator(".challenge-preview svg").wait_for()  # the map preview, drawn by the board
        anna.screenshot(path=str(shots / "challenge-panel.png"), full_page=True)
        anna_panel.get_by_test_id("challenge-accept").click()

        game_id = both_at_one_table(anna, bert)
        with pool.connection() as conn:
            game = game_store.load(conn, game_id)
        assert game is not None and game.game == "hexagon" and game.mode == "wartesaal"
        assert game.clock is not None and (game.clock.base_ms, game.clock.inc_ms) == (180_000, 2_000)
        assert game.rated and game.stake == 0
    finally:
        ctx_a.close()
        ctx_b.close()


def test_the_challenge_menu_stays_open_when_the_player_list_is_drawn_again(browser, lobby) -> None:  # noqa: ANN001, F811
    """Anyone entering or leaving redraws the list; a menu opened just before must not close under the pointer."""
    ctx_a, anna = enter_as_guest(browser, lobby.url)
    ctx_b, bert = enter_as_guest(browser, lobby.url)
    ctx_c = None
    try:
        bert_name = bert.get_by_test_id("me").inner_text()
        row = anna.get_by_test_id("player").filter(has_text=bert_name)
        row.get_by_test_id("challenge-open").click()
        row.get_by_test_id("challenge-hexagon").wait_for()
        ctx_c, carl = enter_as_guest(browser, lobby.url)  # the list is drawn again for Anna
        anna.get_by_test_id("player").filter(has_text=carl.get_by_test_id("me").inner_text()).wait_for()
        assert row.get_by_test_id("challenge-hexagon").is_visible()
        row.get_by_test_id("challenge-hexagon").click(timeout=5_000)
        bert.get_by_test_id("challenge-panel").wait_for()
        # Picked: the menu is closed, and stays closed through the next redraw.
        assert row.get_by_test_id("challenge-open").is_visible()
        assert row.get_by_test_id("challenge-hexagon").count() == 0
    finally:
        for ctx in (ctx_a, ctx_b, ctx_c):
            if ctx is not None:
                ctx.close()


def test_the_rankings_card_shows_the_lists(browser, lobby) -> None:  # noqa: ANN001, F811
    ctx, page = enter_as_guest(browser, lobby.url)
    try:
        rankings = page.get_by_test_id("rankings")
        rankings.get_by_test_id("ranking-kind-month").click()
        assert rankings.get_by_test_id("ranking-kind-month").get_attribute("aria-pressed") == "true"
        # The session's lobby has no rating service behind it: the card says so in German.
        rankings.get_by_text(re.compile("nicht erreichbar|Noch keine gewertete Partie")).wait_for()
    finally:
        ctx.close()
