-- +goose Up
-- Password resets by mail (issue 14): the SHA-256 of each link's token
-- (never the token), its account, when it stops working and when it was
-- spent (NULL while not).
CREATE TABLE password_resets (
    token_hash text PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users (id),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    created_at timestamptz NOT NULL
);
CREATE INDEX password_resets_user ON password_resets (user_id);
-- The accounts of an address, in any case.
CREATE INDEX users_email_lower ON users (lower(email));

-- +goose Down
DROP INDEX users_email_lower;
DROP TABLE password_resets;
