package accounts

import (
	"context"
	"time"

	"oware/models"
)

// ByEmail returns the existing accounts whose address is email in any
// case, at most 5, oldest first.
func (s *Service) ByEmail(ctx context.Context, email string) ([]User, error) {
	return s.db.UsersByEmail(ctx, email)
}

// NewReset stores a new password reset link of account id that works
// until expires and returns its token (256 random bits; only its hash is
// stored).
func (s *Service) NewReset(ctx context.Context, id uint, expires time.Time) (string, error) {
	token := models.NewToken()
	r := &models.PasswordReset{TokenHash: models.HashToken(token), UserID: id, ExpiresAt: expires}
	if err := s.db.CreatePasswordReset(ctx, r); err != nil {
		return "", err
	}
	return token, nil
}

// ResetUser returns the account of the reset link token when the link
// works at now. Errors: ErrNotFound (no such link, or its account was
// deleted), ErrTokenUsed, ErrTokenExpired.
func (s *Service) ResetUser(ctx context.Context, token string, now time.Time) (*User, error) {
	return s.db.PasswordResetUser(ctx, models.HashToken(token), now)
}

// Reset sets the password pw through the reset link token at now and
// spends the link; every session of the account ends. The errors of
// ResetUser.
func (s *Service) Reset(ctx context.Context, token, pw string, now time.Time) error {
	hash, err := hashPassword(pw)
	if err != nil {
		return err
	}
	_, err = s.db.ResetPassword(ctx, models.HashToken(token), hash, now)
	return err
}
