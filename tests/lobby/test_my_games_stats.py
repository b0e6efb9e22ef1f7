"""Meine Partien statistics: per game and per opponent, the filters (game, opponent, result,
rated/friendly/computer), the Elo history points, through the lobby's routes on real PostgreSQL;
plus the profile route (name, Elo per game, record, recent games, here or not)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
import requests
from psycopg.types.json import Jsonb

from services.lobby import player_statistics as stats
from shared import db
from shared.schemas.mechanism import validate_record
from tests.lobby_fixtures import WartesaalClient, guest
from tests.stack import Infra

T0 = dt.datetime(2026, 10, 1, 12, tzinfo=dt.UTC)


@pytest.fixture
def pool(infra: Infra) -> Iterator:
    pool = db.make_pool(infra.database_url, max_size=2)
    yield pool
    pool.close()


def finished(conn, game: str, seats: tuple[int | None, int | None], winner: int | None, minutes: int, *,  # noqa: ANN001
             rated: bool = True, strength: str | None = None, mode: str = "wartesaal") -> int:
    """A finished game, inserted as the table service leaves it."""
    at = T0 + dt.timedelta(minutes=minutes)
    row = conn.execute(
        "INSERT INTO games (game, seed, seat0_user_id, seat1_user_id, mode, strength, rated, status, result,"
        " created_at, finished_at) VALUES (%s, 1, %s, %s, %s, %s, %s, 'finished', %s, %s, %s) RETURNING id",
        (game, seats[0], seats[1], mode, strength, rated,
         Jsonb({"winner": winner, "reason": "test", "de": "Test", "en": "Test", "score": None}),
         at - dt.timedelta(minutes=1), at),
    ).fetchone()
    return int(row["id"])


def rating_result(conn, game_id: int, user_id: int, game: str, before: int, after: int, minutes: int) -> None:  # noqa: ANN001
    conn.execute(
        "INSERT INTO rating_results (game_id, user_id, game, score, points, elo_before, elo_after, finished_at)"
        " VALUES (%s, %s, %s, 1, 10, %s, %s, %s)",
        (game_id, user_id, game, before, after, T0 + dt.timedelta(minutes=minutes)),
    )


class Season:
    """Anna's games: against Bert and Carl, friendly and rated, and one against the computer."""

    def __init__(self, url: str, pool) -> None:  # noqa: ANN001
        self.anna, self.bert, self.carl = guest(url), guest(url), guest(url)
        a, b, c = (s.user["id"] for s in (self.anna, self.bert, self.carl))
        self.a, self.b, self.c = a, b, c
        with pool.connection() as conn:
            self.ids = [
                finished(conn, "hexagon", (a, b), 0, 1),                 # win vs Bert
                finished(conn, "hexagon", (b, a), 0, 2),                 # loss vs Bert
                finished(conn, "hexagon", (a, b), None, 3, rated=False),  # draw vs Bert, friendly
                finished(conn, "bullet", (c, a), 1, 4),                  # win vs Carl
                finished(conn, "hexagon", (a, c), 1, 5),                 # loss vs Carl
                finished(conn, "general", (a, None), 0, 6, rated=False, strength="stark", mode="computer"),
                finished(conn, "hexagon", (a, a), 0, 7, rated=False, mode="same_device"),  # no opponent
            ]
            rating_result(conn, self.ids[0], a, "hexagon", 1500, 1516, 1)
            rating_result(conn, self.ids[1], a, "hexagon", 1516, 1499, 2)
            rating_result(conn, self.ids[4], a, "hexagon", 1499, 1483, 5)
            rating_result(conn, self.ids[3], a, "bullet", 1500, 1515, 4)
            conn.execute("INSERT INTO ratings (user_id, game, elo, games, wins, losses) VALUES"
                         " (%s, 'hexagon', 1483, 3, 1, 2), (%s, 'bullet', 1515, 1, 1, 0)", (a, a))

    def statistics(self, **filters: str) -> dict:
        response = self.anna.get(f"{self.anna.base_url}/api/my-games/statistics", params=filters, timeout=10)
        assert response.status_code == 200, response.text
        return validate_record("MyGamesStatistics", response.json())


@pytest.fixture
def season(lobby, pool) -> Season:  # noqa: F811
    found = Season(lobby.url, pool)
    for session in (found.anna, found.bert, found.carl):
        session.base_url = lobby.url  # type: ignore[attr-defined]
    return found


def by_key(result: dict) -> dict[str, tuple[int, int, int]]:
    return {row["opponent"]["key"]: (row["wins"], row["losses"], row["draws"]) for row in result["per_opponent"]}


def test_statistics_per_game_and_per_opponent(season: Season) -> None:
    every = season.statistics()
    assert every["per_game"] == {"hexagon": {"wins": 1, "losses": 2, "draws": 1},
                                 "bullet": {"wins": 1, "losses": 0, "draws": 0},
                                 "general": {"wins": 1, "losses": 0, "draws": 0}}
    assert by_key(every) == {str(season.b): (1, 1, 1), str(season.c): (1, 1, 0), "computer:stark": (1, 0, 0)}
    assert every["per_opponent"][0]["opponent"]["name"] == season.bert.user["name"]  # most games first
    assert every["game_ids"] == list(reversed(season.ids[:6]))  # newest first; the device game left out
    assert {o["key"] for o in every["opponents"]} == {str(season.b), str(season.c), "computer:stark"}


