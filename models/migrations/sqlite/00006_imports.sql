-- +goose Up
-- Records imported on the import page, kept so that their replay is
-- addressed by a short random id instead of carrying the moves in every
-- link. record is the text imported, read by engine.ReadRecord (at most
-- engine.MaxRecordBytes); rows older than models.ImportLifetime are deleted
-- when a new record is kept.
CREATE TABLE imports (
    id         TEXT PRIMARY KEY,
    record     TEXT NOT NULL,
    created_at DATETIME NOT NULL
);
CREATE INDEX imports_created_at ON imports (created_at);

-- +goose Down
DROP TABLE imports;
