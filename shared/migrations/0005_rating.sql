-- Challenges that started a game, and ratings.

-- The challenge a Wartesaal game came from.  The primary key is the last guard that
-- a challenge starts at most one game, whatever several lobby processes believe.
CREATE TABLE challenge_starts (
    challenge_id text PRIMARY KEY,
    game_id      bigint NOT NULL UNIQUE REFERENCES games(id),
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- One row per player and game kind: Elo, points (ewige Liste) and counts.
CREATE TABLE ratings (
    user_id    bigint NOT NULL REFERENCES users(id),
    game       text NOT NULL,
    elo        integer NOT NULL DEFAULT 1500,
    games      integer NOT NULL DEFAULT 0,  -- counted rated games (the K-factor depends on it)
    wins       integer NOT NULL DEFAULT 0,
    losses     integer NOT NULL DEFAULT 0,
    draws      integer NOT NULL DEFAULT 0,
    points     integer NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, game)
);
CREATE INDEX ratings_by_elo ON ratings (game, elo DESC);
CREATE INDEX ratings_by_points ON ratings (game, points DESC);
CREATE INDEX ratings_updated ON ratings (updated_at);

-- Every finished game the rating service settled, exactly once per game (the
-- primary key; the consumer's processed_events makes it once per event).
CREATE TABLE rated_games (
    game_id     bigint PRIMARY KEY,
    event_id    uuid NOT NULL,
    game        text NOT NULL,
    counted     boolean NOT NULL,  -- rated and from ten half-moves or three minutes
    settled_at  timestamptz NOT NULL DEFAULT now()
);

-- What a counted rated game did to each player: the Monatsliste sums points per month.
CREATE TABLE rating_results (
    game_id     bigint NOT NULL,
    user_id     bigint NOT NULL REFERENCES users(id),
    game        text NOT NULL,
    score       real NOT NULL,  -- 1 win, 0.5 draw, 0 loss
    points      integer NOT NULL,
    elo_before  integer NOT NULL,
    elo_after   integer NOT NULL,
    finished_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_results_month ON rating_results (game, finished_at);
