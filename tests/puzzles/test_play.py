"""Aufgaben over HTTP against the real lobby and PostgreSQL: moves judged on the server, Glicko-2
after the first attempt, refusals, the two-tab race, the daily puzzle, guests who register."""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Iterator

import psycopg
import pytest
import requests

from services.lobby import hanse_puzzles, puzzle_play, puzzle_ratings
from services.lobby.daily_market import berlin_day
from shared import accounts, db, glicko2
from shared.games import get_game
from shared.puzzles import catalog
from shared.schemas.mechanism import validate_record
from tests.lobby_fixtures import guest, registered
from tests.stack import TEST_SECRET, Infra, ServiceProcess

GAMES = ("hexagon", "bullet", "general")


@pytest.fixture
def pool(infra: Infra) -> Iterator:
    pool = db.make_pool(infra.database_url, max_size=2)
    yield pool
    pool.close()


def url(lobby: ServiceProcess, game: str, rest: str = "") -> str:
    return f"{lobby.url}/api/aufgaben/{game}{rest}"


def attempt_of(session: requests.Session, lobby: ServiceProcess, game: str, rest: str = "") -> dict:
    response = session.get(url(lobby, game, rest), timeout=30)
    assert response.status_code == 200, response.text
    return validate_record("PuzzleAttempt", response.json())


def send(session: requests.Session, lobby: ServiceProcess, attempt: dict, move: str, ply: int | None = None,
         **kwargs: object) -> requests.Response:
    body = {"ply": attempt["ply"] if ply is None else ply, "move": move}
    return session.post(url(lobby, attempt["game"], f"/versuch/{attempt['attempt_id']}"), json=body, timeout=30, **kwargs)


def line_state(puzzle: catalog.Puzzle, moves: list[str]):  # noqa: ANN201
    engine = get_game(puzzle.game)
    state = catalog.state(puzzle)
    for text in moves:
        seat = engine.to_move(state)[0]
        state = engine.apply(state, engine.parse_move(state, text, seat), seat)
    return state


def wrong_move(puzzle: catalog.Puzzle) -> str:
    """A legal first move that is not the solution and does not win at once."""
    engine = get_game(puzzle.game)
    state = catalog.state(puzzle)
    for info in engine.legal_moves(state, puzzle.seat):
        if info.text == puzzle.solution[0]:
            continue
        after = engine.apply(state, engine.parse_move(state, info.text, puzzle.seat), puzzle.seat)
        outcome = engine.outcome(after)
        if outcome is None or outcome.winner != puzzle.seat:
            return info.text
    raise AssertionError(f"{puzzle.id}: every move solves it")


def solve(session: requests.Session, lobby: ServiceProcess, attempt: dict) -> dict:
    """Play the stored line's solver moves from the attempt's ply; each right move is answered by
    the stored reply."""
    puzzle = catalog.get(attempt["puzzle_id"])
    assert puzzle is not None
    line = puzzle.solution
    for ply in range(attempt["ply"], len(line), 2):
        response = send(session, lobby, attempt, line[ply])
        assert response.status_code == 200, response.text
        attempt = validate_record("PuzzleAttempt", response.json())
        if ply + 1 < len(line):
            assert attempt["status"] == "open" and attempt["ply"] == ply + 2
            assert attempt["line"] == line[: ply + 2] and attempt["last_move"] == line[ply + 1]
            assert attempt["solution"] is None and attempt["solution_views"] is None
            engine = get_game(puzzle.game)
            assert attempt["reply_from"] == engine.view(line_state(puzzle, line[: ply + 1]), puzzle.seat)
            assert attempt["view"] == get_game(puzzle.game).view(line_state(puzzle, line[: ply + 2]), puzzle.seat)
    assert attempt["status"] == "solved"
    return attempt


NEW_PLAYER = glicko2.Rating()


def assert_ranks_hidden(view: dict, seat: int) -> None:
    """Battlegeneral: the opponent's pieces not yet revealed carry no rank (there are some)."""
    hidden = [p for p in view["pieces"] if p["owner"] != seat and not p["revealed"]]
    assert hidden and all(p["rank"] is None for p in hidden)
    assert "position" not in view  # never the engine's full state


