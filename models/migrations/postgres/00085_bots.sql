-- +goose Up
-- Bots (issue 35): an account its owner turned into a bot before it played
-- any game (users.bot, never turned back), the engine it says it runs and
-- the account of the person who runs it, both shown on its profile; and
-- the accounts' API tokens: the SHA-256 of each token (never the token),
-- its name and its scopes, space-separated ("bot:play challenge:write").
ALTER TABLE users ADD COLUMN bot boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN bot_engine text NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN bot_owner_id bigint REFERENCES users (id);
CREATE TABLE account_tokens (
    id         bigserial PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users (id),
    name       text NOT NULL,
    token_hash text NOT NULL UNIQUE,
    scopes     text NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX account_tokens_user ON account_tokens (user_id);

-- +goose Down
DROP TABLE account_tokens;
ALTER TABLE users DROP COLUMN bot_owner_id;
ALTER TABLE users DROP COLUMN bot_engine;
ALTER TABLE users DROP COLUMN bot;
