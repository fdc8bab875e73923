-- +goose Up
-- Bots (issue 35): an account its owner turned into a bot before it played
-- any game (users.bot, never turned back), the engine it says it runs and
-- the account of the person who runs it, both shown on its profile; and
-- the accounts' API tokens: the SHA-256 of each token (never the token),
-- its name and its scopes, space-separated ("bot:play challenge:write").
ALTER TABLE users ADD COLUMN bot BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN bot_engine TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN bot_owner_id INTEGER REFERENCES users (id);
CREATE TABLE account_tokens (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    name       TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    scopes     TEXT NOT NULL,
    created_at DATETIME NOT NULL
);
CREATE INDEX account_tokens_user ON account_tokens (user_id);

-- +goose Down
DROP TABLE account_tokens;
ALTER TABLE users DROP COLUMN bot_owner_id;
ALTER TABLE users DROP COLUMN bot_engine;
ALTER TABLE users DROP COLUMN bot;
