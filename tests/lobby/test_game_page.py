"""The game page's numbers over HTTP: how often a game was played and its stars.

Rules: only a player with a finished game of that kind may rate it, 1 to 5
stars, one rating per player (rating again replaces it), shown as average and count.
"""

from __future__ import annotations

import json

import requests

from tests.lobby_fixtures import guest
from tests.stack import ServiceProcess


def add_game(pool, game: str, seat0: int | None, seat1: int | None, finished: bool = True) -> None:  # noqa: ANN001
    result = json.dumps({"winner": 0, "reason": "test", "de": "Test", "en": "Test", "score": None})
    with pool.connection() as conn:
        if finished:
            conn.execute(
                "INSERT INTO games (game, seed, seat0_user_id, seat1_user_id, status, result, finished_at)"
                " VALUES (%s, 1, %s, %s, 'finished', %s::jsonb, now())",
                (game, seat0, seat1, result),
            )
        else:
            conn.execute("INSERT INTO games (game, seed, seat0_user_id, seat1_user_id) VALUES (%s, 1, %s, %s)",
                         (game, seat0, seat1))


def figures(session: requests.Session, base: str, game: str) -> dict:
    response = session.get(f"{base}/api/spiel/{game}", timeout=10)
    assert response.status_code == 200, response.text
    return response.json()["figures"]


def rate(session: requests.Session, base: str, game: str, body: object) -> requests.Response:
    return session.post(f"{base}/api/spiel/{game}/sterne", data=json.dumps(body),
                        headers={"Content-Type": "application/json"}, timeout=10)


def finished_in_db(pool, game: str) -> int:  # noqa: ANN001
    with pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM games WHERE game = %s AND status = 'finished'", (game,)).fetchone()["n"]


def test_plays_count_finished_games_of_the_kind(lobby: ServiceProcess, pool) -> None:  # noqa: F811, ANN001
    anna, bert = guest(lobby.url), guest(lobby.url)
    before = {game: figures(anna, lobby.url, game)["plays"] for game in ("hexagon", "bullet")}
    add_game(pool, "hexagon", anna.user["id"], bert.user["id"])
    add_game(pool, "hexagon", anna.user["id"], None)  # against the computer counts too
    add_game(pool, "hexagon", bert.user["id"], anna.user["id"], finished=False)  # still running: not yet
    add_game(pool, "bullet", bert.user["id"], None)
    after = {game: figures(anna, lobby.url, game)["plays"] for game in ("hexagon", "bullet")}
    # Exact, unless a table of an earlier test in this session happened to finish meanwhile:
    # then the page still shows exactly the finished games in the database.
    if (after["hexagon"] - before["hexagon"], after["bullet"] - before["bullet"]) != (2, 1):
        assert after == {game: finished_in_db(pool, game) for game in after}
        assert after["hexagon"] >= before["hexagon"] + 2 and after["bullet"] >= before["bullet"] + 1
    anonymous = requests.get(f"{lobby.url}/api/spiel/hexagon", timeout=10)
    assert anonymous.status_code == 200
    assert anonymous.json()["figures"]["may_rate"] is False
    unknown = anna.get(f"{lobby.url}/api/spiel/schach", timeout=10)
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_game"


def test_stars_only_from_players_one_each_changeable_averaged(lobby: ServiceProcess, pool) -> None:  # noqa: F811, ANN001
    # Battlegeneral: no other test rates it, so the figures start empty.
    anna, bert, carl = guest(lobby.url), guest(lobby.url), guest(lobby.url, lang="en")
    start = figures(anna, lobby.url, "general")
    assert start["stars_count"] == 0 and start["stars_average"] is None  # "Noch nicht bewertet"
    assert start["may_rate"] is False
    add_game(pool, "general", anna.user["id"], bert.user["id"])
    add_game(pool, "general", carl.user["id"], None, finished=False)  # a running game is not "played"

    assert figures(anna, lobby.url, "general")["may_rate"] is True
    refused = rate(carl, lobby.url, "general", {"stars": 4})
    assert refused.status_code == 403
    assert refused.json()["error"] == {"code": "stars_not_played",
                                       "message": "Only players who have played this game may rate it. Play a game first."}
    for bad in ({"stars": 0}, {"stars": 6}, {"stars": -3}):
        answer = rate(anna, lobby.url, "general", bad)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "stars_out_of_range", bad
        assert "1 bis 5 Sterne" in answer.json()["error"]["message"]
    for bad in ({"stars": "4"}, {"stars": True}, {"stars": 4.5}, {}, {"stars": 4, "extra": 1}, [4]):
        answer = rate(anna, lobby.url, "general", bad)
        assert answer.status_code == 400, bad
    assert requests.post(f"{lobby.url}/api/spiel/general/sterne", json={"stars": 5}, timeout=10).status_code == 401
    assert rate(anna, lobby.url, "schach", {"stars": 5}).status_code == 404
    assert rate(anna, lobby.url, "bullet", {"stars": 5}).status_code == 403  # played general, not bullet
    assert figures(bert, lobby.url, "general")["stars_count"] == 0  # nothing refused was stored

    assert rate(anna, lobby.url, "general", {"stars": 5}).json()["figures"]["my_stars"] == 5
    after_bert = rate(bert, lobby.url, "general", {"stars": 2}).json()["figures"]
    assert (after_bert["stars_average"], after_bert["stars_count"]) == (3.5, 2)
    # Anna changes her mind: still one rating from her.
    changed = rate(anna, lobby.url, "general", {"stars": 3}).json()["figures"]
    assert (changed["stars_average"], changed["stars_count"], changed["my_stars"]) == (2.5, 2, 3)
    seen_by_carl = figures(carl, lobby.url, "general")
    assert (seen_by_carl["stars_average"], seen_by_carl["stars_count"]) == (2.5, 2)
    assert seen_by_carl["my_stars"] is None and seen_by_carl["may_rate"] is False
