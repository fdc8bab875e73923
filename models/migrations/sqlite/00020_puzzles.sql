-- +goose Up
-- Puzzles (issue 23): see the PostgreSQL migration of the same number.
CREATE TABLE puzzles (
    id          TEXT PRIMARY KEY,
    number      INTEGER NOT NULL,
    rules       TEXT NOT NULL,
    position    TEXT NOT NULL,
    solution    TEXT NOT NULL,
    themes      TEXT NOT NULL,
    first_moves TEXT NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    plays       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX puzzles_number ON puzzles (number);

-- +goose Down
DROP TABLE puzzles;
