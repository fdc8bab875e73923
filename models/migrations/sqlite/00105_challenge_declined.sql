-- +goose Up
-- A declined challenge keeps the reason its player gave (issue 35, the Bot
-- API's decline: Lichess's words, "generic" ... "onlyBot"); '' for a
-- challenge that was not declined. The challenger reads it on the lobby
-- page and in its event stream (challengeDeclined).
ALTER TABLE challenges ADD COLUMN declined TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE challenges DROP COLUMN declined;
