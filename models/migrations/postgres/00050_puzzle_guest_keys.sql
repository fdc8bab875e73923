-- +goose Up
-- Puzzle guests are keyed by the hash of their visitor id (issue 23):
-- 'v' and the hex SHA-256 of the session cookie's id (43 characters), as
-- models.GuestPuzzlePlayer writes it, so that the tables hold no session
-- secret. The mapping is one to one: the unique keys hold.
UPDATE puzzle_attempts SET player = 'v' || encode(sha256(convert_to(substr(player, 2), 'UTF8')), 'hex')
    WHERE player LIKE 'v%' AND length(player) = 44;
UPDATE puzzle_players SET player = 'v' || encode(sha256(convert_to(substr(player, 2), 'UTF8')), 'hex')
    WHERE player LIKE 'v%' AND length(player) = 44;
-- The sweeper deletes the guests idle past the visitors' lifetime by
-- their last attempt.
CREATE INDEX puzzle_players_updated ON puzzle_players (updated_at);

-- +goose Down
DROP INDEX puzzle_players_updated;
-- The hash cannot be undone: the guests' rows go.
DELETE FROM puzzle_attempts WHERE player LIKE 'v%';
DELETE FROM puzzle_players WHERE player LIKE 'v%';
