-- +goose Up
-- Game reviews (issue 23): the computer's analysis of a finished game or of
-- an imported record, computed once in the background and shown to
-- everyone afterwards. subject names what was reviewed: 'g/<game id>' or
-- 'i/<import id>'. status is 'queued', 'running' or 'done'; plies is the
-- JSON array of the plies reviewed so far (package game's ReviewPly),
-- reviewed how many of total. A queued or running row whose updated_at is
-- older than game.ReviewStale (its server stopped) may be claimed again.
CREATE TABLE reviews (
    subject    text PRIMARY KEY,
    status     text NOT NULL,
    plies      text NOT NULL DEFAULT '[]',
    reviewed   integer NOT NULL DEFAULT 0,
    total      integer NOT NULL DEFAULT 0,
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL
);

-- +goose Down
DROP TABLE reviews;