def puzzle_now(pool, puzzle: catalog.Puzzle) -> glicko2.Rating:  # noqa: ANN001
    """The puzzle's rating as stored (other tests may have rated it), else its initial one."""
    with pool.connection() as conn:
        row = conn.execute("SELECT rating, rd, volatility FROM puzzle_ratings WHERE game = %s AND puzzle_id = %s",
                           (puzzle.game, puzzle.id)).fetchone()
    if row is None:
        return glicko2.Rating(puzzle.rating, glicko2.START_RD, glicko2.START_VOLATILITY)
    return glicko2.Rating(row["rating"], row["rd"], row["volatility"])


def expected_duel(puzzle_before: glicko2.Rating, score: float,
                  player: glicko2.Rating = NEW_PLAYER) -> tuple[glicko2.Rating, glicko2.Rating]:
    return glicko2.duel(player, puzzle_before, score)


def stored_ratings(pool, user_id: int, puzzle: catalog.Puzzle) -> tuple[dict, dict]:  # noqa: ANN001
    with pool.connection() as conn:
        player = conn.execute("SELECT * FROM puzzle_player_ratings WHERE user_id = %s AND game = %s",
                              (user_id, puzzle.game)).fetchone()
        rated = conn.execute("SELECT * FROM puzzle_ratings WHERE game = %s AND puzzle_id = %s",
                             (puzzle.game, puzzle.id)).fetchone()
    return player, rated


@pytest.mark.parametrize("game", GAMES)
def test_solving_rates_player_and_puzzle_as_glicko2_says(game: str, lobby: ServiceProcess, pool) -> None:  # noqa: ANN001
    anna = guest(lobby.url)
    attempt = attempt_of(anna, lobby, game)
    puzzle = catalog.get(attempt["puzzle_id"])
    assert puzzle is not None and puzzle.game == game
    # Before the end: the solver's view only, no solution, no themes, no puzzle rating.
    assert attempt["counted"] and attempt["status"] == "open" and attempt["ply"] == 0
    assert attempt["solution"] is None and attempt["solution_views"] is None and attempt["themes"] == []
    assert attempt["puzzle_rating"] is None and attempt["change"] is None
    assert attempt["view"] == get_game(game).view(catalog.state(puzzle), puzzle.seat)
    assert attempt["task"] == puzzle.task and attempt["seat"] == puzzle.seat
    if game == "general":
        assert_ranks_hidden(attempt["view"], puzzle.seat)
    # Asked again, the open attempt comes back (a reload does not skip a puzzle).
    assert attempt_of(anna, lobby, game)["attempt_id"] == attempt["attempt_id"]

    before = puzzle_now(pool, puzzle)
    done = solve(anna, lobby, attempt)
    player, rated = expected_duel(before, 1.0)
    assert done["change"] == {"player_before": 1500, "player_after": round(player.rating),
                              "puzzle_before": round(before.rating), "puzzle_after": round(rated.rating)}
    assert done["player"]["rating"] == round(player.rating) and done["player"]["attempts"] == 1
    assert done["puzzle_rating"] == round(rated.rating)
    assert done["solution"] == puzzle.solution and len(done["solution_views"]) == len(puzzle.solution) + 1
    assert {t["key"] for t in done["themes"]} == set(puzzle.themes)
    if game == "general":  # the solution, too, shows only what the solver would have seen
        for view in done["solution_views"]:
            assert_ranks_hidden(view, puzzle.seat)
    stored_player, stored_puzzle = stored_ratings(pool, anna.user["id"], puzzle)
    assert stored_player["rating"] == pytest.approx(player.rating) and stored_player["rd"] == pytest.approx(player.rd)
    assert stored_puzzle["rating"] == pytest.approx(rated.rating) and stored_puzzle["rd"] == pytest.approx(rated.rd)
    assert stored_player["solved"] == 1 and stored_puzzle["solved"] >= 1


