"""Battlegeneral in real Chromium: Red places all 40 pieces by hand (taking one back on
the way), Blue takes a Standard-Aufstellung and adjusts it piece by piece; a few moves, a
fight that shows both ranks to both, the Karten-Info, and a resignation."""

from __future__ import annotations

import random

from shared.games import get_game
from shared.table_replay import replay
from tests.browser_fixtures import guest_page
from tests.table_client import load, new_game, stored_when

pytestmark = __import__("pytest").mark.browser

# Red's click order: the front row first, so the Feldmarschall stands on a4 (placement
# goes from the Feldmarschall down, seed 002).
RED_SQUARES = [f"{f}{r}" for r in (4, 3, 2, 1) for f in "abcdefghij"]


def click_square(page, square: str) -> None:  # noqa: ANN001
    """A click on the square (on its piece when one stands there, as a player would)."""
    page.locator(f"svg.general [data-square={square}]").last.click()


def own_count(page) -> int:  # noqa: ANN001
    return page.locator("svg.general g.piece").count()


def play(page, text: str) -> None:  # noqa: ANN001
    source, target = text.replace("x", "-").split(" ")[0].split("-")
    click_square(page, source)
    page.locator(f"svg.general rect.target[data-square={target}]").wait_for()
    click_square(page, target)


