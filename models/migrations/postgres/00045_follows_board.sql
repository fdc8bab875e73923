-- +goose Up
-- Following players (issue 24): account follower_id follows followed_id
-- (models.DB.Follow); the list of a follower is read by follower_id, the
-- rows of a deleted account by followed_id.
CREATE TABLE follows (
    follower_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    followed_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (follower_id, followed_id),
    CHECK (follower_id <> followed_id)
);
CREATE INDEX follows_followed ON follows (followed_id);

-- The board and sound settings of an account (views.BoardSettings as
-- handlers encode it, "" for the defaults; the move sound stays in
-- move_sound).
ALTER TABLE users ADD COLUMN board text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE users DROP COLUMN board;
DROP TABLE follows;
