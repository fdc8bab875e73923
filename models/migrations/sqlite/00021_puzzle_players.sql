-- +goose Up
-- Puzzle solvers and their rated attempts (issue 23): see the PostgreSQL
-- migration of the same number.
CREATE TABLE puzzle_players (
    player      TEXT PRIMARY KEY,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    streak      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    solved      INTEGER NOT NULL DEFAULT 0,
    failed      INTEGER NOT NULL DEFAULT 0,
    updated_at  DATETIME NOT NULL
);

CREATE TABLE puzzle_attempts (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    player     TEXT NOT NULL,
    puzzle_id  TEXT NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    correct    BOOLEAN NOT NULL,
    rating     REAL NOT NULL,
    created_at DATETIME NOT NULL,
    CONSTRAINT puzzle_attempts_player_puzzle UNIQUE (player, puzzle_id)
);
CREATE INDEX puzzle_attempts_player ON puzzle_attempts (player, created_at);

-- +goose Down
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_players;
