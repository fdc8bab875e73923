-- +goose Up
-- Ratings (issue 12): one Glicko-2 rating per player and category (a rule
-- set and a speed, e.g. 'abapa-realtime', 'abapa-correspondence'), on the
-- Glicko-2 scale shown to players (rating 1500, deviation 350, volatility
-- 0.06 at first). games counts the rated games played in the category.
CREATE TABLE ratings (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category   TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at DATETIME NOT NULL,
    PRIMARY KEY (user_id, category)
);
CREATE INDEX ratings_category ON ratings (category, rating);

-- Every rated game's effect on each of its players: the rating after the
-- game. The unique key (game_id, user_id) applies a game's result once,
-- whichever instance ends it.
CREATE TABLE rating_history (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category   TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    created_at DATETIME NOT NULL,
    CONSTRAINT rating_history_game_user UNIQUE (game_id, user_id)
);
CREATE INDEX rating_history_user ON rating_history (user_id, category, created_at);

-- +goose Down
DROP TABLE rating_history;
DROP TABLE ratings;
