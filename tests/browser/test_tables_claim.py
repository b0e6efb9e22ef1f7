"""In real Chromium: the opponent gone, shown with the time away; after the leave time the claim
ends the game; moves carry the measured round trip as their lag."""

from __future__ import annotations

import pytest

from shared import accounts, game_store
from tests.browser_fixtures import guest_page
from tests.table_client import load, stored_when

pytestmark = pytest.mark.browser


def test_claim_the_win_against_an_opponent_who_never_came(browser, services, pool) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    lobby, _ = services
    context, bert, bert_user = guest_page(browser, lobby.url)
    anna = accounts.create_guest(pool)
    try:
        with pool.connection() as conn, conn.transaction():
            game_id = game_store.create_game(
                conn, game="hexagon", options={}, seed=7, seats=[bert_user["id"], anna.id],
                mode="wartesaal", clock={"base_ms": 180_000, "inc_ms": 2_000}, rated=False, stake=0)
        bert.goto(f"{lobby.url}/#/partie/{game_id}")
        bert.locator("[data-stone=a5]").wait_for()
        # Anna never opened the table: Bert sees her away, counting, but cannot claim yet.
        expect(bert.get_by_test_id("presence")).to_contain_text("Dein Gegner ist nicht am Tisch")
        assert bert.get_by_test_id("claim-win").count() == 0
        # Bert moves, with the round trip his page measured as the move's lag.
        bert.wait_for_timeout(600)
        bert.locator("[data-stone=e1]").click()
        bert.locator("polygon[data-cell=e2]").click()
        expect(bert.get_by_test_id("table-status")).to_contain_text("Dein Gegner ist am Zug")
        # Lag was credited: the quota (3 s at the start of 3+2, +1 s per move) lost what was credited.
        assert stored_when(pool, game_id, lambda r: r.version == 1).lag_quota_ms[0] < 4000
        # The leave time has passed (the game began 31 s ago): back at the table, the claim is offered.
        with pool.connection() as conn:
            conn.execute("UPDATE games SET created_at = now() - interval '31 seconds' WHERE id = %s", (game_id,))
        bert.reload()
        bert.get_by_test_id("claim-win").click()
        expect(bert.get_by_test_id("table-status")).to_contain_text("Gewonnen")
        row = load(pool, game_id)
        assert row.result["reason"] == "verlassen" and row.result["winner"] == 0
    finally:
        context.close()
