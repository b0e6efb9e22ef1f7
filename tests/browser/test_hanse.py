"""Battlehanse in real Chromium: two browsers play a complete round through the table's
cards and Handelskasten (an exchange with a Packpferd and a sale that earns a Ratsmarke
among it), then the Rundentafel with its countdown (the status line says the pause, not
"Du bist am Zug"); one browser plays on one device through the curtain up to the round's
end, where the Rundentafel stays open to both and the curtain comes for the next hand (a
reload keeps the curtain down mid-round and shows the Rundentafel without a hand in the pause);
one browser plays against the computer (Leicht) with the Karten-Info by hover and long
press and the Handelskasten's reason for a selection that is no move, and never sees the
computer's hand — neither on the page nor in any message it receives.

Moves are chosen in Python from the engine's legal moves (replayed from the same seed
and moves as the table), then tapped on the page card by card; the Handelskasten must
name exactly that move before its button is pressed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from shared import accounts
from shared.games import get_game
from tests.browser_fixtures import guest_page
from tests.stack import ServiceProcess
from tests.table_client import TableClient, new_game

pytestmark = pytest.mark.browser

ENGINE = get_game("hanse")
SEED = 157  # with the policy below: an exchange with a Packpferd at ply 6, a Ratsmarke sale at ply 2, 43 plies


def pick(state: Any, done: dict[str, bool], rng: random.Random) -> Any:
    """A scripted player: the Packpferd exchange and the Ratsmarke sale as soon as they come, then sales, else takes."""
    moves = ENGINE.legal_moves(state)
    if not done["horse"]:
        exchanges = [m for m in moves if m.effect["type"] == "tausch" and m.effect["stable"] < 0]
        if exchanges:
            return exchanges[0]
    if not done["rats"]:
        sales = [m for m in moves if m.effect["type"] == "verkauf" and m.effect["ratsmarke"]]
        if sales:
            return sales[0]
    sales = [m for m in moves if m.effect["type"] == "verkauf" and len(m.effect["hand_out"]) >= 2]
    if sales:
        return max(sales, key=lambda m: m.effect["zinn_sum"])
    takes = [m for m in moves if m.effect["type"] in ("nimm", "pferde")]
    return rng.choice(takes or moves)


def tap_move(page, effect: dict[str, Any]) -> None:  # noqa: ANN001
    """Select a move's cards as a player does: market cards, hand cards, stable horses."""
    if effect["type"] == "pferde":
        page.locator('button[data-testid=market-card][data-card="Packpferd"]').first.click()
    else:
        for card in effect["market_out"]:
            page.locator(f'button[data-testid=market-card][data-card="{card}"]:not(.selected)').first.click()
    for card in effect["hand_out"]:
        page.locator(f'button[data-testid=hand-card][data-card="{card}"]:not(.selected)').first.click()
    for _ in range(max(0, -effect["stable"])):
        page.get_by_test_id("stable").click()


def play_through_ui(page, move: Any) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    tap_move(page, move.effect)
    expect(page.get_by_test_id("trade-text")).to_have_attribute("data-move", move.text)
    page.get_by_test_id("play-selection").click()


def wait_ply(page, ply: int) -> None:  # noqa: ANN001
    page.get_by_test_id("move").nth(ply - 1).wait_for()


def check_eyes(mover, other, card: str) -> None:  # noqa: ANN001
    """A card taken from the market is known to the opponent: an eye on it, and open above the backs there."""
    from playwright.sync_api import expect

    eyes = mover.locator(f'[data-testid=hand-card][data-card="{card}"] [data-testid=eye]')
    expect(eyes.first).to_be_visible()
    expect(other.locator(f'[data-testid=opponent-known] [data-card="{card}"]').first).to_be_visible()
    mover.get_by_test_id("toggle-help").click()  # Hilfe aus: the aids go
    expect(mover.get_by_test_id("eye")).to_have_count(0)
    mover.get_by_test_id("toggle-help").click()
    expect(eyes.first).to_be_visible()


