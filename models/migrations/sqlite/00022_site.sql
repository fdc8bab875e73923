-- +goose Up
-- A game site (issue 24). The games in play between two accounts, for the
-- games-now page and the home page (models.DB.PlayingGames). A move
-- changes none of the indexed columns, so moves stay HOT updates.
CREATE INDEX games_people_playing ON games (created_at)
    WHERE status = 'playing' AND south_user_id IS NOT NULL AND north_user_id IS NOT NULL;

-- The sound at the opponent's moves is on by default now: on for every
-- account once (a player turns it off in the settings or on the game
-- page); new accounts get it on (models.DB.CreateUser).
UPDATE users SET move_sound = true;

-- The e-mail at the player's turn in a correspondence game (off by
-- default) and the key of its unsubscribe link.
ALTER TABLE users ADD COLUMN turn_email BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN mail_key TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX users_mail_key ON users (mail_key) WHERE mail_key <> '';

-- +goose Down
DROP INDEX users_mail_key;
ALTER TABLE users DROP COLUMN mail_key;
ALTER TABLE users DROP COLUMN turn_email;
DROP INDEX games_people_playing;
