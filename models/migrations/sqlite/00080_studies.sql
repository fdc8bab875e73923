-- +goose Up
-- Studies (issue 32): lessons any account writes (content.Studies). The
-- chapters are one JSON array (models.Study.Chapters), written whole with
-- a version check; search is the lower-case text the list's search looks
-- in (title and chapters' titles and texts). Public studies are listed by
-- language, newest change first; an account's own by owner.
CREATE TABLE studies (
    id          TEXT PRIMARY KEY,
    owner_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title       TEXT NOT NULL,
    lang        TEXT NOT NULL,
    visibility  TEXT NOT NULL CHECK (visibility IN ('public', 'unlisted', 'private')),
    hidden      BOOLEAN NOT NULL DEFAULT 0,
    chapters    TEXT NOT NULL,
    search      TEXT NOT NULL,
    forked_from TEXT,
    version     INTEGER NOT NULL DEFAULT 1,
    created_at  DATETIME NOT NULL,
    updated_at  DATETIME NOT NULL
);
CREATE INDEX studies_listed ON studies (lang, updated_at) WHERE visibility = 'public' AND NOT hidden;
CREATE INDEX studies_owner ON studies (owner_id, updated_at);

-- +goose Down
DROP TABLE studies;
