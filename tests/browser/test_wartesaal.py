"""Two real Chromium contexts in the Wartesaal: enter as guests, see each other, chat safely."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def enter_as_guest(browser, url: str, **context_args):  # noqa: ANN001, ANN201
    context = browser.new_context(**context_args)
    page = context.new_page()
    page.goto(url)
    page.get_by_test_id("guest").click()
    page.get_by_test_id("me").wait_for()
    return context, page


def test_two_guests_see_each_other_and_chat_as_text(browser, lobby, shots):  # noqa: F811
    ctx_a, anna = enter_as_guest(browser, lobby.url)
    ctx_b, bert = enter_as_guest(browser, lobby.url)
    try:
        anna_name, bert_name = anna.get_by_test_id("me").inner_text(), bert.get_by_test_id("me").inner_text()
        assert anna_name.startswith("Gast-") and bert_name.startswith("Gast-") and anna_name != bert_name
        assert anna.get_by_test_id("balance").inner_text().startswith("0 ")  # guests hold no Taler

        # Each sees both in the list on the right.
        for page in (anna, bert):
            players = page.get_by_test_id("players")
            players.get_by_text(anna_name).wait_for()
            players.get_by_text(bert_name).wait_for()

        # A <script> message arrives as text, not markup.
        evil = "<script>window.__pwned = true</script><b>fett</b>"
        anna.get_by_test_id("chat-input").fill(evil)
        anna.get_by_test_id("chat-send").click()
        message = bert.get_by_test_id("message").filter(has_text="window.__pwned").last
        message.wait_for()
        assert evil in message.inner_text()
        assert bert.get_by_test_id("messages").locator("script, b").count() == 0
        assert bert.evaluate("window.__pwned === undefined")

        bert.get_by_test_id("chat-input").fill("Hallo Anna!")
        bert.get_by_test_id("chat-input").press("Enter")
        anna.get_by_test_id("message").filter(has_text="Hallo Anna!").wait_for()

        anna.screenshot(path=str(shots / "wartesaal-desktop.png"))

        # Language switch: English texts at once, kept for the next visit on this device.
        anna.locator("nav.languages button[data-lang=en]").click()
        assert anna.get_by_test_id("chat-send").inner_text() == "Send"
        assert anna.get_by_test_id("balance").inner_text() == "0 Taler"
        assert anna.get_by_test_id("connection").inner_text() == ""  # no stale "Connecting …"
        anna.reload()
        anna.get_by_test_id("chat-send").wait_for()
        assert anna.get_by_test_id("chat-send").inner_text() == "Send"
        anna.get_by_test_id("players").get_by_text(bert_name).wait_for()  # still signed in after reload

        # Bert leaves: gone from Anna's list.
        ctx_b.close()
        anna.get_by_test_id("players").get_by_text(bert_name).wait_for(state="detached")
    finally:
        ctx_a.close()
        ctx_b.close()


def test_phone_held_sideways_shows_chat_and_list_side_by_side(browser, lobby, shots):  # noqa: F811
    context, page = enter_as_guest(
        browser, lobby.url, viewport={"width": 844, "height": 390}, is_mobile=True, has_touch=True
    )
    try:
        page.get_by_test_id("players").locator("li").first.wait_for()
        chat = page.get_by_test_id("chat-input").bounding_box()
        players = page.get_by_test_id("players").bounding_box()
        assert chat and players
        assert players["x"] > chat["x"] + chat["width"] - 1, "the list should stand right of the chat"
        # Nothing sticks out sideways, and the chat input is on screen without scrolling.
        assert page.evaluate("document.documentElement.scrollWidth") <= 844
        assert chat["y"] + chat["height"] <= 390
        page.screenshot(path=str(shots / "wartesaal-phone-landscape.png"))
    finally:
        context.close()


def test_guest_registers_in_the_page_then_logs_out_and_in(browser, lobby):  # noqa: F811
    import uuid

    from playwright.sync_api import expect

    context, page = enter_as_guest(browser, lobby.url)
    try:
        guest_name = page.get_by_test_id("me").inner_text()
        page.get_by_test_id("players").get_by_text(guest_name).wait_for()
        name = f"Müller_{uuid.uuid4().hex[:6]}"

        page.get_by_test_id("open-register").click()
        dialog = page.get_by_test_id("register-dialog")
        dialog.get_by_test_id("register-name").fill("ab")
        dialog.get_by_test_id("register-password").fill("geheim1234")
        dialog.get_by_test_id("register-form").locator("button[type=submit]").click()
        expect(dialog.get_by_test_id("register-error")).to_contain_text("mindestens 3 Zeichen")
        dialog.get_by_test_id("register-name").fill(name)
        dialog.get_by_test_id("register-form").locator("button[type=submit]").click()

        page.get_by_test_id("me").filter(has_text=name).wait_for()
        page.get_by_test_id("players").get_by_text(name).wait_for()  # the list shows the new name
        assert page.get_by_test_id("open-register").count() == 0  # no longer a guest
        assert "1.000" in page.get_by_test_id("balance").inner_text()  # the start Taler, German number format

        # A second tab of the same session: the logout in the first ends it there too, at once.
        other_tab = context.new_page()
        other_tab.goto(lobby.url)
        other_tab.get_by_test_id("me").filter(has_text=name).wait_for()
        page.get_by_test_id("logout").click()
        page.get_by_test_id("guest").wait_for()
        other_tab.get_by_test_id("guest").wait_for(timeout=3000)
        other_tab.close()
        form = page.get_by_test_id("login-form")
        form.get_by_test_id("login-name").fill(name)
        form.get_by_test_id("login-password").fill("falsch1234")
        form.locator("button[type=submit]").click()
        expect(form.get_by_test_id("login-error")).to_have_text("Name oder Passwort ist falsch.")
        form.get_by_test_id("login-password").fill("geheim1234")
        form.locator("button[type=submit]").click()
        page.get_by_test_id("me").filter(has_text=name).wait_for()
        page.get_by_test_id("players").get_by_text(name).wait_for()
    finally:
        context.close()


def test_the_logout_answer_arriving_after_session_ended_keeps_the_login_form(browser, lobby):  # noqa: F811
    """The server ends the session's sockets before it answers the logout, so the Wartesaal signs
    out on their session_ended first; the answer arriving later must not replace the entry page
    (and with it a login form already being filled in)."""
    from playwright.sync_api import expect

    context, page = enter_as_guest(browser, lobby.url)
    try:
        held = []

        def hold(route) -> None:  # noqa: ANN001
            held.append((route, route.fetch()))  # the server logs out now; the page hears of it later

        page.route("**/api/logout", hold)
        page.get_by_test_id("logout").click()
        page.get_by_test_id("guest").wait_for()  # signed out by the socket's session_ended alone
        # The handler runs while this thread waits in Playwright, so wait there until it has the answer.
        for _ in range(200):
            if held:
                break
            page.wait_for_timeout(25)
        assert len(held) == 1, "the logout request never reached the server"
        name = page.get_by_test_id("login-form").get_by_test_id("login-name")
        name.fill("Anna")
        route, response = held[0]
        with page.expect_response("**/api/logout"):
            route.fulfill(response=response)
        page.evaluate("() => new Promise((done) => setTimeout(done, 100))")  # the click handler's rest has run
        expect(name).to_have_value("Anna")
        expect(page.get_by_test_id("login-form").get_by_test_id("login-name")).to_have_value("Anna")
    finally:
        context.close()


def test_chat_rate_limit_is_explained_on_the_page(browser, lobby):  # noqa: F811
    from playwright.sync_api import expect

    context, page = enter_as_guest(browser, lobby.url)
    try:
        chat_input = page.get_by_test_id("chat-input")
        assert chat_input.get_attribute("maxlength") == "300"
        for i in range(6):
            chat_input.fill(f"Schnell {i}")
            chat_input.press("Enter")
        expect(page.get_by_test_id("chat-error")).to_have_text(
            "Zu viele Nachrichten: höchstens 5 in 10 Sekunden. Bitte warte einen Moment."
        )
        page.get_by_test_id("message").filter(has_text="Schnell 4").wait_for()
        assert page.get_by_test_id("message").filter(has_text="Schnell 5").count() == 0
    finally:
        context.close()
