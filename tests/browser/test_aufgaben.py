"""Aufgaben in real Chromium: one puzzle solved per game on the table's own board (each right move
answered by the stored reply), one failed (the solution then steps through by itself), the
ratings shown as Glicko-2 moved them; reached from the Wartesaal and from the game page."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from services.lobby import puzzle_play
from services.lobby.daily_market import berlin_day
from shared import glicko2
from shared.games import get_game
from shared.puzzles import catalog
from tests.browser.test_general import play as play_general_move
from tests.browser.test_players import german_words
from tests.browser.test_table import play_hexagon_move
from tests.browser_fixtures import guest_page
from tests.puzzles.test_play import line_state, puzzle_now, wrong_move
from tests.stack import TEST_SECRET, ServiceProcess

pytestmark = pytest.mark.browser


def play_bullet_move(page, effect: dict, text: str) -> None:  # noqa: ANN001
    """Click the marbles of the move, then its arrow, as a player does."""
    for marble in effect["marbles"]:
        page.locator(f"[data-marble={marble}]").click()
    page.locator(f"g.move-arrow[data-move='{text}']").click()


def play_move(page, game: str, puzzle: catalog.Puzzle, ply: int, text: str) -> None:  # noqa: ANN001
    """Play ``text`` at ``ply`` on the board once it takes a move (a right move's reply is shown first)."""
    page.locator("[data-testid=aufgabe-board][data-interactive=true]").wait_for()
    if game == "hexagon":
        play_hexagon_move(page, text)
    elif game == "bullet":
        state = line_state(puzzle, puzzle.solution[:ply])
        effect = next(m.effect for m in get_game(game).legal_moves(state, puzzle.seat) if m.text == text)
        play_bullet_move(page, effect, text)
    else:
        play_general_move(page, text)


def shown_puzzle(page, other_than: str = "") -> catalog.Puzzle:  # noqa: ANN001
    """The puzzle the page shows (its root names it), once it is not ``other_than``."""
    root = page.get_by_test_id("aufgaben-page")
    page.wait_for_function(f"(document.querySelector('[data-testid=aufgaben-page]')?.dataset.puzzle ?? '') !== '' && "
                           f"document.querySelector('[data-testid=aufgaben-page]').dataset.puzzle !== '{other_than}'")
    puzzle = catalog.get(root.get_attribute("data-puzzle"))
    assert puzzle is not None
    return puzzle


def open_from_wartesaal(page, game: str) -> None:  # noqa: ANN001
    page.goto(page.url.split("#")[0] + "#/")
    page.get_by_test_id(f"aufgaben-link-{game}").click()
    page.get_by_test_id("aufgabe-task").wait_for()


def solve_on_board(page, game: str, pool, player: glicko2.Rating) -> tuple[glicko2.Rating, str]:  # noqa: ANN001
    """Play the page's puzzle's line on the board; the ratings shown are Glicko-2's.  Returns the
    player's rating afterwards and the puzzle's id."""
    from playwright.sync_api import expect

    puzzle = shown_puzzle(page)
    expect(page.get_by_test_id("aufgaben-page")).to_have_attribute("data-ply", "0")
    expect(page.get_by_test_id("aufgabe-task")).to_contain_text(puzzle.task["de"])
    sides = {"hexagon": ("Rubin", "Perle"), "bullet": ("Weiß", "Schwarz"), "general": ("Rot", "Blau")}[game]
    expect(page.get_by_test_id("aufgabe-side")).to_contain_text(sides[puzzle.seat])
    before = puzzle_now(pool, puzzle)
    line = puzzle.solution
    for ply in range(0, len(line), 2):
        play_move(page, game, puzzle, ply, line[ply])
        if ply + 1 < len(line):
            expect(page.get_by_test_id("aufgabe-status")).to_contain_text(f"Richtig! Der Gegner antwortet: {line[ply + 1]}")
            expect(page.get_by_test_id("aufgaben-page")).to_have_attribute("data-ply", str(ply + 2))
    expect(page.get_by_test_id("aufgabe-status")).to_have_attribute("data-status", "solved")
    after, rated = glicko2.duel(player, before, 1.0)
    expect(page.get_by_test_id("aufgabe-rating-change")).to_have_attribute("data-after", str(round(after.rating)))
    expect(page.get_by_test_id("aufgabe-puzzle-rating")).to_have_attribute("data-after", str(round(rated.rating)))
    expect(page.get_by_test_id("aufgabe-player-rating")).to_have_attribute("data-rating", str(round(after.rating)))
    return after, puzzle.id


@pytest.mark.parametrize("game", ["hexagon", "bullet", "general"])
def test_solve_a_puzzle_on_the_board(game: str, browser, lobby: ServiceProcess, shots: Path, pool) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    context, page, user = guest_page(browser, lobby.url, viewport={"width": 1280, "height": 900})
    try:
        if game == "bullet":  # from the game page's link
            page.goto(f"{lobby.url}/#/spiel/{game}")
            page.get_by_test_id("aufgaben-link").click()
            page.get_by_test_id("aufgabe-task").wait_for()
        else:
            open_from_wartesaal(page, game)
        expect(page).to_have_url(f"{lobby.url}/#/aufgaben/{game}")
        expect(page.get_by_test_id("aufgabe-player-rating")).to_have_attribute("data-rating", "1500")
        page.screenshot(path=str(shots / f"aufgabe-{game}-start.png"))
        player, solved_id = solve_on_board(page, game, pool, glicko2.Rating())
        page.screenshot(path=str(shots / f"aufgabe-{game}-solved.png"))
        if game == "general":  # the day's puzzle: the server's choice for today
            page.get_by_test_id("aufgabe-mode-daily").click()
            today = berlin_day(dt.datetime.now(dt.UTC))
            assert shown_puzzle(page, other_than=solved_id).id == puzzle_play.daily_puzzle(game, today, TEST_SECRET).id
            expect(page.get_by_test_id("aufgabe-mode-daily")).to_have_attribute("aria-pressed", "true")
            expect(page.get_by_test_id("aufgabe-theme")).to_be_disabled()
            # A wrong move ends it: the result shows, the solution not before tomorrow.
            daily = puzzle_play.daily_puzzle(game, today, TEST_SECRET)
            play_move(page, game, daily, 0, wrong_move(daily))
            expect(page.get_by_test_id("aufgabe-status")).to_have_attribute("data-status", "failed")
            expect(page.get_by_test_id("aufgabe-rating-change")).to_be_visible()
            expect(page.get_by_test_id("aufgabe-solution-tomorrow")).to_contain_text("zeigt sich morgen")
            expect(page.get_by_test_id("aufgabe-solution")).to_have_count(0)
            expect(page.get_by_test_id("aufgabe-status")).not_to_contain_text("Lösung")
            page.locator("nav.languages button[data-lang=en]").click()
            expect(page.get_by_test_id("aufgabe-solution-tomorrow")).to_contain_text("shows tomorrow")
            page.screenshot(path=str(shots / "aufgabe-general-daily-failed-en.png"))
            assert not german_words(page, [user["name"]])
        if game == "bullet":  # a streak begins at 0 and counts a solved puzzle
            page.get_by_test_id("aufgabe-mode-streak").click()
            shown_puzzle(page, other_than=solved_id)
            expect(page.get_by_test_id("aufgabe-streak")).to_have_attribute("data-length", "0")
            solve_on_board(page, game, pool, player)
            expect(page.get_by_test_id("aufgabe-streak")).to_have_attribute("data-length", "1")
        if game != "hexagon":
            return

        # A theme from the filter: a line of several moves, each right move answered by the reply.
        page.get_by_test_id("aufgabe-theme").select_option("mehrzuegig")
        assert "mehrzuegig" in shown_puzzle(page, other_than=solved_id).themes
        player, theme_id = solve_on_board(page, game, pool, player)

        # The next one, failed: the solution plays by itself, step by step, and can be stepped back.
        page.get_by_test_id("aufgabe-next").click()
        failing = shown_puzzle(page, other_than=theme_id)
        wrong = wrong_move(failing)
        expect(page.get_by_test_id("aufgabe-task")).to_contain_text(failing.task["de"])
        before = puzzle_now(pool, failing)
        play_move(page, game, failing, 0, wrong)
        expect(page.get_by_test_id("aufgabe-status")).to_have_attribute("data-status", "failed")
        expect(page.get_by_test_id("aufgabe-solution-move")).to_have_count(len(failing.solution))
        steps = len(failing.solution)
        expect(page.get_by_test_id("aufgabe-step")).to_have_attribute("data-step", str(steps), timeout=15_000)
        page.get_by_test_id("aufgabe-step-back").click()
        expect(page.get_by_test_id("aufgabe-step")).to_have_attribute("data-step", str(steps - 1))
        after, rated = glicko2.duel(player, before, 0.0)
        expect(page.get_by_test_id("aufgabe-rating-change")).to_have_attribute("data-after", str(round(after.rating)))
        expect(page.get_by_test_id("aufgabe-puzzle-rating")).to_have_attribute("data-after", str(round(rated.rating)))
        page.screenshot(path=str(shots / "aufgabe-hexagon-failed.png"))
        # English throughout.
        page.locator("nav.languages button[data-lang=en]").click()
        expect(page.get_by_test_id("aufgabe-status")).to_contain_text("Wrong. The solution:")
        expect(page.get_by_test_id("aufgabe-mode-daily")).to_have_text("Daily puzzle")
        expect(page.get_by_test_id("aufgabe-task")).to_contain_text(failing.task["en"])
        assert not german_words(page, [user["name"]])
        page.screenshot(path=str(shots / "aufgabe-hexagon-failed-en.png"))
    finally:
        context.close()


def _outside(page, testids: list[str]) -> list[str]:  # noqa: ANN001
    """The elements (by test id) not wholly inside the window as it stands (no scrolling)."""
    return page.evaluate("""ids => ids.filter(id => {
        const box = document.querySelector(`[data-testid=${id}]`)?.getBoundingClientRect();
        return !box || box.top < 0 || box.left < 0 || box.bottom > window.innerHeight + 0.5
            || box.right > window.innerWidth + 0.5 || box.height === 0; })""", testids)


AFTER_FAILURE = ["aufgabe-task", "aufgabe-status", "aufgabe-board", "aufgabe-rating-change", "aufgabe-puzzle-rating",
                 "aufgabe-themes", "aufgabe-solution", "aufgabe-step-start", "aufgabe-step-back",
                 "aufgabe-step-forward", "aufgabe-step-play", "aufgabe-next", "aufgabe-mode-rated", "aufgabe-theme"]


@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)], ids=["1400x900", "1280x720"])
def test_the_page_fits_the_window_after_a_failure(size: tuple[int, int], browser, lobby: ServiceProcess,  # noqa: ANN001
                                                  shots: Path, pool) -> None:  # noqa: ANN001
    """After a wrong move everything the player needs is on screen without scrolling: the whole
    board, the rating change, themes, the solution (the opponent's replies marked), the step
    buttons and "Nächste Aufgabe"; in German and in English, for each game."""
    from playwright.sync_api import expect

    width, height = size
    context, page, user = guest_page(browser, lobby.url, viewport={"width": width, "height": height})
    try:
        for game in ("hexagon", "bullet", "general"):
            page.goto(f"{lobby.url}/#/aufgaben/{game}")
            page.get_by_test_id("aufgabe-task").wait_for()
            puzzle = shown_puzzle(page)
            page.screenshot(path=str(shots / f"aufgabe-{game}-start-{width}x{height}.png"))
            assert _outside(page, ["aufgabe-task", "aufgabe-board", "aufgabe-status"]) == [], (game, size)
            # Then a puzzle of several moves where there is one, so that the solution holds a reply.
            themes = page.eval_on_selector_all("[data-testid=aufgabe-theme] option", "o => o.map(x => x.value)")
            if "mehrzuegig" in themes and len(puzzle.solution) == 1:
                page.get_by_test_id("aufgabe-theme").select_option("mehrzuegig")
                play_move(page, game, puzzle, 0, wrong_move(puzzle))
                expect(page.get_by_test_id("aufgabe-status")).to_have_attribute("data-status", "failed")
                page.get_by_test_id("aufgabe-next").click()
                puzzle = shown_puzzle(page, other_than=puzzle.id)
                assert len(puzzle.solution) > 1
            play_move(page, game, puzzle, 0, wrong_move(puzzle))
            expect(page.get_by_test_id("aufgabe-status")).to_have_attribute("data-status", "failed")
            expect(page.get_by_test_id("aufgabe-step")).to_have_attribute("data-step", str(len(puzzle.solution)),
                                                                        timeout=15_000)
            replies = page.locator("[data-testid=aufgabe-solution-move][data-reply=true]")
            expect(replies).to_have_count(len(puzzle.solution) // 2)
            for index in range(1, len(puzzle.solution), 2):
                expect(page.get_by_test_id("aufgabe-solution-move").nth(index)).to_contain_text(
                    ("Rubin", "Perle", "Weiß", "Schwarz", "Rot", "Blau")[2 * ("hexagon", "bullet", "general").index(game)
                                                                       + 1 - puzzle.seat])
            for lang in ("de", "en"):
                page.locator(f"nav.languages button[data-lang={lang}]").click()
                expect(page.get_by_test_id("aufgabe-next")).to_have_text("Nächste Aufgabe" if lang == "de" else "Next puzzle")
                page.screenshot(path=str(shots / f"aufgabe-{game}-failed-{width}x{height}-{lang}.png"))
                assert _outside(page, AFTER_FAILURE) == [], (game, size, lang)
                assert page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight + 1"), (game, size, lang)
            assert not german_words(page, [user["name"]])
            page.locator("nav.languages button[data-lang=de]").click()
    finally:
        context.close()