def test_two_browsers_play_a_round(browser, services: tuple[ServiceProcess, ServiceProcess], pool,
                                   shots: Path) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    lobby, _ = services
    ctx_a, anna, anna_user = guest_page(browser, lobby.url)
    ctx_b, bert, bert_user = guest_page(browser, lobby.url)
    try:
        game_id = new_game(pool, "hanse", [anna_user["id"], bert_user["id"]], seed=SEED, clock={"base_ms": 600_000, "inc_ms": 5_000})
        pages = [anna, bert]
        for page in pages:
            page.goto(f"{lobby.url}/#/partie/{game_id}")
            expect(page.get_by_test_id("market-card")).to_have_count(5, timeout=30_000)
            expect(page.get_by_test_id("deck-count")).to_contain_text("40")
        # The opponent's hand shows as backs only.
        expect(bert.get_by_test_id("opponent-hand").locator(".back")).to_have_count(5)
        expect(bert.get_by_test_id("opponent-hand").locator("[data-card]")).to_have_count(0)
        state = ENGINE.new_game({}, SEED)
        done = {"horse": False, "rats": False}
        rng = random.Random(SEED)
        ply = 0
        eyes_checked = False
        while ENGINE.view(state, 0)["phase"] == "spiel":
            seat = ENGINE.to_move(state)[0]
            move = pick(state, done, rng)
            if move.effect["type"] == "tausch" and move.effect["stable"] < 0:
                done["horse"] = True
                tap_move(pages[seat], move.effect)
                expect(pages[seat].get_by_test_id("trade-text")).to_contain_text("Packpferd")
                pages[seat].get_by_test_id("play-selection").click()
            elif move.effect["type"] == "verkauf" and move.effect["ratsmarke"]:
                done["rats"] = True
                tap_move(pages[seat], move.effect)
                expect(pages[seat].get_by_test_id("trade-text")).to_contain_text("Ratsmarke")
                pages[seat].get_by_test_id("play-selection").click()
            else:
                play_through_ui(pages[seat], move)
            state = ENGINE.apply(state, move.text, seat)
            ply += 1
            for page in pages:
                wait_ply(page, ply)
            if move.effect["type"] == "nimm" and not eyes_checked:
                eyes_checked = True
                check_eyes(pages[seat], pages[1 - seat], move.effect["hand_in"][0])
        assert done["horse"] and done["rats"] and eyes_checked
        anna.screenshot(path=str(shots / "hanse-round-end.png"))
        # The round is over: the Rundentafel with the whole calculation, and the countdown.
        for page in pages:
            expect(page.get_by_test_id("rundentafel")).to_be_visible(timeout=30_000)
            expect(page.get_by_test_id("pause-countdown")).to_contain_text("Nächste Runde")
            # Nobody is to move while the countdown runs: the status line says so.
            expect(page.get_by_test_id("status-pause")).to_contain_text("Rundenpause – die nächste Runde beginnt in")
            expect(page.get_by_test_id("table-status")).not_to_contain_text("am Zug")
        table = ENGINE.view(state, 0)["rounds"][-1]
        expect(anna.get_by_test_id("round-total-0")).to_have_text(str(table["players"][0]["total"]))
        expect(anna.get_by_test_id("round-total-1")).to_have_text(str(table["players"][1]["total"]))
        # Then the table deals the next round by itself.
        for page in pages:
            expect(page.get_by_test_id("rundentafel")).to_have_count(0, timeout=40_000)
            expect(page.get_by_test_id("market-card")).to_have_count(5)
    finally:
        ctx_a.close()
        ctx_b.close()


