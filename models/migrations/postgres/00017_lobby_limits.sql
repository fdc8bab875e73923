-- +goose Up
-- Lobby limits (issue 19): source is who a challenge counts against in
-- the limit of open challenges and in the lobby's list: 'u<id>' for an
-- account, 'c<address>' for a guest (the client's address, an IPv6
-- address by its /64 network); '' for the challenges made before.
ALTER TABLE challenges ADD COLUMN source text NOT NULL DEFAULT '';
CREATE INDEX challenges_source ON challenges (source, status);

-- +goose Down
DROP INDEX challenges_source;
ALTER TABLE challenges DROP COLUMN source;
