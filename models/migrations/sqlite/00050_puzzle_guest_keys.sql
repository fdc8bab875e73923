-- +goose Up
-- Puzzle guests are keyed by the hash of their visitor id (issue 23): see
-- the PostgreSQL migration of the same number. SQLite has no SHA-256, so
-- the guests' rows of the old form (their raw visitor id, 43 characters)
-- are deleted: those guests start again at the rating of a new player.
DELETE FROM puzzle_attempts WHERE player LIKE 'v%' AND length(player) = 44;
DELETE FROM puzzle_players WHERE player LIKE 'v%' AND length(player) = 44;
CREATE INDEX puzzle_players_updated ON puzzle_players (updated_at);

-- +goose Down
DROP INDEX puzzle_players_updated;
DELETE FROM puzzle_attempts WHERE player LIKE 'v%';
DELETE FROM puzzle_players WHERE player LIKE 'v%';
