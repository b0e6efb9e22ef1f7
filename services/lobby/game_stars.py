"""How often each game was played and how its players rate it (the game page).

"Gespielt" counts finished games of a kind, every mode (Wartesaal, against the
computer, two on one device): each is a game someone played through.  A player may
rate a game 1–5 stars once they have a finished game of it on one of their seats;
rating again replaces the old rating, so each player counts once in the average.
"""

from __future__ import annotations

from dataclasses import dataclass

from psycopg_pool import ConnectionPool

GAMES = ("hexagon", "bullet", "general", "hanse")
MIN_STARS = 1
MAX_STARS = 5


class StarsRefused(Exception):
    """A rating the rules do not allow; ``code`` names the i18n text."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class GameFigures:
    game: str
    plays: int
    stars_average: float | None  # None: "Noch nicht bewertet"
    stars_count: int
    my_stars: int | None  # the asking player's own rating
    may_rate: bool  # the asking player has played this game


def has_played(pool: ConnectionPool, user_id: int, game: str) -> bool:
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT EXISTS (SELECT 1 FROM games WHERE game = %s AND status = 'finished'"
            " AND (seat0_user_id = %s OR seat1_user_id = %s)) AS played",
            (game, user_id, user_id),
        ).fetchone()
    return bool(row and row["played"])


def figures(pool: ConnectionPool, game: str, user_id: int | None) -> GameFigures:
    """The game page's numbers, as seen by ``user_id`` (None: nobody signed in)."""
    with pool.connection() as conn:
        plays = conn.execute(
            "SELECT count(*) AS plays FROM games WHERE game = %s AND status = 'finished'", (game,)
        ).fetchone()["plays"]
        stars = conn.execute(
            "SELECT avg(stars)::float8 AS average, count(*) AS count FROM game_stars WHERE game = %s", (game,)
        ).fetchone()
        average, count = stars["average"], stars["count"]
        mine = None
        if user_id is not None:
            row = conn.execute(
                "SELECT stars FROM game_stars WHERE game = %s AND user_id = %s", (game, user_id)
            ).fetchone()
            mine = row["stars"] if row else None
    may_rate = user_id is not None and has_played(pool, user_id, game)
    return GameFigures(game, int(plays), None if count == 0 else round(float(average), 2), int(count), mine, may_rate)


def rate(pool: ConnectionPool, user_id: int, game: str, stars: object) -> None:
    """Store ``user_id``'s rating of ``game`` (replacing an earlier one) or raise StarsRefused."""
    if game not in GAMES:
        raise StarsRefused("unknown_game", game=game)
    # bool is an int in Python; True must not pass as one star.
    if not isinstance(stars, int) or isinstance(stars, bool) or not MIN_STARS <= stars <= MAX_STARS:
        raise StarsRefused("stars_out_of_range", low=MIN_STARS, high=MAX_STARS)
    if not has_played(pool, user_id, game):
        raise StarsRefused("stars_not_played")
    with pool.connection() as conn:
        conn.execute(
            "INSERT INTO game_stars (user_id, game, stars) VALUES (%s, %s, %s)"
            " ON CONFLICT (user_id, game) DO UPDATE SET stars = EXCLUDED.stars, updated_at = now()",
            (user_id, game, stars),
        )
