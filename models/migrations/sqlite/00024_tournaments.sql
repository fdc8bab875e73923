-- +goose Up
-- Tournaments (issue 26): arenas (a fixed duration, players paired again
-- as soon as their game ends) and Swiss events (a fixed number of rounds).
-- kind is 'arena' or 'swiss'; rules, fours and the clock are those of
-- every game (real time only); minutes is an arena's duration, rounds a
-- Swiss event's. status is 'created' (before starts_at), 'running' or
-- 'finished'; round is the Swiss round paired last (0 before the first;
-- its update from r to r + 1 is what lets one pairing of a round through,
-- whichever instance tries). pair_count is bumped by every arena pairing
-- pass (the row lock that serializes them). schedule is the key of an
-- hourly arena made by the server ('hourly/abapa/1+0/2026-12-02T01'),
-- NULL for one made by a player (created_by). password_hash is the hash
-- of the optional password ('' for none).
CREATE TABLE tournaments (
    id              TEXT PRIMARY KEY,
    kind            TEXT NOT NULL,
    name            TEXT NOT NULL,
    rules           TEXT NOT NULL,
    fours           TEXT NOT NULL DEFAULT '',
    clock_initial   INTEGER NOT NULL,
    clock_increment INTEGER NOT NULL,
    minutes         INTEGER NOT NULL DEFAULT 0,
    rounds          INTEGER NOT NULL DEFAULT 0,
    rated           BOOLEAN NOT NULL DEFAULT false,
    password_hash   TEXT NOT NULL DEFAULT '',
    created_by      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    schedule        TEXT UNIQUE,
    status          TEXT NOT NULL DEFAULT 'created',
    round           INTEGER NOT NULL DEFAULT 0,
    pair_count      INTEGER NOT NULL DEFAULT 0,
    starts_at       DATETIME NOT NULL,
    ends_at         DATETIME NOT NULL,
    created_at      DATETIME NOT NULL
);
CREATE INDEX tournaments_status ON tournaments (status, starts_at);

-- The players of a tournament: joined_round is the Swiss round paired
-- when they joined (they are paired from the next one); withdrawn ones
-- are paired no more.
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    joined_round  INTEGER NOT NULL DEFAULT 0,
    withdrawn     BOOLEAN NOT NULL DEFAULT false,
    joined_at     DATETIME NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_players_user ON tournament_players (user_id);

-- The pairings: one a game (game_id, made by package game under that id
-- right after the pairing is stored), or a Swiss bye (game_id and
-- north_id NULL). The tokens are the seats' bearer tokens, given to the
-- player through GET /api/v1/tournaments/{id}/me. Standings are counted
-- again from these rows and their games.
CREATE TABLE tournament_games (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    game_id       TEXT UNIQUE,
    south_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    north_id      INTEGER REFERENCES users (id) ON DELETE CASCADE,
    south_token   TEXT NOT NULL DEFAULT '',
    north_token   TEXT NOT NULL DEFAULT '',
    created_at    DATETIME NOT NULL
);
CREATE INDEX tournament_games_tournament ON tournament_games (tournament_id, id);
CREATE UNIQUE INDEX tournament_games_swiss_south ON tournament_games (tournament_id, round, south_id) WHERE round > 0;
CREATE UNIQUE INDEX tournament_games_swiss_north ON tournament_games (tournament_id, round, north_id) WHERE round > 0;

-- +goose Down
DROP TABLE tournament_games;
DROP TABLE tournament_players;
DROP TABLE tournaments;
