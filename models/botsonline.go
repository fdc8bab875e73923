package models

import (
	"context"
	"time"
)

// SetBotSeen notes that bot id's event stream is connected at at
// (users.bot_seen_at, migration 00120): one UPDATE, nothing for a person.
func (db *DB) SetBotSeen(ctx context.Context, id uint, at time.Time) error {
	return db.Gorm.WithContext(ctx).Exec(`UPDATE users SET bot_seen_at = ? WHERE id = ? AND bot`, at.UTC(), id).Error
}

// ClearBotSeen notes that the event stream of bot id that wrote at last
// closed: bot_seen_at is cleared unless a later stream (of any instance)
// wrote it since.
func (db *DB) ClearBotSeen(ctx context.Context, id uint, at time.Time) error {
	return db.Gorm.WithContext(ctx).Exec(`UPDATE users SET bot_seen_at = NULL WHERE id = ? AND bot_seen_at <= ?`, id, at.UTC()).Error
}

// BotsSeenSince returns the bots not deleted whose event stream said it
// was connected at since or later, by name, at most limit.
func (db *DB) BotsSeenSince(ctx context.Context, since time.Time, limit int) ([]User, error) {
	var us []User
	err := db.Gorm.WithContext(ctx).Where("bot AND deleted_at IS NULL AND bot_seen_at >= ?", since.UTC()).
		Order("username_lower").Limit(limit).Find(&us).Error
	return us, err
}
