-- +goose Up
-- A lesson's stage of the course (rules, tactics, ..., namnam): issue 32.
ALTER TABLE tutorials ADD COLUMN stage text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE tutorials DROP COLUMN stage;
