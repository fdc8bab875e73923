-- +goose Up
-- The computer opponent (issue 11).
-- south_computer, north_computer: the level (1-8) of the computer seated
-- there, 0 for a person.
-- computer_instant: the computer answers as soon as its search ends,
-- without its minimum thinking time (asked through the API).
-- hints: how many hints the player has had in this game.
-- hint: the last hint, valid while the game keeps the version it was
-- given at: '<version> <label> <reason> <seeds>' ('12 C captures 5'); ''
-- for none.
ALTER TABLE games ADD COLUMN south_computer INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN north_computer INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN computer_instant BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN hint TEXT NOT NULL DEFAULT '';
-- The games in play against the computer, for the replies a server looks
-- for at start.
CREATE INDEX games_computer_playing ON games (updated_at)
    WHERE status = 'playing' AND (south_computer > 0 OR north_computer > 0);

-- +goose Down
DROP INDEX games_computer_playing;
ALTER TABLE games DROP COLUMN hint;
ALTER TABLE games DROP COLUMN hints;
ALTER TABLE games DROP COLUMN computer_instant;
ALTER TABLE games DROP COLUMN north_computer;
ALTER TABLE games DROP COLUMN south_computer;
