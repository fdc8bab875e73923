-- +goose Up
CREATE TABLE users (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    username       TEXT NOT NULL,
    username_lower TEXT NOT NULL,
    password_hash  TEXT NOT NULL,
    email          TEXT,
    language       TEXT NOT NULL DEFAULT '',
    epoch          INTEGER NOT NULL DEFAULT 1,
    deleted_at     DATETIME,
    created_at     DATETIME NOT NULL,
    updated_at     DATETIME NOT NULL
);
CREATE UNIQUE INDEX users_username_lower ON users (username_lower);

ALTER TABLE games ADD COLUMN south_user_id INTEGER REFERENCES users (id);
ALTER TABLE games ADD COLUMN north_user_id INTEGER REFERENCES users (id);
CREATE INDEX games_south_user ON games (south_user_id, created_at);
CREATE INDEX games_north_user ON games (north_user_id, created_at);

-- +goose Down
DROP INDEX games_north_user;
DROP INDEX games_south_user;
ALTER TABLE games DROP COLUMN north_user_id;
ALTER TABLE games DROP COLUMN south_user_id;
DROP TABLE users;
