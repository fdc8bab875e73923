package models

import (
	"context"

	"gorm.io/gorm"
)

// SetTurnEmail stores whether account id gets an e-mail at their turn in
// a correspondence game; turning it on gives the account the key of its
// unsubscribe link once. ErrNotFound for no such account.
func (db *DB) SetTurnEmail(ctx context.Context, id uint, on bool) error {
	cols := map[string]any{"turn_email": on}
	if on {
		cols["mail_key"] = gorm.Expr("CASE WHEN mail_key = '' THEN ? ELSE mail_key END", randomKey(24))
	}
	return db.updateUser(ctx, id, cols)
}

// Unsubscribe turns off the turn e-mails of the account whose unsubscribe
// link has key and returns it; ErrNotFound for no such key.
func (db *DB) Unsubscribe(ctx context.Context, key string) (*User, error) {
	if key == "" {
		return nil, ErrNotFound
	}
	var u User
	if err := db.Gorm.WithContext(ctx).Take(&u, "mail_key = ? AND deleted_at IS NULL", key).Error; err != nil {
		return nil, notFound(err)
	}
	if u.TurnEmail {
		if err := db.updateUser(ctx, u.ID, map[string]any{"turn_email": false}); err != nil {
			return nil, err
		}
		u.TurnEmail = false
	}
	return &u, nil
}