def test_general_setup_by_hand_and_by_preset_then_a_fight_and_a_resignation(browser, services, pool, shots) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    lobby, _ = services
    ctx_a, anna, anna_user = guest_page(browser, lobby.url)
    ctx_b, bert, bert_user = guest_page(browser, lobby.url)
    try:
        game_id = new_game(pool, "general", [anna_user["id"], bert_user["id"]], seed=3)
        anna.goto(f"{lobby.url}/#/partie/{game_id}")
        bert.goto(f"{lobby.url}/#/partie/{game_id}")
        for page in (anna, bert):
            page.get_by_test_id("next-piece").wait_for()
            expect(page.get_by_test_id("opponent-setup")).to_contain_text("stellt noch auf")
            # The rules line on an unfinished setup (seed 002 asks the rules to say it).
            expect(page.get_by_test_id("setup-time-rule")).to_contain_text("für jede weitere Aktion 5 Minuten")

        # Blue: after a short time the eight Standard-Aufstellungen appear; take one over.
        bert.get_by_test_id("presets").wait_for()
        assert bert.locator("[data-preset]").count() == 8
        bert.locator("[data-preset='Blitzkrieg']").click()
        bert.wait_for_function("document.querySelectorAll('svg.general g.piece').length === 40")
        # ... and adjust it: take two pieces back, put them down again on each other's square.
        first, second = "a7", "b7"
        first_rank = bert.locator(f"g.piece[data-square={first}]").get_attribute("data-rank")
        second_rank = bert.locator(f"g.piece[data-square={second}]").get_attribute("data-rank")
        click_square(bert, first)
        bert.wait_for_function("document.querySelectorAll('svg.general g.piece').length === 39")
        click_square(bert, second)
        bert.wait_for_function("document.querySelectorAll('svg.general g.piece').length === 38")
        # The next piece is the highest-ranked one missing: it goes on the first free square clicked.
        order = ["10", "9", "8", "7", "6", "5", "4", "3", "2", "S", "B", "F"]
        high, low = sorted([first_rank, second_rank], key=order.index)
        click_square(bert, second)
        bert.locator(f"g.piece[data-square={second}][data-rank='{high}']").wait_for()
        click_square(bert, first)
        bert.locator(f"g.piece[data-square={first}][data-rank='{low}']").wait_for()

        # Red: all 40 by hand, one taken back on the way.
        for count, square in enumerate(RED_SQUARES, start=1):
            click_square(anna, square)
            anna.wait_for_function(f"document.querySelectorAll('svg.general g.piece').length === {count}")
            if count == 12:
                click_square(anna, square)  # a click on a placed piece takes it back
                anna.wait_for_function("document.querySelectorAll('svg.general g.piece').length === 11")
                click_square(anna, square)
                anna.wait_for_function("document.querySelectorAll('svg.general g.piece').length === 12")
        assert anna.locator("g.piece[data-square=a4]").get_attribute("data-rank") == "10"
        anna.screenshot(path=str(shots / "general-setup-red.png"))
        # Blue saw nothing of it: no red piece on Blue's board during the setup.
        assert bert.locator("g.piece.red").count() == 0

        bert.get_by_test_id("setup-ready").click()
        bert.get_by_test_id("setup-waiting").wait_for()
        expect(anna.get_by_test_id("opponent-setup")).to_contain_text("fertig")
        anna.get_by_test_id("setup-ready").click()
        for page in (anna, bert):
            page.locator("svg.general g.piece.red").nth(39).wait_for()
            page.locator("svg.general g.piece.blue").nth(39).wait_for()
        # Each sees its own ranks and none of the enemy's.
        assert anna.locator("g.piece.blue.hidden-rank").count() == 40
        assert bert.locator("g.piece.red.hidden-rank").count() == 40

        # Karten-Info on hover: own piece with its rank, an enemy piece stays hidden.
        anna.locator("g.piece[data-square=a4]").hover()
        expect(anna.get_by_test_id("card-info")).to_contain_text("Feldmarschall")
        anna.locator("g.piece[data-square=a7]").hover()
        expect(anna.get_by_test_id("card-info")).to_contain_text("Verdeckte Figur")

        # Scrolled to the end of the page, the Karten-Info going away must not pull the board
        # under the resting pointer (it did: the board jumped 146 px, and a click waited in vain
        # for the piece to stand still).
        def f7_top() -> float:
            return bert.evaluate("[...document.querySelectorAll('svg.general [data-square=f7]')].pop().getBoundingClientRect().y")
        bert.locator("svg.general [data-square=f7]").last.hover()
        bert.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        before = f7_top()
        bert.locator("svg.general [data-square=e5]").last.hover()  # an empty square: no info
        expect(bert.get_by_test_id("card-info")).to_be_hidden()
        assert f7_top() == before

        # A few moves: the Feldmarschall walks up the a-file and strikes what stands on a7.
        engine = get_game("general")
        rng = random.Random(3)
        script = ["a4-a5", None, "a5-a6", None, "a6xa7"]
        row = stored_when(pool, game_id, lambda r: r.moves.count("fertig") == 2)
        for ply, text in enumerate(script):
            state = replay(row.game, row.options, row.seed, row.moves, row.move_seats)
            legal = [m for m in engine.legal_moves(state, ply % 2)]
            if text is None:  # Blue: any move away from the a- and b-files
                text = rng.choice([m.text for m in legal if m.effect["from"][0] not in "ab"
                                   and m.effect["to"][0] not in "ab"])
            else:
                text = next(m.text for m in legal if m.text.replace("x", "-") == text.replace("x", "-"))
            play(anna if ply % 2 == 0 else bert, text)
            for page in (anna, bert):
                page.wait_for_function(f"document.querySelectorAll('[data-testid=move]').length >= {ply + 1}")
            row = stored_when(pool, game_id, lambda r, v=row.version: r.version > v)
        # The fight shows both ranks to both players.
        for page in (anna, bert):
            fight = page.get_by_test_id("fight")
            expect(fight).to_contain_text("Feldmarschall (10, Rot)")
        final = replay(row.game, row.options, row.seed, row.moves, row.move_seats)
        blue_rank = get_game("general").view(final, 1)["history"][-1].split(":")[1].rstrip(")")
        for page in (anna, bert):
            expect(page.get_by_test_id("fight")).to_contain_text(f"({blue_rank}, Blau)")
        # Karten-Info's hint: the stronger enemy pieces not seen yet (a captured Aufklärer changes none of them).
        anna.locator("g.piece[data-square=b3]").hover()
        expect(anna.get_by_test_id("card-info")).to_contain_text("Leutnant")
        expect(anna.get_by_test_id("card-info")).to_contain_text(
            "Noch ungesehene stärkere Gegner: 1× Feldmarschall, 1× General, 2× Oberst, 3× Major, 4× Hauptmann.")
        anna.screenshot(path=str(shots / "general-fight-red.png"))
        bert.screenshot(path=str(shots / "general-fight-blue.png"))

        # Bert resigns (two clicks).
        bert.get_by_test_id("resign").click()
        bert.get_by_test_id("resign").click()
        for page in (anna, bert):
            expect(page.locator("body")).to_contain_text("Aufgegeben", timeout=20_000)
        assert load(pool, game_id).result["reason"] == "aufgabe"
        assert load(pool, game_id).result["winner"] == 0
        # After the game, everything: both see every rank, the enemy's included.
        for page in (anna, bert):
            expect(page.locator("svg.general g.piece.hidden-rank")).to_have_count(0, timeout=20_000)
            assert page.locator("svg.general g.piece.red").count() + page.locator("svg.general g.piece.blue").count() > 70
    finally:
        ctx_a.close()
        ctx_b.close()


