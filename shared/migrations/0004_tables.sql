-- Game tables: what a running table needs beyond the review columns of 0003.
--
-- A table replays from (game, options, seed, moves, move_seats) as 0003 says; the
-- columns here add who plays how (mode, strength), the clock, stakes, and what a
-- restarted game service needs to recompute the clocks: the time spent on every
-- move (move_times), what was left on each clock after the last move (remaining_ms)
-- and when the running turn began (turn_started_at).
ALTER TABLE games
    ADD COLUMN mode            text NOT NULL DEFAULT 'wartesaal'
                               CHECK (mode IN ('wartesaal', 'computer', 'same_device')),
    ADD COLUMN strength        text CHECK (strength IN ('leicht', 'mittel', 'stark')),
    -- NULL base_ms: "ohne Uhr", at most ten minutes per move.
    ADD COLUMN base_ms         integer CHECK (base_ms > 0),
    ADD COLUMN inc_ms          integer CHECK (inc_ms >= 0),
    ADD COLUMN rated           boolean NOT NULL DEFAULT false,
    ADD COLUMN stake           integer NOT NULL DEFAULT 0 CHECK (stake >= 0),
    ADD COLUMN move_times      integer[] NOT NULL DEFAULT '{}',  -- ms each move took (after lag credit)
    ADD COLUMN remaining_ms    bigint[],  -- [seat 0, seat 1] at turn_started_at; NULL without a clock
    ADD COLUMN lag_quota_ms    integer[] NOT NULL DEFAULT '{0,0}',  -- lichess-style lag credit per seat
    ADD COLUMN turn_started_at timestamptz NOT NULL DEFAULT now(),
    -- Moves plus offers: every change a client may have seen bumps it.
    ADD COLUMN version         integer NOT NULL DEFAULT 0,
    ADD COLUMN draw_offer      smallint CHECK (draw_offer IN (0, 1)),
    ADD COLUMN takeback_offer  smallint CHECK (takeback_offer IN (0, 1)),
    ADD CONSTRAINT games_clock_pair CHECK ((base_ms IS NULL) = (inc_ms IS NULL)),
    ADD CONSTRAINT games_move_times CHECK (cardinality(move_times) = cardinality(moves));

-- The live list and the restart scan read only running games.
CREATE INDEX games_running ON games (created_at) WHERE status = 'running';
