// Package accounts is the service of the players' accounts: registration,
// login and the session epoch, the settings of an account, password resets,
// a player's history, results and ratings pages' data and their tutorial
// progress. Handlers call it and never the storage (package models) for
// any of these; the seats a browser holds in games are game's (game/seats.go).
//
// Errors: ErrNotFound and ErrTaken as documented per method; a storage
// failure is returned as it is (wrapped), so that the site answers it with
// 503 when the database is out of reach (models.Unavailable).
package accounts

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/alexedwards/argon2id"

	"oware/models"
)

// User is a registered player (models.User): handlers read its fields
// through this name.
type User = models.User

// The errors of the service.
var (
	// ErrNotFound: no such account (or reset link, or unsubscribe key).
	ErrNotFound = models.ErrNotFound
	// ErrTaken: the username is taken (in any case).
	ErrTaken = models.ErrConflict
	// ErrTokenExpired: the reset link's time ran out.
	ErrTokenExpired = models.ErrTokenExpired
	// ErrTokenUsed: the reset link was spent already.
	ErrTokenUsed = models.ErrTokenUsed
)

// Service keeps the accounts of db. It is safe for concurrent use.
type Service struct {
	db *models.DB
}

// New returns the accounts service of db.
func New(db *models.DB) *Service { return &Service{db: db} }

// argonParams are the argon2id settings of new password hashes (OWASP's
// minimum: 19 MiB, 2 passes, 1 lane).
var argonParams = &argon2id.Params{Memory: 19 * 1024, Iterations: 2, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// dummyHash is compared against when a login names no account, so that the
// answer takes as long as for a wrong password.
var dummyHash = sync.OnceValue(func() string {
	h, _ := argon2id.CreateHash("not a password of anyone", argonParams)
	return h
})

// hashSlots bounds the password hashes computed at once (19 MiB each).
var hashSlots = make(chan struct{}, 4)

// hashPassword hashes a new password.
func hashPassword(pw string) (string, error) {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	return argon2id.CreateHash(pw, argonParams)
}

// passwordMatches compares a password with a stored hash.
func passwordMatches(pw, hash string) bool {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	ok, err := argon2id.ComparePasswordAndHash(pw, hash)
	return err == nil && ok
}

// Register creates the account name (already checked by the caller) with
// the password pw, the preferred language lang and the address email (""
// for none), at epoch 1. A name taken in any case is ErrTaken.
func (s *Service) Register(ctx context.Context, name, lang, email, pw string) (*User, error) {
	u := &User{Username: name, Language: lang}
	if email != "" {
		u.Email = &email
	}
	hash, err := hashPassword(pw)
	if err != nil {
		return nil, err
	}
	u.PasswordHash = hash
	if err := s.db.CreateUser(ctx, u); err != nil {
		return nil, err
	}
	return u, nil
}

// LogIn returns the existing account name (in any case) when pw is its
// password; nil when the name or the password is wrong (both take as
// long). An error is a storage failure.
func (s *Service) LogIn(ctx context.Context, name, pw string) (*User, error) {
	u, err := s.db.UserByName(ctx, name)
	if err != nil && !errors.Is(err, models.ErrNotFound) {
		return nil, err
	}
	hash := dummyHash()
	if u != nil {
		hash = u.PasswordHash
	}
	if !passwordMatches(pw, hash) || u == nil {
		return nil, nil
	}
	return u, nil
}

// Confirm reports whether pw is u's current password.
func (s *Service) Confirm(u *User, pw string) bool { return passwordMatches(pw, u.PasswordHash) }

// Session returns the account a session names (its id and the epoch the
// session was made in): nil when the account was deleted or its epoch
// moved on since (logout, password change). An error is a storage failure,
// never a logout.
func (s *Service) Session(ctx context.Context, id uint, epoch int) (*User, error) {
	u, err := s.db.UserByID(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("accounts: session of %d: %w", id, err)
	}
	if u.Deleted() || u.Epoch != epoch {
		return nil, nil
	}
	return u, nil
}

// ByName returns the existing account whose name is name in any case, or
// ErrNotFound.
func (s *Service) ByName(ctx context.Context, name string) (*User, error) {
	return s.db.UserByName(ctx, name)
}

// ByID returns the account id (deleted or not), or ErrNotFound.
func (s *Service) ByID(ctx context.Context, id uint) (*User, error) { return s.db.UserByID(ctx, id) }

// ByIDs returns the accounts of ids (deleted or not) by id; an id without
// an account is missing from the map.
func (s *Service) ByIDs(ctx context.Context, ids []uint) (map[uint]*User, error) {
	return s.db.UsersByID(ctx, ids)
}

// LogOut ends every session of account id (its epoch moves on).
func (s *Service) LogOut(ctx context.Context, id uint) error { return s.db.BumpEpoch(ctx, id) }

// SetLanguage stores the preferred language of account id ("" for the
// browser's).
func (s *Service) SetLanguage(ctx context.Context, id uint, lang string) error {
	return s.db.SetUserLanguage(ctx, id, lang)
}

// SetPassword gives u the new password pw and ends every session of the
// account (u.Epoch moves on; the caller renews its own session with it).
func (s *Service) SetPassword(ctx context.Context, u *User, pw string) error {
	hash, err := hashPassword(pw)
	if err != nil {
		return err
	}
	if err := s.db.SetUserPassword(ctx, u.ID, hash); err != nil {
		return err
	}
	u.Epoch++
	return nil
}

// SetEmail stores the address of u ("" removes it).
func (s *Service) SetEmail(ctx context.Context, u *User, email string) error {
	var stored *string
	if email != "" {
		stored = &email
	}
	if err := s.db.SetUserEmail(ctx, u.ID, stored); err != nil {
		return err
	}
	u.Email = stored
	return nil
}

// Delete deletes account id: its name, password and address go, its
// games stay, shown as played by a deleted player.
func (s *Service) Delete(ctx context.Context, id uint) error { return s.db.DeleteUser(ctx, id) }

// SetMoveSound stores whether account id hears a sound at the opponent's
// moves.
func (s *Service) SetMoveSound(ctx context.Context, id uint, on bool) error {
	return s.db.SetMoveSound(ctx, id, on)
}

// SetTurnEmail stores whether account id gets an e-mail at their turn in
// a correspondence game.
func (s *Service) SetTurnEmail(ctx context.Context, id uint, on bool) error {
	return s.db.SetTurnEmail(ctx, id, on)
}

// Unsubscribe turns off the turn e-mails of the account whose unsubscribe
// link has key; ErrNotFound for no such key.
func (s *Service) Unsubscribe(ctx context.Context, key string) error {
	if !models.ValidKey(key, 24) {
		return ErrNotFound
	}
	_, err := s.db.Unsubscribe(ctx, key)
	return err
}

// ValidMailKey reports whether key has the shape of an unsubscribe key.
func ValidMailKey(key string) bool { return models.ValidKey(key, 24) }
