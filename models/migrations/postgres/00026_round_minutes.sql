-- +goose Up
-- Swiss rounds at scheduled times (issue 26): round_minutes is the time
-- between the scheduled starts of a Swiss event's rounds (round r starts
-- at starts_at + (r - 1) * round_minutes at the latest, earlier when
-- every game of the round before is over); 0: a round starts only when
-- every game of the round before is over.
ALTER TABLE tournaments ADD COLUMN round_minutes integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE tournaments DROP COLUMN round_minutes;