def test_one_device_through_the_curtain(browser, services: tuple[ServiceProcess, ServiceProcess], pool,
                                        shots: Path) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    lobby, _ = services
    ctx, page, user = guest_page(browser, lobby.url)
    try:
        game_id = new_game(pool, "hanse", [user["id"], user["id"]], seed=SEED, mode="same_device")
        page.goto(f"{lobby.url}/#/partie/{game_id}")
        expect(page.get_by_test_id("market-card")).to_have_count(5, timeout=30_000)
        state = ENGINE.new_game({}, SEED)
        done = {"horse": False, "rats": False}
        rng = random.Random(SEED)
        for ply in range(1, 7):
            seat = ENGINE.to_move(state)[0]
            move = pick(state, done, rng)
            play_through_ui(page, move)
            state = ENGINE.apply(state, move.text, seat)
            # The curtain hides every card until the next player says they sit in front of the device.
            expect(page.get_by_test_id("curtain")).to_be_visible()
            expect(page.get_by_test_id("hand-card")).to_have_count(0)
            expect(page.get_by_test_id("curtain")).to_contain_text(f"Spieler {2 - seat}")
            if ply == 3:
                # A reload does not lift the curtain: the page cannot know who sits in front of it.
                page.reload()
                expect(page.get_by_test_id("curtain")).to_contain_text(f"Spieler {2 - seat}", timeout=30_000)
                expect(page.get_by_test_id("hand-card")).to_have_count(0)
            page.get_by_test_id("curtain-ready").click()
            own = ENGINE.view(state, 1 - seat)["players"][1 - seat]["hand"]
            expect(page.get_by_test_id("hand-card")).to_have_count(len(own))
            wait_ply(page, ply)
        # The rest of the round but its last move comes over a second connection of the same account.
        state, last = play_until_round_end(services[1].url, user, game_id, state, rng)
        ply = len(ENGINE.history(state))
        wait_ply(page, ply)
        if page.get_by_test_id("curtain").is_visible():
            page.get_by_test_id("curtain-ready").click()
        seat = ENGINE.to_move(state)[0]
        play_through_ui(page, last)
        state = ENGINE.apply(state, last.text, seat)
        # The Rundentafel stays open to both players: no curtain over it, and neither hand on the table.
        expect(page.get_by_test_id("rundentafel")).to_be_visible()
        expect(page.get_by_test_id("curtain")).to_have_count(0)
        expect(page.get_by_test_id("hand-card")).to_have_count(0)
        expect(page.get_by_test_id("opponent-hand")).to_have_count(2)
        expect(page.locator("[data-testid=opponent-hand] [data-card]")).to_have_count(0)
        expect(page.get_by_test_id("status-pause")).to_contain_text("Weiter")
        table = ENGINE.view(state, 0)["rounds"][-1]
        expect(page.get_by_test_id("round-total-0")).to_have_text(str(table["players"][0]["total"]))
        page.screenshot(path=str(shots / "hanse-one-device-round-end.png"), full_page=True)
        # A reload during the pause shows the same: the Rundentafel, neither hand, no curtain.
        page.reload()
        expect(page.get_by_test_id("rundentafel")).to_be_visible(timeout=30_000)
        expect(page.get_by_test_id("curtain")).to_have_count(0)
        expect(page.get_by_test_id("hand-card")).to_have_count(0)
        expect(page.locator("[data-testid=opponent-hand] [data-card]")).to_have_count(0)
        page.get_by_test_id("weiter").click()
        # Then the curtain for the next hand: the round's loser begins it.
        state = ENGINE.apply(state, "weiter", None)
        starter = ENGINE.to_move(state)[0]
        expect(page.get_by_test_id("curtain")).to_contain_text(f"Spieler {starter + 1}")
        expect(page.get_by_test_id("hand-card")).to_have_count(0)
        page.get_by_test_id("curtain-ready").click()
        own = ENGINE.view(state, starter)["players"][starter]["hand"]
        expect(page.get_by_test_id("hand-card")).to_have_count(len(own))
    finally:
        ctx.close()


