-- Platform tables: the transactional outbox, the consumers' idempotency ledger,
-- and the rating service's record of finished games.  (users belong to 0002.)

-- Events that must never be lost.  A row is written in the same transaction as the
-- state change it announces; the relay copies it to the Redis stream and then sets
-- dispatched_at.  A crash between the two re-publishes the row, which consumers
-- tolerate because they deduplicate by event_id.
CREATE TABLE outbox (
    event_id      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    type          text NOT NULL,
    payload       jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    dispatched_at timestamptz
);
-- The relay only ever scans undispatched rows, oldest first.
CREATE INDEX outbox_undispatched ON outbox (created_at) WHERE dispatched_at IS NULL;

-- One row per (consumer, event) whose effect has been committed.  Inserting here in
-- the same transaction as the effect makes at-least-once delivery apply exactly once.
CREATE TABLE processed_events (
    consumer     text NOT NULL,
    event_id     uuid NOT NULL,
    type         text NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);

-- The rating service's effect of a game_finished event (Elo arrives in a later issue
-- and will read from here).
CREATE TABLE rating_finished_games (
    event_id    uuid PRIMARY KEY,
    game_id     text NOT NULL,
    game        text NOT NULL,
    payload     jsonb NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now()
);
