-- +goose Up
-- The lobby (issue 12): open challenges that anyone (or one player, by
-- for_user_id) may accept. The settings are those of a game (rules, fours,
-- seat of the creator, time control, rated); min_rating and max_rating
-- bound the rating of who may accept a rated one (0: no bound). owner is
-- who made it ('u<id>' for an account, 's<key>' for a browser, 'a' for the
-- API) and token_hash the hash of the bearer token that holds the
-- creator's seat. game_id is chosen at creation and the game created under
-- it when the challenge is taken. pair_key groups the challenges that a
-- quick-pairing button matches ('' for none). status is 'open', 'taken'
-- or 'cancelled'; an open challenge is gone once expires_at passes (its
-- creator's page stopped asking for it).
CREATE TABLE challenges (
    id              text PRIMARY KEY,
    rules           text NOT NULL,
    fours           text NOT NULL DEFAULT '',
    seat            text NOT NULL DEFAULT 'random',
    clock_initial   integer NOT NULL DEFAULT 0,
    clock_increment integer NOT NULL DEFAULT 0,
    clock_days      integer NOT NULL DEFAULT 0,
    rated           boolean NOT NULL DEFAULT false,
    min_rating      integer NOT NULL DEFAULT 0,
    max_rating      integer NOT NULL DEFAULT 0,
    user_id         bigint REFERENCES users (id) ON DELETE CASCADE,
    for_user_id     bigint REFERENCES users (id) ON DELETE CASCADE,
    owner           text NOT NULL,
    token_hash      text NOT NULL,
    game_id         text NOT NULL,
    pair_key        text NOT NULL DEFAULT '',
    status          text NOT NULL DEFAULT 'open',
    expires_at      timestamptz NOT NULL,
    created_at      timestamptz NOT NULL
);
CREATE INDEX challenges_open ON challenges (status, expires_at);

-- The move sound of a player's games (off by default).
ALTER TABLE users ADD COLUMN move_sound boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE users DROP COLUMN move_sound;
DROP TABLE challenges;
