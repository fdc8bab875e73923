-- +goose Up
-- The localized long texts (rules, variant and history pages), loaded from
-- locales/pages/<locale>/<slug>.md at start-up. source_hash is the SHA-256
-- of the source file last loaded into the row, body_hash the hash of the
-- title, summary and body as that load wrote them: when the row's text no
-- longer matches body_hash, an editor changed it in the database and the
-- loader leaves it alone.
CREATE TABLE pages (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    slug        TEXT NOT NULL,
    locale      TEXT NOT NULL,
    title       TEXT NOT NULL,
    summary     TEXT NOT NULL DEFAULT '',
    body        TEXT NOT NULL,
    source_hash TEXT NOT NULL,
    body_hash   TEXT NOT NULL,
    updated_at  DATETIME NOT NULL,
    CONSTRAINT pages_slug_locale UNIQUE (slug, locale)
);

-- +goose Down
DROP TABLE pages;