def test_a_wrong_move_ends_the_attempt_and_then_shows_the_solution(lobby: ServiceProcess, pool) -> None:  # noqa: ANN001
    bert = guest(lobby.url, lang="en")
    first = attempt_of(bert, lobby, "hexagon")
    solved = solve(bert, lobby, first)
    before = glicko2.Rating(*(stored_ratings(pool, bert.user["id"], catalog.get(first["puzzle_id"]))[0][k]
                              for k in ("rating", "rd", "volatility")))
    attempt = attempt_of(bert, lobby, "hexagon")
    assert attempt["puzzle_id"] != first["puzzle_id"] and attempt["player"] == solved["player"]
    puzzle = catalog.get(attempt["puzzle_id"])
    wrong = wrong_move(puzzle)
    puzzle_before = puzzle_now(pool, puzzle)
    response = send(bert, lobby, attempt, wrong)
    assert response.status_code == 200, response.text
    failed = validate_record("PuzzleAttempt", response.json())
    assert failed["status"] == "failed" and failed["wrong_move"] == wrong and failed["line"] == [wrong]
    assert failed["solution"] == puzzle.solution
    engine = get_game("hexagon")
    assert failed["solution_views"] == [engine.view(line_state(puzzle, puzzle.solution[:n]), puzzle.seat)
                                        for n in range(len(puzzle.solution) + 1)]
    # The second counted attempt starts from the first one's rating.
    player, rated = expected_duel(puzzle_before, 0.0, before)
    assert failed["change"]["player_after"] == round(player.rating) < failed["change"]["player_before"]
    assert failed["change"]["puzzle_after"] == round(rated.rating) > failed["change"]["puzzle_before"]
    # Over: another move is refused, nothing moves twice.
    again = send(bert, lobby, attempt, puzzle.solution[0], ply=0)
    assert again.status_code == 409 and again.json()["error"]["code"] == "aufgabe_over"
    assert "already ended" in again.json()["error"]["message"]
    assert stored_ratings(pool, bert.user["id"], puzzle)[0]["attempts"] == 2


def test_refusals_are_clear_and_change_nothing(lobby: ServiceProcess, pool) -> None:  # noqa: ANN001
    carla, dora = guest(lobby.url), guest(lobby.url, lang="en")
    attempt = attempt_of(carla, lobby, "bullet")
    puzzle = catalog.get(attempt["puzzle_id"])

    # A puzzle the player was not given: another player's attempt, or under another game.
    theirs = send(dora, lobby, attempt, puzzle.solution[0])
    assert theirs.status_code == 404 and theirs.json()["error"]["code"] == "aufgabe_not_given"
    assert theirs.json()["error"]["message"] == "This puzzle was not given to you."
    other_game = carla.post(url(lobby, "hexagon", f"/versuch/{attempt['attempt_id']}"),
                            json={"ply": 0, "move": puzzle.solution[0]}, timeout=10)
    assert other_game.status_code == 404 and other_game.json()["error"]["code"] == "aufgabe_not_given"
    assert other_game.json()["error"]["message"] == "Diese Aufgabe wurde dir nicht gestellt."
    missing = carla.post(url(lobby, "bullet", "/versuch/987654321"), json={"ply": 0, "move": "A1-B2"}, timeout=10)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "aufgabe_not_given"
    # A stale ply (a page that has not seen a move) and an illegal move: refused, attempt open.
    stale = send(carla, lobby, attempt, puzzle.solution[0], ply=2)
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "aufgabe_stale"
    assert "anderen Fenster" in stale.json()["error"]["message"]
    illegal = send(carla, lobby, attempt, "Z9-Z8")
    assert illegal.status_code == 400 and illegal.json()["error"]["code"] == "aufgabe_illegal_move"
    nonsense = send(carla, lobby, attempt, "xyz")
    assert nonsense.status_code == 400 and nonsense.json()["error"]["message"]
    # Bodies that do not match AufgabeMoveBody.
    for body in ({"move": puzzle.solution[0]}, {"ply": "0", "move": puzzle.solution[0]}, {"ply": 0, "move": ""},
                 {"ply": 0, "move": puzzle.solution[0], "extra": 1}):
        bad = carla.post(url(lobby, "bullet", f"/versuch/{attempt['attempt_id']}"), json=body, timeout=10)
        assert bad.status_code == 400 and bad.json()["error"]["message"], body
    bad_json = carla.post(url(lobby, "bullet", f"/versuch/{attempt['attempt_id']}"), data="[", timeout=10,
                          headers={"Content-Type": "application/json"})
    assert bad_json.status_code == 400 and bad_json.json()["error"]["code"] == "bad_json"
    # No session; a game without Aufgaben; an unknown theme.
    assert requests.get(url(lobby, "bullet"), timeout=10).status_code == 401
    assert carla.get(url(lobby, "schach"), timeout=10).json()["error"]["code"] == "aufgaben_unknown_game"
    unknown = dora.get(url(lobby, "bullet", "?thema=nichts"), timeout=10)
    assert unknown.status_code == 400 and unknown.json()["error"]["message"] == "There is no such theme here."
    with pool.connection() as conn:
        row = conn.execute("SELECT status, ply FROM puzzle_attempts WHERE id = %s", (attempt["attempt_id"],)).fetchone()
        rated = conn.execute("SELECT count(*) AS n FROM puzzle_player_ratings WHERE user_id IN (%s, %s)",
                             (carla.user["id"], dora.user["id"])).fetchone()
    assert (row["status"], row["ply"]) == ("open", 0) and rated["n"] == 0
    # Still the same attempt, and it can be solved.
    assert solve(carla, lobby, attempt_of(carla, lobby, "bullet"))["attempt_id"] == attempt["attempt_id"]


