-- +goose Up
-- Bot arenas (issue 35): who a tournament admits, "people" (every
-- tournament made before, and the default), "bots" or "both" (when its
-- creator says so). Joining and pairing keep to it (package tournament).
ALTER TABLE tournaments ADD COLUMN admits text NOT NULL DEFAULT 'people';

-- +goose Down
ALTER TABLE tournaments DROP COLUMN admits;
