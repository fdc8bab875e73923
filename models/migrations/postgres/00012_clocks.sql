-- +goose Up
-- Clocks (issue 12). A game's time control: clock_initial and
-- clock_increment in seconds (real time; 0 and 0 for none), or clock_days
-- per move (correspondence: 1, 3 or 7; 0 for none). south_ms and north_ms
-- are each side's time left, in milliseconds, at turn_since: when the turn
-- of the player to move began (the previous move was stored, or the game
-- started). deadline is when the game ends by itself if the player to move
-- does nothing (their flag falls, or their first move does not come); NULL
-- while no clock runs. The sweeper of every instance takes the games past
-- their deadline, leasing each until sweep_lease so that one instance at a
-- time ends it. rated marks a rated game; south_rating and north_rating
-- are the players' ratings as the game started ('1500', '1500?' while
-- provisional; '' for none).
ALTER TABLE games ADD COLUMN clock_initial integer NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_increment integer NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_days integer NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN south_ms bigint NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN north_ms bigint NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN turn_since timestamptz;
ALTER TABLE games ADD COLUMN deadline timestamptz;
ALTER TABLE games ADD COLUMN sweep_lease timestamptz;
ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN south_rating text NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN north_rating text NOT NULL DEFAULT '';
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;

-- Presence: when each player of a game last had its page open (its event
-- stream or the page's poll), for abandonment claims and the "connected"
-- mark.
CREATE TABLE presence (
    game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    side    text NOT NULL,
    seen_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, side)
);

-- +goose Down
DROP TABLE presence;
DROP INDEX games_deadline;
ALTER TABLE games DROP COLUMN north_rating;
ALTER TABLE games DROP COLUMN south_rating;
ALTER TABLE games DROP COLUMN rated;
ALTER TABLE games DROP COLUMN sweep_lease;
ALTER TABLE games DROP COLUMN deadline;
ALTER TABLE games DROP COLUMN turn_since;
ALTER TABLE games DROP COLUMN north_ms;
ALTER TABLE games DROP COLUMN south_ms;
ALTER TABLE games DROP COLUMN clock_days;
ALTER TABLE games DROP COLUMN clock_increment;
ALTER TABLE games DROP COLUMN clock_initial;
