-- A game whose deal others still play (the Tagesmarkt: every attempt of a Berlin day has
-- the same deal) shows, until ``sealed_until``, only what its player saw in play: after
-- its end no hidden card in any view, no replay, no record (services/game/rules/sealed.py).
ALTER TABLE games ADD COLUMN sealed_until timestamptz;

-- The attempts made before this column: sealed until the end of their Berlin day.
UPDATE games g SET sealed_until = ((a.day + 1)::timestamp AT TIME ZONE 'Europe/Berlin')
  FROM hanse_daily_attempts a WHERE a.game_id = g.id;
