-- +goose Up
-- Tournaments score aborted games by who ended them (issue 26):
-- aborted_end is the end an aborted game would have had, its result and
-- reason ('north resignation': South resigned; 'south timeout': North
-- made no first move in time); '' for a game not aborted (and for those
-- aborted before this column).
ALTER TABLE games ADD COLUMN aborted_end text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE games DROP COLUMN aborted_end;