def test_two_tabs_cannot_both_count(lobby: ServiceProcess, pool) -> None:  # noqa: ANN001
    erik = guest(lobby.url)
    # Two tabs ask at once: one attempt for both.
    given: list[dict] = []
    barrier = threading.Barrier(2)

    def ask() -> None:
        barrier.wait()
        given.append(erik.get(url(lobby, "general", "/daily"), timeout=30).json())

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert given[0]["attempt_id"] == given[1]["attempt_id"] and given[0]["counted"]
    attempt = given[0]
    puzzle = catalog.get(attempt["puzzle_id"])
    # Both tabs send their move for ply 0 at once: one is judged, the other is stale.
    puzzle_before = puzzle_now(pool, puzzle)
    answers: list[requests.Response] = []
    moves = [puzzle.solution[0], wrong_move(puzzle)]
    barrier = threading.Barrier(2)

    def play(move: str) -> None:
        barrier.wait()
        answers.append(send(erik, lobby, attempt, move, ply=0))

    threads = [threading.Thread(target=play, args=(move,)) for move in moves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 409], [r.text for r in answers]
    refused = next(r for r in answers if r.status_code == 409).json()["error"]
    assert refused["code"] in ("aufgabe_stale", "aufgabe_over")
    # Finish whatever the judged move left, then: exactly one rating change.
    judged = next(r for r in answers if r.status_code == 200).json()
    if judged["status"] == "open":
        judged = solve(erik, lobby, judged)
    player, _ = stored_ratings(pool, erik.user["id"], puzzle)
    assert player["attempts"] == 1
    expected, _ = expected_duel(puzzle_before, 1.0 if judged["status"] == "solved" else 0.0)
    assert player["rating"] == pytest.approx(expected.rating)
    # A second counted attempt of the puzzle cannot be written at all: the database refuses it.
    with pytest.raises(psycopg.errors.UniqueViolation), pool.connection() as conn:
        conn.execute("INSERT INTO puzzle_attempts (user_id, game, puzzle_id, mode, day, counted)"
                     " VALUES (%s, 'general', %s, 'daily', %s, true)",
                     (erik.user["id"], puzzle.id, berlin_day(dt.datetime.now(dt.UTC))))
    # The day's puzzle again: practice now, and nothing moves; its solution stays sealed today.
    practice = attempt_of(erik, lobby, "general", "/daily")
    assert practice["puzzle_id"] == puzzle.id and not practice["counted"]
    ended = send(erik, lobby, practice, wrong_move(puzzle)).json()
    assert ended["status"] == "failed" and ended["change"] is None and ended["solution"] is None
    assert stored_ratings(pool, erik.user["id"], puzzle)[0]["attempts"] == 1


def test_the_daily_puzzle_is_the_same_for_two_accounts_and_not_shown_early(lobby: ServiceProcess) -> None:
    today = berlin_day(dt.datetime.now(dt.UTC))
    for game in GAMES:
        todays = puzzle_play.daily_puzzle(game, today, TEST_SECRET)
        # Tomorrow's puzzle is given in no mode today (the other modes keep it back too).
        later = {puzzle_play.daily_puzzle(game, today + dt.timedelta(days=1), TEST_SECRET).id} - {todays.id}
        fiona, gustav = registered(lobby.url), registered(lobby.url)
        texts = []
        for player in (fiona, gustav):
            overview = player.get(url(lobby, game, "/uebersicht"), timeout=10)
            texts.append(overview.text)
            assert validate_record("PuzzlesOverview", overview.json())["daily_status"] is None
            # A day asked for is not a thing: the day is the server's.
            daily = player.get(url(lobby, game, f"/daily?day={today + dt.timedelta(days=1)}"), timeout=30)
            texts.append(daily.text)
            shown = validate_record("PuzzleAttempt", daily.json())
            assert shown["puzzle_id"] == todays.id and shown["day"] == today.isoformat() and shown["counted"]
            assert shown["solution"] is None and shown["solution_views"] is None
            for _ in range(3):  # the other modes never give a coming day's puzzle
                given = attempt_of(player, lobby, game)
                texts.append(json.dumps(given))
                assert given["puzzle_id"] not in later | {todays.id}
                texts.append(send(player, lobby, given, wrong_move(catalog.get(given["puzzle_id"]))).text)
        for text in texts:
            for puzzle_id in later:
                assert puzzle_id not in text
        # The day's first attempt counts for each of them; the state shows on the overview.
        done = send(fiona, lobby, attempt_of(fiona, lobby, game, "/daily"), wrong_move(todays)).json()
        assert done["change"] is not None and done["status"] == "failed"
        assert fiona.get(url(lobby, game, "/uebersicht"), timeout=10).json()["daily_status"] == "failed"