def play_until_round_end(game_url: str, user: dict[str, Any], game_id: int, state: Any,
                         rng: random.Random) -> tuple[Any, Any]:
    """Play the round from ``state`` over a socket up to its last move; return the state and that move."""
    client = TableClient(game_url, accounts.Account(user["id"], user["name"], True)).connect()
    try:
        table = client.join(game_id)
        done = {"horse": True, "rats": True}
        while True:
            move = pick(state, done, rng)
            seat = ENGINE.to_move(state)[0]
            after = ENGINE.apply(state, move.text, seat)
            if ENGINE.view(after, 0)["phase"] != "spiel":
                return state, move
            client.emit("table:move", {"game_id": game_id, "version": table["version"], "move": move.text})
            table = client.state(game_id, lambda s, v=table["version"]: s["version"] > v)
            state = after
    finally:
        client.close()


def socket_states(frames: list[str]) -> list[dict[str, Any]]:
    """The table:state payloads among the Socket.IO frames a page received."""
    states = []
    for frame in frames:
        start = frame.find("[")
        if not frame.startswith("42") or start < 0:
            continue
        message = json.loads(frame[start:])
        if message[0] == "table:state":
            states.append(message[1])
    return states


def play_a_move(page) -> None:  # noqa: ANN001
    """A player's move by tapping, as a person tries it: a good from the market, else the
    Packpferde, else a sale of the most common good; the Handelskasten says which is legal."""
    trade = page.get_by_test_id("trade-text")

    def try_cards(cards) -> bool:  # noqa: ANN001
        for card in cards:
            card.click()
        if trade.get_attribute("data-move"):
            page.get_by_test_id("play-selection").click()
            return True
        for card in cards:
            card.click()  # taps again: selected no more
        return False

    market = page.locator("button[data-testid=market-card]")
    for index in range(market.count()):
        if market.nth(index).get_attribute("data-card") != "Packpferd" and try_cards([market.nth(index)]):
            return
    horses = page.locator('button[data-testid=market-card][data-card="Packpferd"]')
    if horses.count() and try_cards([horses.first]):
        return
    hand = page.locator("button[data-testid=hand-card]")
    kinds = [hand.nth(i).get_attribute("data-card") for i in range(hand.count())]
    for kind in sorted(set(kinds), key=kinds.count, reverse=True):
        if try_cards([hand.nth(i) for i, k in enumerate(kinds) if k == kind]):
            return
    raise AssertionError("no move found by tapping")