def test_general_against_the_computer_you_play_red_and_begin(browser, services, ai_worker, shots) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    lobby, _ = services
    context, page, _user = guest_page(browser, lobby.url)
    try:
        page.goto(f"{lobby.url}/#/computer")
        page.get_by_test_id("game-general").click()
        expect(page.get_by_test_id("your-colour")).to_contain_text("Rot")
        page.get_by_test_id("option-strength").select_option("leicht")
        page.get_by_test_id("start").click()
        page.wait_for_function("location.hash.startsWith('#/partie/')")
        # The computer sets up at once; you take a Standard-Aufstellung, mirror it, and are done.
        page.get_by_test_id("presets").wait_for()
        expect(page.get_by_test_id("opponent-setup")).to_contain_text("fertig", timeout=30_000)
        page.locator("[data-preset='On Guard']").click()
        page.wait_for_function("document.querySelectorAll('svg.general g.piece').length === 40")
        before = page.locator("g.piece[data-square=a1]").get_attribute("data-rank")
        mirrored_rank = page.locator("g.piece[data-square=j1]").get_attribute("data-rank")
        page.get_by_test_id("mirror").click()
        page.locator(f"g.piece[data-square=a1][data-rank='{mirrored_rank}']").wait_for()
        page.locator(f"g.piece[data-square=j1][data-rank='{before}']").wait_for()
        # Karten-Info by long press, as on a phone (a touch pointer held down).
        piece = page.locator("g.piece[data-square=b4]")
        rank = piece.get_attribute("data-rank")
        piece.dispatch_event("pointerdown", {"pointerType": "touch", "bubbles": True, "isPrimary": True})
        expect(page.get_by_test_id("card-info")).to_be_visible()
        names = {"10": "Feldmarschall", "9": "General", "8": "Oberst", "7": "Major", "6": "Hauptmann", "5": "Leutnant",
                 "4": "Unteroffizier", "3": "Mineur", "2": "Aufklärer", "S": "Spion", "B": "Mine", "F": "Fahne"}
        expect(page.get_by_test_id("card-info")).to_contain_text(names[rank])
        piece.dispatch_event("pointerup", {"pointerType": "touch", "bubbles": True, "isPrimary": True})
        page.get_by_test_id("setup-ready").click()
        page.locator("svg.general g.piece.blue").nth(39).wait_for()
        # Red begins: a piece of the front row that can move, then its target.
        movable = page.locator("svg.general g.piece.red[data-square$='4']:not([data-rank=B]):not([data-rank=F])")
        for index in range(movable.count()):
            square = movable.nth(index).get_attribute("data-square")
            if square[0] in "cdgh":
                continue  # lakes in front
            click_square(page, square)
            page.locator(f"svg.general rect.target[data-square={square[0]}5]").wait_for()
            click_square(page, f"{square[0]}5")
            break
        # The computer answers through the Celery worker.
        page.get_by_test_id("move").nth(1).wait_for(timeout=30_000)
        page.screenshot(path=str(shots / "general-computer.png"))
    finally:
        context.close()
