package models

import (
	"context"
	"errors"
	"time"
)

// ChatMessage is a preset message a player sent in a game (table
// chat_messages, migration 00023).
type ChatMessage struct {
	ID     uint `gorm:"primaryKey"`
	GameID string
	// Side is the sender's seat, "south" or "north"; Message the key of
	// the preset message ("hello", "good_luck", ...).
	Side, Message string
	CreatedAt     time.Time
}

// ErrChatLimit refuses a message past a seat's limits (AddChat).
var ErrChatLimit = errors.New("models: too many chat messages")

// AddChat stores m unless its seat sent a message less than gap ago or
// already max messages in the game (ErrChatLimit). Two messages sent at
// the same instant may both pass the gap: the cap still bounds them.
func (db *DB) AddChat(ctx context.Context, m *ChatMessage, gap time.Duration, max int) error {
	var last []ChatMessage
	err := db.Gorm.WithContext(ctx).Where("game_id = ? AND side = ?", m.GameID, m.Side).
		Order("id DESC").Limit(max).Find(&last).Error
	if err != nil {
		return err
	}
	now := db.Gorm.NowFunc().UTC()
	if len(last) >= max || (len(last) > 0 && now.Sub(last[0].CreatedAt) < gap) {
		return ErrChatLimit
	}
	m.CreatedAt = now
	return db.Gorm.WithContext(ctx).Create(m).Error
}

// Chat returns the last limit messages of game id, oldest first.
func (db *DB) Chat(ctx context.Context, id string, limit int) ([]ChatMessage, error) {
	var msgs []ChatMessage
	err := db.Gorm.WithContext(ctx).Where("game_id = ?", id).Order("id DESC").Limit(limit).Find(&msgs).Error
	for i, j := 0, len(msgs)-1; i < j; i, j = i+1, j-1 {
		msgs[i], msgs[j] = msgs[j], msgs[i]
	}
	return msgs, err
}
