-- +goose Up
-- Preset chat (issue 24): the messages the players of a game sent, each
-- one of a fixed list of keys (no free text), by seat ('south', 'north').
CREATE TABLE chat_messages (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    side       TEXT NOT NULL,
    message    TEXT NOT NULL,
    created_at DATETIME NOT NULL
);
CREATE INDEX chat_messages_game ON chat_messages (game_id, id);

-- +goose Down
DROP TABLE chat_messages;