def test_against_the_computer_with_karten_info_and_reasons(browser, services, ai_worker, shots) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    lobby, _ = services
    context, page, _user = guest_page(browser, lobby.url, has_touch=True)
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    try:
        page.goto(f"{lobby.url}/#/computer")
        page.get_by_test_id("game-hanse").click()
        page.get_by_test_id("option-strength").select_option("leicht")
        page.get_by_test_id("start").click()
        page.wait_for_function("location.hash.startsWith('#/partie/')")
        expect(page.get_by_test_id("market-card")).to_have_count(5, timeout=30_000)
        page.locator("button[data-testid=hand-card]").first.wait_for()

        # Karten-Info by hover: a good, the deck, a row of Zinnmarken, the Stallmarke. The deal can leave
        # five Packpferde in the market (about one game in fifty); the good is then one from the hand.
        market_goods = page.locator("button[data-testid=market-card]:not([data-card=Packpferd])")
        good = market_goods.first if market_goods.count() else page.locator("button[data-testid=hand-card]").first
        card = good.get_attribute("data-card")
        good.hover()
        info = page.get_by_test_id("card-info")
        expect(info).to_be_visible()
        expect(page.get_by_test_id("card-info-title")).to_contain_text(card)
        expect(info).to_contain_text("Karten im Spiel")
        expect(info).to_contain_text("Aufnehmen kannst du sie noch")
        page.get_by_test_id("deck-count").hover()
        expect(page.get_by_test_id("card-info-title")).to_have_text("Nachziehstapel")
        expect(info).to_contain_text("Noch 40 Karten")
        page.locator('[data-info="zinn:Tuch"]').hover()
        expect(info).to_contain_text("5 · 3 · 3 · 2 · 2 · 1 · 1")
        page.get_by_test_id("stallmarke").hover()
        expect(info).to_contain_text("5 Punkte für den, der am Rundenende mehr Packpferde im Stall hat")
        expect(info).to_contain_text("Jetzt:")
        page.get_by_test_id("rats-piles").hover()
        expect(info).to_contain_text("für 3 Karten: Werte 1–3 (im Mittel 2), noch 7 im Stapel")
        page.mouse.move(0, 0)
        expect(info).to_be_hidden()

        # Karten-Info by long press (a touch held down) on a card in the hand; it selects nothing.
        held = page.locator("button[data-testid=hand-card]").first
        held.dispatch_event("pointerdown", {"pointerType": "touch", "bubbles": True, "isPrimary": True})
        expect(info).to_be_visible()
        expect(page.get_by_test_id("card-info-title")).to_contain_text(held.get_attribute("data-card"))
        expect(info).to_contain_text("Je Karte eine Zinnmarke von oben")
        held.dispatch_event("pointerup", {"pointerType": "touch", "bubbles": True, "isPrimary": True})
        held.dispatch_event("click")  # the tap that ends a long press
        expect(page.locator("button[data-testid=hand-card].selected")).to_have_count(0)
        expect(info).to_be_visible()
        page.screenshot(path=str(shots / "hanse-card-info.png"), full_page=True)

        # A selection that is no move: the Handelskasten says exactly why, and its button stays off.
        hand = page.locator("button[data-testid=hand-card]")
        kinds = [hand.nth(i).get_attribute("data-card") for i in range(hand.count())]
        trade = page.get_by_test_id("trade-text")
        picked: list[int] = []
        if len(set(kinds)) > 1:
            picked = [kinds.index(k) for k in sorted(set(kinds))[:2]]
            for i in picked:
                hand.nth(i).click()
            expect(trade).to_have_attribute("data-reason", "sell_mixed")
            expect(trade).to_have_text("Verkaufen kannst du nur eine Warensorte auf einmal.")
            expect(page.get_by_test_id("play-selection")).to_be_disabled()
        elif market_goods.count():
            picked = [0]
            hand.nth(0).click()
            market_goods.first.click()
            expect(trade).to_have_attribute("data-reason", "exchange_too_few")
            expect(trade).to_have_text("Beim Tausch nimmst du mindestens zwei Waren aus dem Markt.")
            expect(page.get_by_test_id("play-selection")).to_be_disabled()
            market_goods.first.click()
        else:
            # One kind in the hand and only Packpferde in the market: a hand card and a horse is no refusal,
            # a Packpferd tapped after a hand card takes the horses alone.
            hand.nth(0).click()
            page.locator("button[data-testid=market-card]").first.click()
            expect(trade).to_have_attribute("data-reason", "ok")
            expect(trade).to_have_text("Du holst alle 5 Packpferde in deinen Stall.")
            expect(page.locator("button[data-testid=hand-card].selected")).to_have_count(0)
            page.locator("button[data-testid=market-card]").first.click()
        for i in picked:
            hand.nth(i).click()
        expect(trade).to_have_attribute("data-reason", "incomplete")

        # Three moves of yours, each answered by the computer through the Celery worker.
        for answered in (2, 4, 6):
            play_a_move(page)
            page.get_by_test_id("move").nth(answered - 1).wait_for(timeout=30_000)
            expect(page.get_by_test_id("play-selection")).to_be_visible()
            # The computer's hand shows as backs only.
            expect(page.locator("[data-testid=opponent-hand] [data-card]")).to_have_count(0)
        page.screenshot(path=str(shots / "hanse-computer.png"))
        states = socket_states(frames)
        assert len(states) >= 6
        for state in states:
            you = state["you"]
            assert you is not None and state["status"] == "running"
            assert state["view"]["players"][1 - you]["hand"] is None, "the computer's hand reached the browser"
            assert state["view"]["hidden"] is None
    finally:
        context.close()
