-- +goose Up
-- The animated GIF of a finished game (issue 36), made on its first
-- request and kept: one row per game, at most 4 MiB
-- (picture.MaxGIFBytes), gone with its game.
CREATE TABLE game_gifs (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    gif        BLOB NOT NULL,
    created_at DATETIME NOT NULL
);

-- +goose Down
DROP TABLE game_gifs;
