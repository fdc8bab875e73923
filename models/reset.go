package models

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Errors of ResetPassword besides ErrNotFound (no such token).
var (
	// ErrTokenExpired: the reset link's time ran out.
	ErrTokenExpired = errors.New("reset token expired")
	// ErrTokenUsed: the reset link was spent already (or another one of
	// the account was).
	ErrTokenUsed = errors.New("reset token used")
)

// PasswordReset is a password reset link sent by mail (table
// password_resets). Only the token's hash is kept.
type PasswordReset struct {
	// TokenHash is HashToken of the link's token (NewToken).
	TokenHash string `gorm:"primaryKey"`
	// UserID is the account whose password the link sets.
	UserID uint
	// ExpiresAt is when the link stops working (UTC).
	ExpiresAt time.Time
	// UsedAt is when the link was spent, nil while it was not.
	UsedAt *time.Time
	// CreatedAt is when the link was made (UTC).
	CreatedAt time.Time
}

// UsersByEmail returns the existing accounts whose address equals email
// in any case, at most 5, oldest first.
func (db *DB) UsersByEmail(ctx context.Context, email string) ([]User, error) {
	var us []User
	err := db.Gorm.WithContext(ctx).
		Where("lower(email) = ? AND deleted_at IS NULL", strings.ToLower(email)).
		Order("id").Limit(5).Find(&us).Error
	return us, err
}

// CreatePasswordReset stores the reset link of r.
func (db *DB) CreatePasswordReset(ctx context.Context, r *PasswordReset) error {
	r.CreatedAt = db.Gorm.NowFunc()
	return db.Gorm.WithContext(ctx).Create(r).Error
}

// PasswordResetUser returns the account of the reset link whose token has
// the hash tokenHash, when the link still works at now. Errors: ErrNotFound
// (no such link, or its account was deleted), ErrTokenUsed,
// ErrTokenExpired.
func (db *DB) PasswordResetUser(ctx context.Context, tokenHash string, now time.Time) (*User, error) {
	r, err := usableReset(db.Gorm.WithContext(ctx), tokenHash, now)
	if err != nil {
		return nil, err
	}
	u, err := db.UserByID(ctx, r.UserID)
	if err != nil || u.Deleted() {
		return nil, ErrNotFound
	}
	return u, nil
}

// usableReset returns the link of tokenHash when it works at now.
func usableReset(tx *gorm.DB, tokenHash string, now time.Time) (*PasswordReset, error) {
	var r PasswordReset
	if err := tx.Take(&r, "token_hash = ?", tokenHash).Error; err != nil {
		return nil, notFound(err)
	}
	switch {
	case r.UsedAt != nil:
		return nil, ErrTokenUsed
	case !now.Before(r.ExpiresAt):
		return nil, ErrTokenExpired
	}
	return &r, nil
}

// ResetPassword spends the reset link whose token has the hash tokenHash
// at now: the account gets passwordHash, every session of it ends (its
// Epoch moves on) and every other link of the account is spent too, all
// in one transaction. It returns the account. Errors: those of
// PasswordResetUser; of two requests with one link, one succeeds and the
// other gets ErrTokenUsed.
func (db *DB) ResetPassword(ctx context.Context, tokenHash, passwordHash string, now time.Time) (*User, error) {
	var id uint
	err := db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		r, err := usableReset(tx, tokenHash, now)
		if err != nil {
			return err
		}
		res := tx.Model(&PasswordReset{}).Where("token_hash = ? AND used_at IS NULL", tokenHash).Update("used_at", now)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return ErrTokenUsed // another request spent it meanwhile
		}
		err = tx.Model(&PasswordReset{}).Where("user_id = ? AND used_at IS NULL", r.UserID).Update("used_at", now).Error
		if err != nil {
			return err
		}
		id = r.UserID
		res = tx.Model(&User{}).Where("id = ? AND deleted_at IS NULL", id).
			Updates(map[string]any{"password_hash": passwordHash, "epoch": gorm.Expr("epoch + 1"), "updated_at": now})
		if res.Error == nil && res.RowsAffected == 0 {
			return ErrNotFound
		}
		return res.Error
	})
	if err != nil {
		return nil, fmt.Errorf("models: reset password: %w", err)
	}
	return db.UserByID(ctx, id)
}
