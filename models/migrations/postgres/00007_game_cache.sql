-- +goose Up
-- What a move needs, kept in the game's row so that a move reads one row
-- instead of replaying every move (issue 10). The moves (and agreements)
-- stay the truth; these columns are a cache that package game writes with
-- every change and checks against a replay (game.Verify).
-- move_labels: the labels of the moves played, one character each ('CdBa').
-- resume: where the engine's game can be rebuilt from: a position just
-- before a capture or the end of a round, with the round, its starter and
-- its moves, and the steps played since ('<position> 1 S 0 CdB'; '' until
-- written).
-- rounds: the ends of the Nam-nam rounds played (JSON; '' for none).
ALTER TABLE games ADD COLUMN move_labels text NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN resume text NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN rounds text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE games DROP COLUMN rounds;
ALTER TABLE games DROP COLUMN resume;
ALTER TABLE games DROP COLUMN move_labels;
