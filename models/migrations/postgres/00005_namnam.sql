-- +goose Up
-- Nam-nam (issue 7). fours is the table setting ('last' or 'owner'; '' for
-- the Oware rule sets). agreements lists, comma-separated and in order, the
-- number of moves played when the players agreed to end a round or the
-- match ('14,30'): with the moves it rebuilds the match (engine.ReplayGame
-- plus Game.Agree at those plies). south_round_seen and north_round_seen
-- are the last round whose start each player has seen, so that the summary
-- of the round before is no longer shown to them.
ALTER TABLE games ADD COLUMN fours text NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN agreements text NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN south_round_seen integer NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN north_round_seen integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE games DROP COLUMN north_round_seen;
ALTER TABLE games DROP COLUMN south_round_seen;
ALTER TABLE games DROP COLUMN agreements;
ALTER TABLE games DROP COLUMN fours;
