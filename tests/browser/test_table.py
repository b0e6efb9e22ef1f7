"""The tables in real Chromium: a Battlehexagon game between two browsers through the UI,
watched, replayed and downloaded; Battlebullet against the computer (a real Celery worker).

The lobby serves the built client (web/dist) and hands the page its game-socket ticket;
the game service runs as its own process, as in production.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared import game_store
from shared.games import get_game
from tests.browser_fixtures import UI_TIMEOUT_MS, guest_page
from tests.table_client import new_game

pytestmark = pytest.mark.browser


def board_classes(page, selector: str) -> list[str]:  # noqa: ANN001
    return page.eval_on_selector_all(selector, "nodes => nodes.map(n => n.getAttribute('data-cell') || n.getAttribute('data-stone'))")


def play_hexagon_move(page, text: str) -> None:  # noqa: ANN001
    """Click a move as a player does: a jump is stone then blue cell, a clone one green cell."""
    if "-" in text:
        source, target = text.split("-")
        page.locator(f"[data-stone={source}]").click()
        page.locator(f"polygon.jump-target[data-cell={target}]").wait_for()
        page.locator(f"polygon[data-cell={target}]").click(force=True)
    else:
        page.locator(f"polygon[data-cell={text}]").click(force=True)


def test_hexagon_between_two_browsers_then_replay(browser, services, pool, shots) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    lobby, _ = services
    ctx_a, anna, anna_user = guest_page(browser, lobby.url)
    ctx_b, bert, bert_user = guest_page(browser, lobby.url)
    ctx_c = browser.new_context()
    try:
        game_id = new_game(pool, "hexagon", [anna_user["id"], bert_user["id"]], seed=7, clock={"base_ms": 180_000, "inc_ms": 2_000})
        anna.goto(f"{lobby.url}/#/partie/{game_id}")
        bert.goto(f"{lobby.url}/#/partie/{game_id}")
        anna.locator("[data-stone=a5]").wait_for()
        bert.locator("[data-stone=a5]").wait_for()
        # The strip beside the board: green for the one to move, blue for the one waiting.
        assert anna.locator("rect.turn-strip").get_attribute("data-turn") == "you"
        assert bert.locator("rect.turn-strip").get_attribute("data-turn") == "opponent"
        # 3+2: the waiting seat's clock shows the base time; the mover's has run since the table
        # was made (two page loads: over two seconds on a loaded machine, so "2:58" is right too).
        assert anna.get_by_test_id("clock-1").inner_text() == "3:00"
        minutes, seconds = anna.get_by_test_id("clock-0").inner_text().split(":")
        assert 170 <= int(minutes) * 60 + int(seconds) <= 180

        # A click on a stone lights its clone cells green and its jump cells blue.
        anna.locator("[data-stone=e1]").click()
        greens = set(board_classes(anna, "polygon.clone-target"))
        blues = set(board_classes(anna, "polygon.jump-target"))
        assert greens == {"d1", "e2", "f1"}
        assert blues == {"c1", "d2", "e3", "f2", "g1"}
        anna.locator("[data-stone=e1]").click()  # a second click lets go of it
        assert anna.locator("polygon.jump-target").count() == 0
        # Bert (not to move) cannot select anything.
        bert.locator("[data-stone=e9]").click()
        assert bert.locator("polygon.clone-target, polygon.jump-target").count() == 0

        engine = get_game("hexagon")
        state = engine.new_game(engine.default_options(), 7)
        script = ["e1-e3", "e9-e7", "e2", "e8", "e3-e5"]
        pages = [anna, bert]
        for ply, text in enumerate(script):
            mover = pages[ply % 2]
            # Hover over a target shows what would turn (this move's effect, from the server).
            effect = next(m.effect for m in engine.legal_moves(state) if m.text == text)
            play_hexagon_move(mover, text)
            state = engine.apply(state, text)
            for page in pages:
                page.get_by_test_id("move").nth(ply).filter(has_text=text).wait_for()
            if effect["turns"]:
                assert sorted(effect["turns"])  # the engine turned stones: the board shows the new colour
                colour = "rubin" if ply % 2 == 0 else "perle"
                for cell in effect["turns"]:
                    anna.locator(f"circle.stone.{colour}[data-stone={cell}]").wait_for()
        # The move list in the seed's notation, numbered in pairs.
        assert [m.inner_text() for m in bert.get_by_test_id("move").all()] == script
        assert "1." in bert.get_by_test_id("moves").inner_text()

        # Hover preview: Bert hovers a clone target and sees the stones that would turn.
        replies = engine.legal_moves(state)
        turning = next(m for m in replies if m.effect["kind"] == "clone" and m.effect["turns"])
        bert.locator(f"polygon[data-cell={turning.effect['to']}]").hover(force=True)
        bert.locator("circle.would-turn").first.wait_for()
        assert sorted(board_classes_turns(bert)) == sorted(turning.effect["turns"])

        # Hilfe an: light-green clone cells; cell names; F turns the board.
        bert.get_by_test_id("toggle-help").click()
        assert set(board_classes(bert, "polygon.help-clone")) | set(board_classes(bert, "polygon.clone-target")) >= {
            m.effect["to"] for m in replies if m.effect["kind"] == "clone"}
        threatened = engine.view(state, 1)["help"]["threatened"]
        assert threatened, "this position has Perle stones Rubin could take"
        assert sorted(board_classes(bert, "circle.stone.threatened")) == sorted(threatened)
        bert.get_by_test_id("toggle-names").click()
        assert bert.locator("g.cell-names").is_visible()
        before = bert.locator("svg.board > g").get_attribute("transform")
        bert.keyboard.press("f")
        assert bert.locator("svg.board > g").get_attribute("transform") != before
        bert.keyboard.press("f")  # and back

        # A spectator in a third browser sees the same position, without any controls.
        ctx_c.set_default_timeout(UI_TIMEOUT_MS)
        carla = ctx_c.new_page()
        carla.goto(lobby.url)
        carla.get_by_test_id("guest").click()
        carla.get_by_test_id("me").wait_for()
        carla.goto(f"{lobby.url}/#/live")
        carla.locator(f"li.game-row[data-game-id='{game_id}'] a").click()
        carla.get_by_test_id("table-status").filter(has_text="Du schaust zu").wait_for()
        assert carla.get_by_test_id("resign").count() == 0
        assert carla.get_by_test_id("move").count() == len(script)

        # ◀ steps back through the views seen; ▶ returns to the game.
        anna.get_by_test_id("nav-back").click()
        assert anna.locator("button.move.current").inner_text() == script[-2]
        anna.keyboard.press("ArrowRight")
        assert anna.locator("button.move.current").inner_text() == script[-1]

        bert.screenshot(path=str(shots / "table-hexagon-bert.png"))

        # ½ Remis offered and declined, then Bert resigns (two clicks).
        bert.get_by_test_id("draw-offer").click()
        anna.get_by_test_id("draw-decline").click()
        expect(bert.get_by_test_id("draw-offer")).to_be_enabled()
        expect(anna.get_by_test_id("draw-accept")).to_have_count(0)
        bert.get_by_test_id("resign").click()
        bert.get_by_test_id("resign").click()
        # The final position stays; a click on the board shows the result at once.
        anna.get_by_test_id("table-status").filter(has_text="Gewonnen").wait_for()
        assert anna.get_by_test_id("result").is_hidden()
        anna.locator("svg.board").click(position={"x": 5, "y": 5})
        anna.get_by_test_id("result-line").filter(has_text="Gewonnen").wait_for()
        bert.get_by_test_id("result-line").filter(has_text="Verloren").wait_for(timeout=14_000)  # after ten seconds
        anna.screenshot(path=str(shots / "table-hexagon-result.png"))

        # After the end every position is public: ◀ now reaches back to the start at the table too.
        for _ in range(len(script)):
            anna.keyboard.press("ArrowLeft")
        assert anna.locator("button.move.current").count() == 0  # the start: no move highlighted
        assert anna.locator("circle.stone").count() == 6

        # Replay: to the start and forward with keys, a click in the list, the download, the link.
        anna.get_by_test_id("to-replay").click()
        anna.get_by_test_id("ply").filter(has_text=f"{len(script)} / {len(script)}").wait_for()
        anna.get_by_test_id("nav-first").click()
        assert anna.get_by_test_id("ply").inner_text() == f"0 / {len(script)}"
        assert anna.locator("circle.stone").count() == 6
        anna.keyboard.press("ArrowRight")
        assert anna.get_by_test_id("ply").inner_text() == f"1 / {len(script)}"
        anna.get_by_test_id("move").nth(3).click()
        assert anna.get_by_test_id("ply").inner_text() == f"4 / {len(script)}"
        with anna.expect_download() as download_info:
            anna.get_by_test_id("download").click()
        record = Path(download_info.value.path()).read_text(encoding="utf-8")
        assert "e1-e3" in record and "e3-e5" in record
        anna.get_by_test_id("copy-link").click()
        anna.get_by_test_id("replay-notice").filter(has_text=f"#/nachspielen/{game_id}").wait_for()
        anna.screenshot(path=str(shots / "replay-hexagon.png"))

        # Meine Partien lists the game and opens its replay.
        bert.goto(f"{lobby.url}/#/meine-partien")
        bert.locator(f"li.game-row[data-game-id='{game_id}']").filter(has_text="Verloren").wait_for()

        # Revanche from the finished table (it shows the result at once on a later visit):
        # the lobby opens a challenge with colours swapped; both agree; both land at the new table.
        bert.goto(f"{lobby.url}/#/partie/{game_id}")
        bert.get_by_test_id("rematch").click()
        bert.wait_for_function("location.hash === '#/'")
        anna.goto(f"{lobby.url}/#/")
        for page in (anna, bert):
            page.get_by_test_id("challenge-panel").first.wait_for()
        for page in (anna, bert):
            accept = page.get_by_test_id("challenge-accept")
            if accept.count():
                accept.first.click()
        for page in (anna, bert):
            page.wait_for_function(f"location.hash.startsWith('#/partie/') && location.hash !== '#/partie/{game_id}'")
        table = bert.get_by_test_id("table-page")
        table.locator("[data-stone=e1]").wait_for()
        assert table.locator("rect.turn-strip").get_attribute("data-turn") == "you"  # Bert has Rubin now
        assert bert.get_by_test_id("seat-0").inner_text().startswith(bert_user["name"])
        bert.screenshot(path=str(shots / "table-hexagon-rematch.png"))
    finally:
        ctx_a.close()
        ctx_b.close()
        ctx_c.close()


def board_classes_turns(page) -> list[str]:  # noqa: ANN001
    return page.eval_on_selector_all("circle.would-turn", "nodes => nodes.map(n => n.getAttribute('data-turns'))")


def test_bullet_against_the_computer_on_a_phone_held_sideways(browser, services, ai_worker, shots) -> None:  # noqa: ANN001
    lobby, _ = services
    context, page, _user = guest_page(browser, lobby.url, viewport={"width": 844, "height": 390}, is_mobile=True, has_touch=True)
    try:
        page.goto(f"{lobby.url}/#/computer")
        page.get_by_test_id("game-bullet").click()
        page.get_by_test_id("option-strength").select_option("leicht")
        page.get_by_test_id("preview").locator("circle.marble").first.wait_for()
        page.screenshot(path=str(shots / "start-computer-phone.png"))
        page.get_by_test_id("start").click()
        page.wait_for_function("location.hash.startsWith('#/partie/')")
        page.get_by_test_id("table-page").locator("circle.marble.white").first.wait_for()
        assert page.get_by_test_id("clock-0").is_hidden()  # no clock against the computer

        # One marble: arrows for every legal direction; hovering one shows where it lands.
        page.locator("[data-marble=C3]").click()
        arrows = page.locator("g.move-arrow")
        arrows.first.wait_for()
        assert arrows.count() >= 2
        first_arrow = page.locator("g.move-arrow[data-move='C3-D4']")
        first_arrow.hover()
        page.locator("circle.ghost[data-lands=D4]").wait_for()
        # A second marble in line extends the selection; its arrows are the pair's moves.
        page.locator("[data-marble=B2]").click()
        pair_moves = page.eval_on_selector_all("g.move-arrow", "nodes => nodes.map(n => n.getAttribute('data-move'))")
        assert "B2C3-C3D4" in pair_moves
        page.locator("g.move-arrow[data-move='B2C3-C3D4']").click()
        # The computer answers through the Celery worker.
        page.get_by_test_id("move").nth(1).wait_for(timeout=30_000)
        assert page.get_by_test_id("move").first.inner_text() == "B2C3-C3D4"

        # Zug zurück takes back your move and its answer.
        page.get_by_test_id("undo").click()
        page.wait_for_function("document.querySelectorAll('[data-testid=move]').length === 0")
        page.locator("[data-marble=C3]").wait_for()

        # By touch: tap a marble, tap an arrow.
        page.locator("[data-marble=C5]").tap()
        page.locator("g.move-arrow[data-move='C5-D6']").tap()
        page.get_by_test_id("move").first.filter(has_text="C5-D6").wait_for()
        page.get_by_test_id("move").nth(1).wait_for(timeout=30_000)
        page.get_by_test_id("undo").click()
        page.wait_for_function("document.querySelectorAll('[data-testid=move]').length === 0")

        # Drag: press on a marble and pull it towards its destination.
        start = page.locator("[data-marble=C4]").bounding_box()
        target = page.locator("circle.hole[data-cell=D5]").bounding_box()
        assert start and target
        page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
        page.mouse.down()
        page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=5)
        page.mouse.up()
        page.get_by_test_id("move").first.filter(has_text="C4-D5").wait_for()
        page.get_by_test_id("move").nth(1).wait_for(timeout=30_000)

        # Right-click marks and arrows (Shift red); the gutter is drawn; Gefahr an switches.
        mark = page.locator("circle.hole[data-cell=E5]")
        mark.click(button="right")
        page.locator("circle.mark.green").wait_for()
        page.keyboard.down("Shift")
        page.locator("circle.hole[data-cell=E1]").click(button="right")
        page.keyboard.up("Shift")
        page.locator("circle.mark.red").wait_for()
        assert page.get_by_test_id("gutter").locator("circle.slot").count() == 12  # 6 + 6 empty places
        page.get_by_test_id("toggle-danger").click()
        assert page.evaluate("document.documentElement.scrollWidth") <= 844
        box = page.locator("svg.board").bounding_box()
        assert box and box["y"] + box["height"] <= 390 + 1, "the board fits the phone's height"
        page.screenshot(path=str(shots / "table-bullet-phone.png"))

        # Resign: the result, and the record per strength kept on this device.
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign").click()
        page.get_by_test_id("table-status").filter(has_text="Verloren").wait_for()
        page.locator("svg.board").click(position={"x": 5, "y": 5})
        page.get_by_test_id("result-line").wait_for()
        stored = json.loads(page.evaluate("localStorage.getItem('spielcenter.computer-record')"))
        assert stored["bullet:leicht"] == {"win": 0, "draw": 0, "loss": 1}
        page.get_by_test_id("play-again").click()
        page.get_by_test_id("game-bullet").click()
        assert page.get_by_test_id("record-leicht").inner_text().split() == ["Leicht", "0", "0", "1"]
    finally:
        context.close()


COUNT_TICKS = """
window.__ticks = 0;
const createOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__ticks += 1; return createOscillator.call(this); };
"""


def test_clock_blinks_and_ticks_in_the_last_ten_seconds_then_the_flag_falls(browser, services, pool) -> None:  # noqa: ANN001
    from shared import accounts

    lobby, _ = services
    context, page, user = guest_page(browser, lobby.url)
    page.add_init_script(COUNT_TICKS)
    page.reload()  # the counter is in place from this document on
    page.get_by_test_id("me").wait_for()
    opponent = accounts.create_guest(pool)
    try:
        with pool.connection() as conn, conn.transaction():
            ticking = game_store.create_game(
                conn, game="bullet", options={}, seed=3, seats=[user["id"], opponent.id], mode="wartesaal",
                clock={"base_ms": 12_000, "inc_ms": 0}, rated=False, stake=0)
            untimed = game_store.create_game(
                conn, game="hexagon", options={}, seed=3, seats=[opponent.id, user["id"]], mode="wartesaal",
                clock=None, rated=False, stake=0)
        # Ohne Uhr: ten minutes per move, only the last minute is shown.
        page.goto(f"{lobby.url}/#/partie/{untimed}")
        page.locator("[data-stone=e1]").wait_for()
        assert page.get_by_test_id("clock-0").is_hidden() and page.get_by_test_id("clock-1").is_hidden()

        page.goto(f"{lobby.url}/#/partie/{ticking}")
        clock = page.get_by_test_id("clock-0")
        page.locator("[data-testid=clock-0].warning").wait_for()
        seconds = float(clock.inner_text())
        assert 0 <= seconds < 10, "tenths shown in the last ten seconds"
        assert "running" in (clock.get_attribute("class") or "")
        page.wait_for_function("window.__ticks >= 2")
        # Nobody moves: the server lets the flag fall, the page shows the loss on time.
        page.get_by_test_id("table-status").filter(has_text="Verloren").wait_for(timeout=20_000)
        assert "warning" not in (clock.get_attribute("class") or "")
    finally:
        context.close()


def test_same_device_with_clock_preview_and_undo(browser, services) -> None:  # noqa: ANN001
    lobby, _ = services
    context, page, _user = guest_page(browser, lobby.url)
    try:
        page.goto(f"{lobby.url}/#/zuzweit")
        page.get_by_test_id("option-map").wait_for()
        page.get_by_test_id("preview").locator("polygon.cell").first.wait_for()
        page.get_by_test_id("option-map").select_option("dreiloch")
        page.wait_for_function("document.querySelectorAll('[data-testid=preview] polygon.hole').length === 3")
        page.get_by_test_id("option-map").select_option("zufall")
        page.get_by_test_id("preview").filter(has_text="?").wait_for()
        page.get_by_test_id("option-map").select_option("klassisch")
        page.get_by_test_id("option-clock").select_option("3+2")
        page.get_by_test_id("start").click()
        page.locator("[data-stone=e1]").wait_for()
        assert page.get_by_test_id("clock-0").inner_text() in ("3:00", "2:59")
        page.locator("polygon[data-cell=a4]").click(force=True)  # Rubin clones
        page.get_by_test_id("move").first.filter(has_text="a4").wait_for()
        page.locator("polygon[data-cell=a2]").click(force=True)  # Perle, same device
        page.get_by_test_id("move").nth(1).filter(has_text="a2").wait_for()
        assert page.get_by_test_id("clock-0").inner_text() in ("3:02", "3:01")  # Fischer increment
        page.get_by_test_id("undo").click()
        page.wait_for_function("document.querySelectorAll('[data-testid=move]').length === 1")
        # English second: the page switches at once.
        page.locator("nav.languages button[data-lang=en]").click()
        assert page.get_by_test_id("undo").inner_text() == "Undo move"
        assert "Your move" in page.get_by_test_id("table-status").inner_text()
    finally:
        context.close()
