-- +goose Up
-- Takebacks (issues 11 and 12): the side that asked to take back its last
-- move and the version of the game its request made, '<side> <version>'
-- ('south 12'); '' for none. The request lapses with any later change.
ALTER TABLE games ADD COLUMN takeback_offer text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE games DROP COLUMN takeback_offer;
