-- +goose Up
-- A game row that updates in place (issue 21). A move changes the row's
-- updated_at, which games_computer_playing indexed, so no move could be a
-- HOT update on PostgreSQL (heap-only: no new index entries; the columns
-- of every index count, partial ones too) and every move wrote an entry
-- in every index of games. The games in play against the computer are
-- now found by when they were created, which no write changes. (A move
-- of a game with a clock still changes its deadline, which the sweeper's
-- index games_deadline needs.)
DROP INDEX games_computer_playing;
CREATE INDEX games_computer_started ON games (created_at)
    WHERE status = 'playing' AND (south_computer > 0 OR north_computer > 0);

-- +goose Down
DROP INDEX games_computer_started;
CREATE INDEX games_computer_playing ON games (updated_at)
    WHERE status = 'playing' AND (south_computer > 0 OR north_computer > 0);
