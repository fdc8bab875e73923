package accounts

import (
	"context"
	"errors"
	"time"
)

// Following players (issue 24): an account follows others to see when
// they play.

// MaxFollows is how many accounts one account may follow.
const MaxFollows = 200

// The errors of Follow.
var (
	// ErrFollowSelf: an account cannot follow itself.
	ErrFollowSelf = errors.New("accounts: an account cannot follow itself")
	// ErrFollowLimit: the account follows MaxFollows accounts already.
	ErrFollowLimit = errors.New("accounts: the account follows the most accounts it may")
)

// Follow makes account follower follow account followed (at now; no
// error when it does already). Errors: ErrFollowSelf, ErrFollowLimit.
func (s *Service) Follow(ctx context.Context, follower, followed uint, now time.Time) error {
	if follower == followed {
		return ErrFollowSelf
	}
	ok, err := s.db.Follow(ctx, follower, followed, MaxFollows, now)
	if err == nil && !ok {
		err = ErrFollowLimit
	}
	return err
}

// Unfollow makes account follower stop following account followed (no
// error when it did not).
func (s *Service) Unfollow(ctx context.Context, follower, followed uint) error {
	return s.db.Unfollow(ctx, follower, followed)
}

// Follows reports whether account follower follows account followed.
func (s *Service) Follows(ctx context.Context, follower, followed uint) (bool, error) {
	return s.db.Follows(ctx, follower, followed)
}

// Followed returns the existing accounts that follower follows, by name
// in any case (at most MaxFollows).
func (s *Service) Followed(ctx context.Context, follower uint) ([]User, error) {
	return s.db.Followed(ctx, follower, MaxFollows)
}

// SetBoard keeps the board and sound settings of account id: board as
// the site encodes them ("" for the defaults), sound the move sound.
// ErrNotFound for a deleted or unknown account.
func (s *Service) SetBoard(ctx context.Context, id uint, board string, sound bool) error {
	return s.db.SetBoard(ctx, id, board, sound)
}
