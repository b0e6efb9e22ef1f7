"""Profiles and the Postfach in two real Chromium contexts.

Anna invites Bert from his profile while he is not in the Wartesaal; Bert enters later, sees
the Postfach badge, accepts, and both land at the new table.  Then: a name in the Wartesaal
list opens the profile, whose game button challenges directly (the panel opens for both), and
Meine Partien shows the statistics by opponent, the filters and the Elo history chart."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from psycopg.types.json import Jsonb

from shared import game_store
from tests.browser.test_wartesaal import enter_as_guest
from tests.browser_fixtures import both_at_one_table
from tests.lobby_fixtures import SESSION_COOKIE, guest

pytestmark = pytest.mark.browser


def enter_with_session(chromium, url: str, session):  # noqa: ANN001, ANN201
    """A browser that carries the session of an account made over HTTP (so it entered nothing yet)."""
    context = chromium.new_context()
    context.add_cookies([{"name": SESSION_COOKIE, "value": session.cookies.get(SESSION_COOKIE), "url": url}])
    page = context.new_page()
    page.goto(url)
    page.get_by_test_id("me").wait_for()
    return context, page


def test_an_invitation_to_an_absent_player_starts_the_game_when_accepted(browser, lobby, pool,  # noqa: ANN001, F811
                                                                         shots: Path) -> None:
    bert_http = guest(lobby.url)  # Bert has an account but is not in the Wartesaal
    bert_id, bert_name = bert_http.user["id"], bert_http.user["name"]
    ctx_a, anna = enter_as_guest(browser, lobby.url)
    ctx_b = None
    try:
        anna.goto(f"{lobby.url}/#/spieler/{bert_id}")
        profile = anna.get_by_test_id("profile-page")
        profile.get_by_test_id("profile-name").filter(has_text=bert_name).wait_for()
        assert "nicht im Wartesaal" in profile.get_by_test_id("profile-presence").inner_text()
        assert profile.get_by_test_id("play-hexagon").inner_text() == "⬢ Battlehexagon spielen"
        assert profile.get_by_test_id("play-bullet").inner_text() == "● Battlebullet spielen"
        profile.get_by_test_id("play-hexagon").click()
        form = profile.get_by_test_id("invitation-form")
        form.locator('[data-option="clock"] button[data-value="3+2"]').click()
        anna.screenshot(path=str(shots / "profile-invitation.png"), full_page=True)
        form.get_by_test_id("invitation-send").click()
        profile.get_by_test_id("invitation-sent").wait_for()

        # Bert comes in: the badge counts one, the Postfach shows Anna's invitation.
        ctx_b, bert = enter_with_session(browser, lobby.url, bert_http)
        badge = bert.get_by_test_id("postfach-badge")
        bert.wait_for_function("document.querySelector('[data-testid=postfach-badge]')?.textContent === '1'")
        assert badge.is_visible()
        bert.get_by_test_id("postfach-link").click()
        entry = bert.get_by_test_id("invitation").filter(has_text=anna.get_by_test_id("me").inner_text())
        entry.wait_for()
        assert "lädt dich ein" in entry.inner_text() and "3+2" in entry.inner_text()
        bert.screenshot(path=str(shots / "postfach.png"), full_page=True)
        entry.get_by_test_id("invitation-accept").click()

        # Anna is still on Bert's profile: her Wartesaal socket takes her to the table too.
        game_id = both_at_one_table(anna, bert)
        bert.get_by_test_id("table-page").wait_for()
        with pool.connection() as conn:
            game = game_store.load(conn, game_id)
        assert game is not None and game.game == "hexagon" and game.mode == "wartesaal"
        assert bert_id in game.seats and game.clock is not None and game.clock.base_ms == 180_000
    finally:
        ctx_a.close()
        if ctx_b is not None:
            ctx_b.close()


def test_a_name_opens_the_profile_which_challenges_directly_and_my_games_shows_statistics(  # noqa: ANN001
        browser, lobby, pool, shots: Path) -> None:  # noqa: ANN001, F811
    ctx_a, anna = enter_as_guest(browser, lobby.url)
    ctx_b, bert = enter_as_guest(browser, lobby.url)
    try:
        anna_name, bert_name = (p.get_by_test_id("me").inner_text() for p in (anna, bert))
        row = anna.get_by_test_id("player").filter(has_text=bert_name)
        row.get_by_test_id("profile-link").click()
        profile = anna.get_by_test_id("profile-page")
        profile.get_by_test_id("profile-name").filter(has_text=bert_name).wait_for()
        assert "im Wartesaal" in profile.get_by_test_id("profile-presence").inner_text()
        profile.get_by_test_id("play-bullet").click()
        panel = bert.get_by_test_id("challenge-panel")
        panel.wait_for()
        assert "Battlebullet" in panel.locator("h3").inner_text() and anna_name in panel.locator("h3").inner_text()
        anna.get_by_test_id("challenge-panel").get_by_test_id("challenge-decline").click()

        # Meine Partien: two finished games against Bert, one rated with an Elo change.
        anna_id = int(anna.evaluate("fetch('/api/me').then(r => r.json()).then(d => d.user.id)"))
        bert_id = int(bert.evaluate("fetch('/api/me').then(r => r.json()).then(d => d.user.id)"))
        with pool.connection() as conn:
            at = dt.datetime(2026, 11, 1, 12, tzinfo=dt.UTC)
            ids = []
            for minutes, winner, rated in ((0, 0, True), (5, 1, False)):
                ids.append(conn.execute(
                    "INSERT INTO games (game, seed, seat0_user_id, seat1_user_id, rated, status, result,"
                    " finished_at) VALUES ('hexagon', 1, %s, %s, %s, 'finished', %s, %s) RETURNING id",
                    (anna_id, bert_id, rated, Jsonb({"winner": winner, "reason": "t", "de": "Test", "en": "Test",
                                                     "score": None}), at + dt.timedelta(minutes=minutes)),
                ).fetchone()["id"])
            conn.execute("INSERT INTO rating_results (game_id, user_id, game, score, points, elo_before,"
                         " elo_after, finished_at) VALUES (%s, %s, 'hexagon', 1, 10, 1500, 1516, %s)",
                         (ids[0], anna_id, at))
        anna.goto(f"{lobby.url}/#/meine-partien")
        opponent = anna.get_by_test_id("opponent-row").filter(has_text=bert_name)
        opponent.wait_for()
        assert [c.inner_text() for c in opponent.locator("td").all()] == ["1", "0", "1"]  # S U N
        chart = anna.get_by_test_id("elo-chart")
        chart.wait_for()
        assert [p.get_attribute("data-elo") for p in chart.get_by_test_id("elo-point").all()] == ["1500", "1516"]
        anna.screenshot(path=str(shots / "my-games-statistics.png"), full_page=True)
        anna.get_by_test_id("filter-result").select_option("loss")
        anna.wait_for_function("document.querySelectorAll('[data-testid=opponent-row] td')[0]?.textContent === '0'")
        assert [c.inner_text() for c in opponent.locator("td").all()] == ["0", "0", "1"]
    finally:
        ctx_a.close()
        ctx_b.close()