def test_statistics_filters(season: Season) -> None:
    assert by_key(season.statistics(opponent=str(season.b))) == {str(season.b): (1, 1, 1)}
    assert season.statistics(game="hexagon", opponent=str(season.c))["game_ids"] == [season.ids[4]]
    assert season.statistics(result="win")["game_ids"] == [season.ids[5], season.ids[3], season.ids[0]]
    assert season.statistics(kind="friendly")["game_ids"] == [season.ids[2]]
    assert by_key(season.statistics(kind="rated", game="hexagon")) == {str(season.b): (1, 1, 0),
                                                                       str(season.c): (0, 1, 0)}
    assert season.statistics(kind="computer")["per_game"] == {"general": {"wins": 1, "losses": 0, "draws": 0}}
    # The opponents for the filter stay everyone, whatever the filter.
    assert len(season.statistics(result="draw")["opponents"]) == 3
    bad = season.anna.get(f"{season.anna.base_url}/api/my-games/statistics", params={"result": "gewonnen"},
                          timeout=10)
    assert bad.status_code == 400 and "erlaubt" in bad.json()["error"]["message"]
    # Bert sees his own side of the same games.
    mine = season.bert.get(f"{season.anna.base_url}/api/my-games/statistics", timeout=10).json()
    assert by_key(mine) == {str(season.a): (1, 1, 1)}
    assert requests.get(f"{season.anna.base_url}/api/my-games/statistics", timeout=10).status_code == 401


def test_elo_history_points(season: Season) -> None:
    response = requests.get(f"{season.anna.base_url}/api/players/{season.a}/elo-history", timeout=10)
    history = validate_record("EloHistory", response.json())["history"]
    assert [(p["elo_before"], p["elo"]) for p in history["hexagon"]] == [(1500, 1516), (1516, 1499), (1499, 1483)]
    assert [p["game_id"] for p in history["hexagon"]] == [season.ids[0], season.ids[1], season.ids[4]]
    assert [p["elo"] for p in history["bullet"]] == [1515]
    for points in history.values():
        for point in points:
            validate_record("EloPoint", point)
    assert requests.get(f"{season.anna.base_url}/api/players/999999999/elo-history", timeout=10).status_code == 404


def test_profile_route(season: Season) -> None:
    url = season.anna.base_url
    profile = validate_record("Profile", season.bert.get(f"{url}/api/players/{season.a}", timeout=10).json())
    assert profile["name"] == season.anna.user["name"] and profile["guest"] is True
    assert profile["here"] is False and profile["status"] is None
    lines = {g["game"]: g for g in profile["games"]}
    assert set(lines) == {"hexagon", "bullet", "general", "hanse"}
    assert (lines["hexagon"]["elo"], lines["hexagon"]["rated_games"]) == (1483, 3)
    assert (lines["hexagon"]["wins"], lines["hexagon"]["losses"], lines["hexagon"]["draws"]) == (1, 2, 1)
    assert (lines["hanse"]["elo"], lines["hanse"]["wins"]) == (1500, 0)  # the start value before any game
    assert [g["game_id"] for g in profile["recent"]] == list(reversed(season.ids[:6]))
    assert profile["recent"][0]["opponent"] == {"key": "computer:stark", "user_id": None, "name": None,
                                                "computer": "stark"}
    assert profile["recent"][1]["result"] == "loss" and profile["recent"][1]["opponent"]["user_id"] == season.c
    # In the Wartesaal now: the profile says so (the page then challenges directly).
    socket = WartesaalClient(url, season.anna)
    try:
        socket.wait_players(lambda ps: season.a in {p["user_id"] for p in ps})
        again = requests.get(f"{url}/api/players/{season.a}", timeout=10).json()
        assert again["here"] is True and again["status"] == "frei"
    finally:
        socket.close()
    missing = requests.get(f"{url}/api/players/999999999", headers={"X-Lang": "en"}, timeout=10)
    assert missing.status_code == 404 and missing.json()["error"]["message"] == "No such player."


def test_counting_is_pure_and_from_each_players_side() -> None:
    def game(game_id: int, result: str, opponent: str, kind: str = "rated", name: str = "Bert") -> stats.PlayedGame:
        return stats.PlayedGame(game_id, "bullet", kind, opponent, int(opponent), name, None, result, "")

    games = [game(1, "win", "2"), game(2, "win", "2"), game(3, "draw", "3", name="Carl"),
             game(4, "loss", "3", "friendly", "Carl"), game(5, "loss", "4", name="anton")]
    assert stats.per_game(games) == {"bullet": {"wins": 2, "losses": 2, "draws": 1}}
    rows = stats.per_opponent(games)
    # Most games first, then by name regardless of case.
    assert [(r["opponent"]["name"], r["wins"], r["losses"], r["draws"], r["games"]) for r in rows] == [
        ("Bert", 2, 0, 0, 2), ("Carl", 0, 1, 1, 2), ("anton", 0, 1, 0, 1)]
    assert [g.game_id for g in stats.matching(games, opponent="3", kind="friendly")] == [4]
    assert [o["name"] for o in stats.opponents(games)] == ["anton", "Bert", "Carl"]
