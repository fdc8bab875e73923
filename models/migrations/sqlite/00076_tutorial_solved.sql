-- +goose Up
-- A lesson is done when its tasks were answered right (issue 32), not when
-- its last step was seen: solved lists the task steps answered right
-- ("3 5 6"); done, which meant the last step seen, is computed again from it.
ALTER TABLE tutorial_progress ADD COLUMN solved text NOT NULL DEFAULT '';
UPDATE tutorial_progress SET done = false;

-- +goose Down
ALTER TABLE tutorial_progress DROP COLUMN solved;
