-- +goose Up
CREATE TABLE tutorials (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    slug        TEXT NOT NULL,
    locale      TEXT NOT NULL,
    title       TEXT NOT NULL,
    summary     TEXT NOT NULL DEFAULT '',
    ordinal     INTEGER NOT NULL,
    source_hash TEXT NOT NULL,
    created_at  DATETIME NOT NULL,
    updated_at  DATETIME NOT NULL,
    CONSTRAINT tutorials_slug_locale UNIQUE (slug, locale)
);

CREATE TABLE tutorial_steps (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    tutorial_id INTEGER NOT NULL REFERENCES tutorials (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL CHECK (number > 0),
    title       TEXT NOT NULL,
    text        TEXT NOT NULL,
    position    TEXT NOT NULL,
    highlight   TEXT NOT NULL DEFAULT '',
    task        TEXT NOT NULL DEFAULT '',
    accept      TEXT NOT NULL DEFAULT '',
    rules       TEXT NOT NULL DEFAULT 'abapa',
    CONSTRAINT tutorial_steps_number UNIQUE (tutorial_id, number)
);

CREATE TABLE tutorial_progress (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       INTEGER REFERENCES users (id) ON DELETE CASCADE,
    tutorial_slug TEXT NOT NULL,
    step          INTEGER NOT NULL CHECK (step > 0),
    done          BOOLEAN NOT NULL DEFAULT false,
    created_at    DATETIME NOT NULL,
    updated_at    DATETIME NOT NULL,
    CONSTRAINT tutorial_progress_user_slug UNIQUE (user_id, tutorial_slug)
);

-- +goose Down
DROP TABLE tutorial_progress;
DROP TABLE tutorial_steps;
DROP TABLE tutorials;
