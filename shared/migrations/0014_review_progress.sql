-- Batch reviews in parts, resumed promptly after a dead worker.
--
-- A review's judged moves ("points", in replay order) are split into parts of a few
-- consecutive points, each part its own ai.review_game task, so several batch workers
-- share one long review and a batch's tail is one part, not one whole game
-- (services/ai_worker/review_task.py).  The bounds are stored, so a part means the same
-- points whoever runs it.
--
-- Progress per part: status queued → running → done; sent_at says whether its task is
-- in the broker; heartbeat_at is set when a worker starts the part and with every move
-- it stores.  A running part whose heartbeat is older than the stale limit belongs to a
-- dead worker (a killed whole worker leaves its message unacknowledged in Redis for the
-- one-hour visibility timeout): the batch command and every batch worker send it again,
-- and the new task continues after the moves already stored in review_moves.
CREATE TABLE review_parts (
    review_id    bigint NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
    part         smallint NOT NULL CHECK (part >= 0),
    first_point  integer NOT NULL CHECK (first_point >= 0),  -- the part judges points [first_point, end_point)
    end_point    integer NOT NULL CHECK (end_point > first_point),
    status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done')),
    attempts     integer NOT NULL DEFAULT 0,  -- task runs of this part that did work
    sent_at      timestamptz,
    heartbeat_at timestamptz,
    PRIMARY KEY (review_id, part)
);
CREATE INDEX review_parts_running ON review_parts (heartbeat_at) WHERE status = 'running';
