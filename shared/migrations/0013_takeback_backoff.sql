-- ↶ Zurück back-off: a declined takeback request may not be repeated at once.
--
-- Per seat (the one asking): how many of its requests the opponent declined in this
-- game, and when the last decline was.  The next request waits 10 s × n² after it
-- (n capped at 10), as lichess does; an accepted request starts the count over.
ALTER TABLE games
    ADD COLUMN takeback_declines    integer[] NOT NULL DEFAULT '{0,0}',
    ADD COLUMN takeback_declined_at timestamptz[] NOT NULL DEFAULT '{NULL,NULL}';
