package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// MaxAccountTokens is how many API tokens one account may hold at once;
// CreateAccountToken refuses one more with ErrTokenLimit.
const MaxAccountTokens = 20

// ErrTokenLimit refuses a token past MaxAccountTokens (CreateAccountToken).
var ErrTokenLimit = errors.New("models: too many tokens")

// AccountToken is an API token of an account (table account_tokens,
// migration 00085): it acts for the account within its scopes. Only the
// token's hash is kept; the token itself is shown once, when made.
type AccountToken struct {
	// ID is the row id, set by the database; the token's id in the API.
	ID uint `gorm:"primaryKey"`
	// UserID is the account the token acts for.
	UserID uint
	// Name is the owner's label of the token (1 to 40 characters).
	Name string
	// TokenHash is HashToken of the token (NewToken).
	TokenHash string
	// Scopes are the token's scopes, space-separated, e.g. "bot:play".
	Scopes string
	// CreatedAt is when it was made (UTC).
	CreatedAt time.Time
}

// CreateAccountToken stores t (setting ID and CreatedAt) unless its account
// already holds MaxAccountTokens tokens (ErrTokenLimit) or is no existing
// account (ErrNotFound). The count and the insert share one transaction
// under the cap's lock (Capped, "per-account caps" in docs/architecture.md),
// so tokens made at once cannot pass the cap together.
func (db *DB) CreateAccountToken(ctx context.Context, t *AccountToken) error {
	u, err := db.UserByID(ctx, t.UserID)
	if err != nil {
		return err
	}
	if u.Deleted() {
		return ErrNotFound
	}
	c := Cap{Key: fmt.Sprintf("tokens:u%d", t.UserID), Limit: MaxAccountTokens,
		Count: func(tx *gorm.DB) *gorm.DB { return tx.Model(&AccountToken{}).Where("user_id = ?", t.UserID) }}
	err = db.Capped(db.Gorm.WithContext(ctx), c, func(tx *gorm.DB) error {
		t.CreatedAt = tx.NowFunc().UTC()
		return tx.Create(t).Error
	})
	if errors.Is(err, ErrCapped) {
		return ErrTokenLimit
	}
	return err
}

// AccountTokens returns the tokens of account id, oldest first.
func (db *DB) AccountTokens(ctx context.Context, id uint) ([]AccountToken, error) {
	var ts []AccountToken
	err := db.Gorm.WithContext(ctx).Where("user_id = ?", id).Order("id").Find(&ts).Error
	return ts, err
}

// DeleteAccountToken deletes token tokenID of account userID; ErrNotFound
// when the account has no such token.
func (db *DB) DeleteAccountToken(ctx context.Context, userID, tokenID uint) error {
	res := db.Gorm.WithContext(ctx).Where("id = ? AND user_id = ?", tokenID, userID).Delete(&AccountToken{})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// AccountTokenUser returns the token whose hash is tokenHash and its
// account, or ErrNotFound (no such token, or its account was deleted).
func (db *DB) AccountTokenUser(ctx context.Context, tokenHash string) (*AccountToken, *User, error) {
	var t AccountToken
	if err := db.Gorm.WithContext(ctx).Take(&t, "token_hash = ?", tokenHash).Error; err != nil {
		return nil, nil, notFound(err)
	}
	u, err := db.UserByID(ctx, t.UserID)
	if err != nil {
		return nil, nil, err
	}
	if u.Deleted() {
		return nil, nil, ErrNotFound
	}
	return &t, u, nil
}

// UpgradeToBot makes account id a bot, in one statement that checks that
// no game has the account in a seat: ErrConflict when one has (the account
// has played, or is playing or waiting), ErrNotFound when there is no such
// account. An account that is a bot already stays one (no error).
func (db *DB) UpgradeToBot(ctx context.Context, id uint) error {
	g := db.Gorm.WithContext(ctx)
	res := g.Exec(`UPDATE users SET bot = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL AND NOT bot
		AND NOT EXISTS (SELECT 1 FROM games WHERE south_user_id = ? OR north_user_id = ?)`,
		true, g.NowFunc(), id, id, id)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 1 {
		return nil
	}
	u, err := db.UserByID(ctx, id)
	switch {
	case err != nil:
		return err
	case u.Deleted():
		return ErrNotFound
	case u.Bot:
		return nil
	}
	return fmt.Errorf("models: upgrade %d to a bot: it has games: %w", id, ErrConflict)
}

// SetBotProfile stores what bot id says of itself: its engine's name and
// version and the account of the person who runs it (nil for none).
// ErrNotFound when id is no existing bot.
func (db *DB) SetBotProfile(ctx context.Context, id uint, engine string, owner *uint) error {
	res := db.Gorm.WithContext(ctx).Model(&User{}).Where("id = ? AND bot AND deleted_at IS NULL", id).
		Updates(map[string]any{"bot_engine": engine, "bot_owner_id": owner, "updated_at": db.Gorm.NowFunc()})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}
