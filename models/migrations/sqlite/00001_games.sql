-- +goose Up
CREATE TABLE settings (
    key   TEXT NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE games (
    id             TEXT NOT NULL PRIMARY KEY,
    rules          TEXT NOT NULL,
    start_position TEXT NOT NULL,
    position       TEXT NOT NULL,
    status         TEXT NOT NULL DEFAULT 'waiting',
    result         TEXT NOT NULL DEFAULT '',
    reason         TEXT NOT NULL DEFAULT '',
    version        INTEGER NOT NULL DEFAULT 1,
    south_token    TEXT NOT NULL DEFAULT '',
    north_token    TEXT NOT NULL DEFAULT '',
    spectator_key  TEXT NOT NULL UNIQUE,
    end_offer      TEXT NOT NULL DEFAULT '',
    rematch_offer  TEXT NOT NULL DEFAULT '',
    rematch_id     TEXT NOT NULL DEFAULT '',
    created_at     DATETIME NOT NULL,
    updated_at     DATETIME NOT NULL
);

CREATE TABLE moves (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL CHECK (ply > 0),
    pit        INTEGER NOT NULL,
    label      TEXT NOT NULL,
    position   TEXT NOT NULL,
    created_at DATETIME NOT NULL,
    CONSTRAINT moves_game_ply UNIQUE (game_id, ply)
);

-- +goose Down
DROP TABLE moves;
DROP TABLE games;
DROP TABLE settings;