def test_the_daily_solution_stays_on_the_server_while_its_day_lasts(lobby: ServiceProcess, pool) -> None:  # noqa: ANN001
    """A throw-away guest's ended attempt at the day's puzzle shows its result, but neither the
    solution nor the themes (they could be used for an account's counted attempt); the next
    day the same attempt shows them."""
    today = berlin_day(dt.datetime.now(dt.UTC))
    for game in GAMES:
        todays = puzzle_play.daily_puzzle(game, today, TEST_SECRET)
        scout, solver = guest(lobby.url), guest(lobby.url, lang="en")
        failed = validate_record("PuzzleAttempt", send(scout, lobby, attempt_of(scout, lobby, game, "/daily"),
                                                        wrong_move(todays)).json())
        assert failed["status"] == "failed" and failed["change"] is not None and failed["puzzle_rating"] is not None
        assert failed["solution"] is None and failed["solution_views"] is None and failed["themes"] == []
        assert failed["solution_from"] == (today + dt.timedelta(days=1)).isoformat()
        solved = solve(solver, lobby, attempt_of(solver, lobby, game, "/daily"))
        assert solved["solution"] is None and solved["themes"] == [] and solved["solution_from"]
        # Asked again the day is still sealed (practice now), and no answer today names a later move.
        again = send(scout, lobby, attempt_of(scout, lobby, game, "/daily"), wrong_move(todays)).json()
        assert not again["counted"] and again["solution"] is None
        # The next day the attempt shows the solution and its themes.
        tomorrow_noon = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(12), dt.UTC)
        with pool.connection() as conn:
            later = puzzle_play.attempt_payload(conn, failed["attempt_id"], now=tomorrow_noon)
        assert later["solution"] == todays.solution and later["solution_from"] is None
        assert {t["key"] for t in later["themes"]} == set(todays.themes)
        assert len(later["solution_views"]) == len(todays.solution) + 1
    # The other modes keep showing the solution at once.
    other = guest(lobby.url)
    rated = attempt_of(other, lobby, "hexagon")
    ended = send(other, lobby, rated, wrong_move(catalog.get(rated["puzzle_id"]))).json()
    assert ended["solution"] == catalog.get(rated["puzzle_id"]).solution and ended["solution_from"] is None


def _given_of_theme(pool, game: str, theme: str, now: dt.datetime) -> list[str]:  # noqa: ANN001
    """Every puzzle the rated mode gives a new guest with ``theme`` at ``now``, asked until the
    theme has nothing left (each failed at once)."""
    account = accounts.create_guest(pool)
    given = []
    while True:
        try:
            with pool.connection() as conn, conn.transaction():
                attempt = puzzle_play.give(conn, account, game, "rated", theme, now, TEST_SECRET)
        except puzzle_play.PlayError as exc:
            assert exc.code == "aufgaben_all_tried"
            return given
        given.append(attempt["puzzle_id"])
        with pool.connection() as conn, conn.transaction():
            puzzle_play.move(conn, account, game, attempt["attempt_id"], 0, wrong_move(catalog.get(attempt["puzzle_id"])),
                             now)


