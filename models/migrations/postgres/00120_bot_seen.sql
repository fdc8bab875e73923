-- +goose Up
-- A bot is online while its event stream is connected (issue 35): the
-- stream writes bot_seen_at when it connects and every 30 s while it
-- stays (game.BotSeenEvery), and clears it when it closes; "Play a bot"
-- lists the bots seen within twice that.
ALTER TABLE users ADD COLUMN bot_seen_at timestamptz;
CREATE INDEX users_bot_seen ON users (bot_seen_at) WHERE bot;

-- +goose Down
DROP INDEX users_bot_seen;
ALTER TABLE users DROP COLUMN bot_seen_at;
