-- +goose Up
-- The site's heartbeat (issue 19): one row, written every second by the
-- sweeper of every instance: seen_at is the last time an instance served
-- with the database in reach. A heartbeat that finds it older than a few
-- seconds knows the site was away for that gap (the database out of
-- reach, or every instance down) and moves the turn start and deadline of
-- every game in play on by the gap and a short grace, so that nobody is
-- charged the outage or flagged by it.
CREATE TABLE heartbeat (
    id      integer PRIMARY KEY,
    seen_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE heartbeat;
