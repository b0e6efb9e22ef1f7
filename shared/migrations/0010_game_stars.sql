-- The players' star rating of each game (the game page): one rating per
-- player and game, 1 to 5, changeable.  Only someone with a finished game of that
-- kind may rate; the lobby checks that against games before writing.
CREATE TABLE game_stars (
    user_id    bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    game       text NOT NULL CHECK (game IN ('hexagon', 'bullet', 'general', 'hanse')),
    stars      smallint NOT NULL CHECK (stars BETWEEN 1 AND 5),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, game)
);
CREATE INDEX game_stars_by_game ON game_stars (game);

-- "Gespielt: N ×" counts finished games per kind.
CREATE INDEX games_finished_by_game ON games (game) WHERE status = 'finished';