def test_what_the_other_modes_give_tells_nothing_about_a_days_puzzle(pool) -> None:  # noqa: ANN001
    """A theme's puzzles in the rated mode are the same on the day its puzzle is the day's, the
    day before and a week later: no theme runs dry ("all tried") just because its puzzle is
    today's or tomorrow's, which would name it.  The day's puzzles come from the daily pool,
    which the other modes never give."""
    today = berlin_day(dt.datetime.now(dt.UTC))
    for game in GAMES:
        filters = {t["key"] for t in puzzle_play.filter_themes(game)}
        counts = {key: sum(key in p.themes for p in catalog.load(game)) for key in filters}
        days = [today + dt.timedelta(days=n) for n in range(40)]
        # The day whose puzzle has the rarest theme (one a player can filter by) among these days' puzzles.
        day, theme = min(((d, key) for d in days for key in puzzle_play.daily_puzzle(game, d, TEST_SECRET).themes
                          if key in filters),
                         key=lambda dk: (counts[dk[1]], dk[0]))
        daily = puzzle_play.daily_puzzle(game, day, TEST_SECRET)
        assert puzzle_play.in_daily_pool(daily)
        noon = {d: dt.datetime.combine(d, dt.time(12), dt.UTC) for d in (day - dt.timedelta(days=1), day,
                                                                       day + dt.timedelta(days=7))}
        sets = {d: sorted(_given_of_theme(pool, game, theme, now)) for d, now in noon.items()}
        first = next(iter(sets.values()))
        assert all(given == first for given in sets.values()), (game, theme, sets)
        assert daily.id not in first and not any(puzzle_play.in_daily_pool(catalog.get(i)) for i in first)
        assert set(first) == {p.id for p in puzzle_play.offered(game) if theme in p.themes}


def test_the_daily_choice_is_keyed_with_the_servers_secret() -> None:
    days = [dt.date(2027, 1, 1) + dt.timedelta(days=n) for n in range(30)]
    for game in GAMES:
        ours = [puzzle_play.daily_puzzle(game, day, TEST_SECRET).id for day in days]
        assert ours == [puzzle_play.daily_puzzle(game, day, TEST_SECRET).id for day in days]
        if len(catalog.load(game)) > 1:
            assert ours != [puzzle_play.daily_puzzle(game, day, "another-secret").id for day in days]


