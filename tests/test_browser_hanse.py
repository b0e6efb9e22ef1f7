"""Battlehanse in real Chromium: two browsers play a complete round through the table's
cards and Handelskasten (an exchange with a Packpferd and a sale that earns a Ratsmarke
among it), then the Rundentafel with its countdown; one browser plays on one device
through the curtain.

Moves are chosen in Python from the engine's legal moves (replayed from the same seed
and moves as the table), then tapped on the page card by card; the Handelskasten must
name exactly that move before its button is pressed.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from shared import game_store
from shared.games import get_game
from tests.stack import ServiceProcess
from tests.test_browser_table import browser, guest_page, pool, services, shots  # noqa: F401  (fixtures)

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


def test_two_browsers_play_a_round(browser, services: tuple[ServiceProcess, ServiceProcess], pool,  # noqa: F811
                                   shots: Path) -> None:  # noqa: ANN001, F811
    from playwright.sync_api import expect

    lobby, _ = services
    ctx_a, anna, anna_user = guest_page(browser, lobby.url)
    ctx_b, bert, bert_user = guest_page(browser, lobby.url)
    try:
        with pool.connection() as conn, conn.transaction():
            game_id = game_store.create_game(
                conn, game="hanse", options={}, seed=SEED, seats=[anna_user["id"], bert_user["id"]],
                mode="wartesaal", clock={"base_ms": 600_000, "inc_ms": 5_000}, rated=False, stake=0)
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


def test_one_device_through_the_curtain(browser, services: tuple[ServiceProcess, ServiceProcess], pool) -> None:  # noqa: ANN001, F811
    from playwright.sync_api import expect

    lobby, _ = services
    ctx, page, user = guest_page(browser, lobby.url)
    try:
        with pool.connection() as conn, conn.transaction():
            game_id = game_store.create_game(
                conn, game="hanse", options={}, seed=SEED, seats=[user["id"], user["id"]],
                mode="same_device", clock=None, rated=False, stake=0)
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
            page.get_by_test_id("curtain-ready").click()
            own = ENGINE.view(state, 1 - seat)["players"][1 - seat]["hand"]
            expect(page.get_by_test_id("hand-card")).to_have_count(len(own))
            wait_ply(page, ply)
    finally:
        ctx.close()

