-- +goose Up
-- A game site (issue 24). The games in play between two accounts, for the
-- games-now page and the home page (models.DB.PlayingGames). A move
-- changes none of the indexed columns, so moves stay HOT updates.
CREATE INDEX games_people_playing ON games (created_at)
    WHERE status = 'playing' AND south_user_id IS NOT NULL AND north_user_id IS NOT NULL;

-- +goose Down
DROP INDEX games_people_playing;