def test_no_daily_puzzle_comes_back_before_the_whole_pool_had_its_day() -> None:
    """The day after its day a daily puzzle's solution is shown; so no later day of its cycle may
    bring it again.  Over two whole cycles every day of a cycle has a puzzle of its own, and
    each cycle is the whole pool."""
    for game in GAMES:
        pool = {p.id for p in puzzle_play.daily_pool(game)}
        start = dt.date.fromordinal((dt.date(2027, 1, 1).toordinal() // len(pool) + 1) * len(pool))
        for cycle in range(2):
            first = start + dt.timedelta(days=cycle * len(pool))
            days = [first + dt.timedelta(days=n) for n in range(len(pool))]
            assert {puzzle_play.daily_puzzle(game, day, TEST_SECRET).id for day in days} == pool, (game, cycle)


def test_the_theme_filter_and_a_streak(lobby: ServiceProcess) -> None:
    hanna = guest(lobby.url)
    themes = [t["key"] for t in hanna.get(url(lobby, "hexagon", "/uebersicht"), timeout=10).json()["themes"]]
    assert themes
    theme = themes[0]
    filtered = attempt_of(hanna, lobby, "hexagon", f"?thema={theme}")
    assert theme in catalog.get(filtered["puzzle_id"]).themes
    solve(hanna, lobby, filtered)

    streak = attempt_of(hanna, lobby, "hexagon", "?modus=serie")
    assert streak["mode"] == "streak" and streak["streak"] == {"length": 0, "best": 0}
    one = solve(hanna, lobby, streak)
    assert one["streak"] == {"length": 1, "best": 1}
    second = attempt_of(hanna, lobby, "hexagon", "?modus=serie")
    assert second["puzzle_id"] not in (streak["puzzle_id"], filtered["puzzle_id"])
    over = send(hanna, lobby, second, wrong_move(catalog.get(second["puzzle_id"]))).json()
    assert over["status"] == "failed" and over["streak"] == {"length": 0, "best": 1}
    fresh = attempt_of(hanna, lobby, "hexagon", "?modus=serie")
    assert fresh["streak"] == {"length": 0, "best": 1}


def test_a_guests_progress_carries_over_on_registration(lobby: ServiceProcess, pool) -> None:  # noqa: ANN001
    ida = guest(lobby.url)
    done = solve(ida, lobby, attempt_of(ida, lobby, "bullet"))
    open_one = attempt_of(ida, lobby, "bullet")
    registered_now = ida.post(f"{lobby.url}/api/register", json={"name": f"Ida{ida.user['id']}", "password": "richtig-12345"},
                              timeout=30)
    assert registered_now.status_code == 200 and registered_now.json()["user"]["guest"] is False
    overview = ida.get(url(lobby, "bullet", "/uebersicht"), timeout=10).json()
    assert overview["player"] == done["player"] and overview["player"]["attempts"] == 1
    # The open attempt is still the account's, and its first attempt still counts.
    assert attempt_of(ida, lobby, "bullet")["attempt_id"] == open_one["attempt_id"] and open_one["counted"]


def test_a_handelsaufgabe_first_answer_rates_too(lobby: ServiceProcess, pool) -> None:  # noqa: ANN001
    jan = guest(lobby.url)
    data = next(p for p in hanse_puzzles.all_puzzles() if p["kind"] == "punkte")
    path = f"{lobby.url}/api/handelsaufgaben/{data['id']}"
    # Other tests of this process may have answered the same Handelsaufgabe: the puzzle's rating is read, not assumed.
    with pool.connection() as conn:
        puzzle = puzzle_ratings.puzzle_rating(conn, "hanse", data["id"], hanse_puzzles.initial_rating(data))
    first = validate_record("PuzzleAnswer", jan.post(path, json={"move": data["moves"][-1]["move"]}, timeout=10).json())
    stars = first["stars"]
    player, rated = glicko2.duel(glicko2.Rating(), puzzle, stars / 3)
    assert first["rating_change"] == {"player_before": 1500, "player_after": round(player.rating),
                                      "puzzle_before": round(puzzle.rating), "puzzle_after": round(rated.rating)}
    second = jan.post(path, json={"move": data["moves"][0]["move"]}, timeout=10).json()
    assert second["rating_change"] is None and second["best_stars"] == stars
    listed = validate_record("PuzzleList", jan.get(f"{lobby.url}/api/handelsaufgaben", timeout=10).json())
    assert listed["rating"]["rating"] == round(player.rating) and listed["rating"]["attempts"] == 1


def test_handelsaufgaben_start_from_ratings_of_their_own(lobby: ServiceProcess, pool) -> None:  # noqa: ANN001
    """Not everyone at 1500: Punkte puzzles below the players' start, Bester Zug above, and a
    puzzle where most moves score stars lower than one where few do."""
    puzzles = hanse_puzzles.all_puzzles()
    initial = {p["id"]: hanse_puzzles.initial_rating(p) for p in puzzles}
    punkte = [initial[p["id"]] for p in puzzles if p["kind"] == "punkte"]
    best = [initial[p["id"]] for p in puzzles if p["kind"] == "bester_zug"]
    assert max(punkte) < glicko2.START_RATING < min(best)
    assert len(set(initial.values())) > len(puzzles) // 2
    # The first answer to a puzzle nobody answered rates it from its initial rating.
    untouched = [p for p in puzzles if p["kind"] == "bester_zug"]
    with pool.connection() as conn:
        rated = set(puzzle_ratings.puzzle_ratings(conn, "hanse"))
    data = next((p for p in untouched if p["id"] not in rated), None)
    if data is None:
        pytest.skip("every Bester-Zug Handelsaufgabe was answered in this database")
    kai = guest(lobby.url)
    answer = kai.post(f"{lobby.url}/api/handelsaufgaben/{data['id']}", json={"move": data["moves"][0]["move"]},
                      timeout=10).json()
    assert answer["rating_change"]["puzzle_before"] == round(initial[data["id"]])
    _player, after = glicko2.duel(glicko2.Rating(), glicko2.Rating(initial[data["id"]]), 1.0)
    assert answer["rating_change"]["puzzle_after"] == round(after.rating)


def _set_player_rating(pool, account: accounts.Account, game: str, rating: float) -> None:  # noqa: ANN001
    with pool.connection() as conn:
        conn.execute("INSERT INTO puzzle_player_ratings (user_id, game, rating, rd, volatility) VALUES (%s, %s, %s, 60, 0.06)"
                     " ON CONFLICT (user_id, game) DO UPDATE SET rating = EXCLUDED.rating", (account.id, game, rating))


def _nearest(pool, game: str, target: float, tried: set[str]) -> list[str]:  # noqa: ANN001
    """The ids of the NEAREST untried puzzles the rated mode may give nearest ``target`` (current ratings)."""
    with pool.connection() as conn:
        current = puzzle_ratings.puzzle_ratings(conn, game)
    offered = [p for p in puzzle_play.offered(game) if p.id not in tried]
    distance = {p.id: abs(current.get(p.id, p.rating) - target) for p in offered}
    ordered = sorted(distance, key=lambda i: (distance[i], i))
    # Ties at the edge of the nearest ones: any puzzle as near as the last of them may be drawn.
    edge = distance[ordered[puzzle_play.NEAREST - 1]]
    return [i for i in ordered if distance[i] <= edge]


def test_the_next_puzzle_is_chosen_near_the_players_rating(pool) -> None:  # noqa: ANN001
    now = dt.datetime.now(dt.UTC)
    for game in GAMES:
        ratings = sorted(p.rating for p in puzzle_play.offered(game))
        account = accounts.create_guest(pool)
        tried: set[str] = set()
        given_ratings = []
        for target in (ratings[0], ratings[len(ratings) // 2], ratings[-1], ratings[0], ratings[-1]):
            _set_player_rating(pool, account, game, target)
            with pool.connection() as conn, conn.transaction():
                attempt = puzzle_play.give(conn, account, game, "rated", None, now, TEST_SECRET)
            assert attempt["puzzle_id"] in _nearest(pool, game, target, tried), (game, target)
            tried.add(attempt["puzzle_id"])
            given_ratings.append(catalog.get(attempt["puzzle_id"]).rating)
            with pool.connection() as conn, conn.transaction():
                puzzle_play.move(conn, account, game, attempt["attempt_id"], 0,
                                 wrong_move(catalog.get(attempt["puzzle_id"])), now)
        # Low targets got easier puzzles than high ones (as far as the catalogue spreads).
        assert max(given_ratings[0], given_ratings[3]) <= min(given_ratings[2], given_ratings[4]), given_ratings


def test_a_streak_starts_below_the_rating_and_rises_with_each_solved_puzzle(pool) -> None:  # noqa: ANN001
    now = dt.datetime.now(dt.UTC)
    game = "hexagon"
    ratings = sorted(p.rating for p in puzzle_play.offered(game))
    player = ratings[len(ratings) // 2] + puzzle_play.STREAK_START_BELOW  # the streak starts at the median
    account = accounts.create_guest(pool)
    tried: set[str] = set()
    targets = []
    for length in range(4):
        # The rating is set before each puzzle (a solved one would move it): the ramp alone moves the target.
        _set_player_rating(pool, account, game, player)
        with pool.connection() as conn, conn.transaction():
            attempt = puzzle_play.give(conn, account, game, "streak", None, now, TEST_SECRET)
        assert attempt["streak"]["length"] == length
        target = player - puzzle_play.STREAK_START_BELOW + puzzle_play.STREAK_STEP * length
        targets.append(target)
        assert attempt["puzzle_id"] in _nearest(pool, game, target, tried), (length, target)
        tried.add(attempt["puzzle_id"])
        puzzle = catalog.get(attempt["puzzle_id"])
        moves = puzzle.solution
        with pool.connection() as conn, conn.transaction():
            for ply in range(0, len(moves), 2):
                done = puzzle_play.move(conn, account, game, attempt["attempt_id"], ply, moves[ply], now)
        assert done["status"] == "solved" and done["streak"]["length"] == length + 1
    assert targets == sorted(targets) and targets[-1] - targets[0] == 3 * puzzle_play.STREAK_STEP
    # A mistake ends the streak: the next one starts again from below.
    _set_player_rating(pool, account, game, player)
    with pool.connection() as conn, conn.transaction():
        attempt = puzzle_play.give(conn, account, game, "streak", None, now, TEST_SECRET)
        puzzle_play.move(conn, account, game, attempt["attempt_id"], 0, wrong_move(catalog.get(attempt["puzzle_id"])), now)
    _set_player_rating(pool, account, game, player)  # the failed first attempt moved it
    with pool.connection() as conn, conn.transaction():
        fresh = puzzle_play.give(conn, account, game, "streak", None, now, TEST_SECRET)
    assert fresh["streak"]["length"] == 0
    tried |= {attempt["puzzle_id"]}
    assert fresh["puzzle_id"] in _nearest(pool, game, targets[0], tried)
