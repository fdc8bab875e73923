-- +goose Up
-- A move's write is the same size however long the game (issue 37): the
-- row no longer keeps the labels of every move played, which each move
-- rewrote whole (and PostgreSQL's update of the row logged whole); a read
-- of the game takes them from its moves, which were always the truth.
ALTER TABLE games DROP COLUMN move_labels;

-- +goose Down
-- (empty: a build of before reads the labels as stale and replays the moves)
ALTER TABLE games ADD COLUMN move_labels text NOT NULL DEFAULT '';
