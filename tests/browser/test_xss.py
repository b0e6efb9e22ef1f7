"""XSS: chat and names that carry HTML or script are shown as text.

One browser posts a list of XSS payloads in the Wartesaal chat; a second browser
must show each literally, fire no dialog, run no script and gain no element (no
script, img, svg, iframe, link or style inside the messages).  Names cannot carry
markup: the name rules allow letters, digits, "-" and "_" only, so registration
refuses such a name with a clear message (in the page, German and English).  Page
addresses that carry markup (``#/spiel/<…>``, ``#/spieler/<…>``, ``#/handelsaufgaben/<…>``)
are shown without creating elements either.
"""

from __future__ import annotations

import time

import pytest
import requests

from tests.browser.test_wartesaal import enter_as_guest

pytestmark = pytest.mark.browser

# Each payload sets window.__xss or opens a dialog if it ever runs.
PAYLOADS = [
    "<script>window.__xss=1</script>",
    "<img src=x onerror=\"window.__xss=2\">",
    "\"><svg onload=alert(3)>",
    "<a href=\"javascript:window.__xss=4\">klick</a>",
    "javascript:alert(5)",
    "<iframe srcdoc=\"<script>parent.__xss=6</script>\"></iframe>",
    "</textarea><script>alert(7)</script>",
    "<style>body{display:none}</style>",
    "<details open ontoggle=alert(9)>",
    "{{constructor.constructor('alert(10)')()}}",
    "<body onload=alert(11)>",
    "&lt;b&gt;entity&lt;/b&gt; <b>fett</b>",
    "<math><mi xlink:href=\"javascript:alert(13)\">x</mi></math>",
    "<input autofocus onfocus=alert(14)>",
    "<object data=\"javascript:alert(15)\"></object>",
]
# The chat admits 5 messages per 10 s per user: four messages carry every payload.
MESSAGES = [" ".join(PAYLOADS[i::4]) for i in range(4)]
FORBIDDEN = "script, img, svg, iframe, a, style, details, math, input, object, body, b"


def _watch_dialogs(page) -> list[str]:  # noqa: ANN001
    dialogs: list[str] = []

    def dismissed(dialog) -> None:  # noqa: ANN001
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismissed)
    return dialogs


def test_xss_payloads_in_chat_arrive_as_literal_text(browser, lobby):  # noqa: F811, ANN001
    ctx_a, anna = enter_as_guest(browser, lobby.url)
    ctx_b, bert = enter_as_guest(browser, lobby.url)
    try:
        dialogs = _watch_dialogs(bert) + _watch_dialogs(anna)
        assert all(len(m) <= 300 for m in MESSAGES)
        for text in MESSAGES:
            anna.get_by_test_id("chat-input").fill(text)
            anna.get_by_test_id("chat-send").click()
        messages = bert.get_by_test_id("messages")
        for i, text in enumerate(MESSAGES):
            # Each message shows exactly as typed (textContent, not markup).
            shown = bert.get_by_test_id("message").filter(has_text=PAYLOADS[i])
            shown.last.wait_for()
            assert text in shown.last.inner_text()
        # A duration: an onerror/onload would have fired by now; a handler that never ran leaves
        # no event to wait for (the element checks below prove none was created).
        time.sleep(0.5)
        for page in (anna, bert):
            assert page.get_by_test_id("messages").locator(FORBIDDEN).count() == 0
            assert page.evaluate("window.__xss === undefined && parent.__xss === undefined")
        assert messages.locator("[onerror], [onload], [href^='javascript']").count() == 0
        assert dialogs == []
        # A reload renders the stored history: still text.
        bert.reload()
        bert.get_by_test_id("message").filter(has_text=PAYLOADS[0]).last.wait_for()
        assert bert.get_by_test_id("messages").locator(FORBIDDEN).count() == 0
        assert bert.evaluate("window.__xss === undefined") and dialogs == []
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_name_with_markup_is_refused_with_a_clear_message(browser, lobby):  # noqa: F811, ANN001
    from playwright.sync_api import expect

    context, page = enter_as_guest(browser, lobby.url)
    try:
        dialogs = _watch_dialogs(page)
        page.get_by_test_id("open-register").click()
        dialog = page.get_by_test_id("register-dialog")
        dialog.get_by_test_id("register-name").fill("<b>fett</b>")
        dialog.get_by_test_id("register-password").fill("geheim1234")
        dialog.get_by_test_id("register-form").locator("button[type=submit]").click()
        expect(dialog.get_by_test_id("register-error")).to_contain_text("nur Buchstaben")
        dialog.get_by_test_id("register-name").fill("<img src=x onerror=alert(1)>")
        dialog.get_by_test_id("register-form").locator("button[type=submit]").click()
        expect(dialog.get_by_test_id("register-error")).to_contain_text("„-“ und „_“")
        assert page.locator("img[src=x], b").count() == 0 and dialogs == []
    finally:
        context.close()
    for name, lang, words in (("<b>fett</b>", "de", "nur Buchstaben"), ("\"><svg onload=x>", "en", "only letters")):
        answer = requests.post(f"{lobby.url}/api/register", json={"name": name, "password": "geheim1234"},
                               headers={"X-Lang": lang}, timeout=30)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "name_bad_characters"
        assert words in answer.json()["error"]["message"]


def test_page_addresses_with_markup_create_no_elements(browser, lobby):  # noqa: F811, ANN001
    context, page = enter_as_guest(browser, lobby.url)
    try:
        dialogs = _watch_dialogs(page)
        scripts = page.locator("script").count()
        for address in ("#/spiel/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
                        "#/spieler/%3Csvg%20onload%3Dalert(2)%3E",
                        "#/handelsaufgaben/%3Cscript%3Ealert(3)%3C%2Fscript%3E",
                        "#/partie/%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(4)%3E"):
            page.goto(f"{lobby.url}/{address}")
            page.wait_for_timeout(400)
            assert page.locator("img[src=x], svg[onload], [onerror], [onload]").count() == 0, address
            assert page.locator("script").count() == scripts, address
        assert dialogs == [] and page.evaluate("window.__xss === undefined")
    finally:
        context.close()
