-- Battlehanse against the computer: Zug zurück with a reshuffle, Tipp, Rückblick.
--
-- reshuffles: [[ply, seed], ...], one per Zug zurück at a computer table.  After the
-- take-back the deck and the Ratsmarken piles are mixed with `seed` before move `ply`
-- (shared/games/hanse/reshuffle.py), so a table replays exactly from
-- (game, options, seed, moves, move_seats, reshuffles).  Server-side only: with a seed
-- and the deck's contents a client could tell the order of the deck.
-- hints: how many Tipps the player asked for; a match with one does not count for the
-- record the device keeps.
ALTER TABLE games
    ADD COLUMN reshuffles jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN hints      integer NOT NULL DEFAULT 0 CHECK (hints >= 0);

-- A Rückblick is seen only by the player of its seat, unless that player made it public.
ALTER TABLE reviews
    ADD COLUMN public boolean NOT NULL DEFAULT false;
