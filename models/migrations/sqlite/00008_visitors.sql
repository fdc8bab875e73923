-- +goose Up
-- Guest seats, kept on the server (issue 14): a browser without an account
-- is named by a random visitor id in its session cookie, and the seats it
-- holds are rows here, so that two requests of one browser at once cannot
-- lose a seat by writing the cookie over each other. id is the SHA-256
-- (hex) of the cookie's visitor id; token_hash is the hash of the seat's
-- bearer token as games.south_token / north_token keep it. game_id has no
-- foreign key: the seat of a lobby challenge is kept before its game
-- exists. seen_at moves on when the visitor keeps a seat; a visitor is
-- deleted (with its seats) once neither it nor any of its games changed
-- for models.VisitorLifetime.
CREATE TABLE visitors (
    id         TEXT NOT NULL PRIMARY KEY,
    created_at DATETIME NOT NULL,
    seen_at    DATETIME NOT NULL
);
CREATE INDEX visitors_seen_at ON visitors (seen_at);

CREATE TABLE visitor_seats (
    visitor_id TEXT NOT NULL REFERENCES visitors (id) ON DELETE CASCADE,
    game_id    TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    created_at DATETIME NOT NULL,
    PRIMARY KEY (visitor_id, game_id)
);

-- +goose Down
DROP TABLE visitor_seats;
DROP TABLE visitors;
