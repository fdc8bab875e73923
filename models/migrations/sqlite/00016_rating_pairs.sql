-- +goose Up
-- Rating integrity (issue 19): unrated says why a game asked for as rated
-- is played casual: 'pair' when its two players had already played the
-- day's number of rated games against each other (game.PairGames in
-- game.PairWindow); '' otherwise.
ALTER TABLE games ADD COLUMN unrated text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE games DROP COLUMN unrated;
