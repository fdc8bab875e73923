-- +goose Up
-- A clocked move stays on the row's page (issue 37). Every move of a game
-- with a clock changes its deadline, and the sweeper's index on deadline
-- made each such move a non-HOT update on PostgreSQL (a new entry in every
-- index of games). The sweeper now finds the games by sweep_at, a time at
-- or before the deadline that a move changes only when its deadline falls
-- before it (rarely: a move usually puts the deadline later), and that the
-- sweeper raises to the deadline when it passes without the game being due
-- (models.DB.DueGames). NULL while no clock runs, as deadline.
ALTER TABLE games ADD COLUMN sweep_at DATETIME;
UPDATE games SET sweep_at = deadline WHERE deadline IS NOT NULL;
CREATE INDEX games_sweep ON games (sweep_at) WHERE sweep_at IS NOT NULL;
DROP INDEX games_deadline;

-- +goose Down
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
DROP INDEX games_sweep;
ALTER TABLE games DROP COLUMN sweep_at;
