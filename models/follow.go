package models

import (
	"context"
	"time"
)

// Follow is a row of table follows: account FollowerID follows account
// FollowedID (issue 24; migration 00045).
type Follow struct {
	FollowerID uint `gorm:"primaryKey"`
	FollowedID uint `gorm:"primaryKey"`
	CreatedAt  time.Time
}

// Follow makes account follower follow account followed, at now, while
// follower follows fewer than max accounts. It reports whether follower
// follows followed afterwards (true also when it did already); false means
// the limit of max was reached.
func (db *DB) Follow(ctx context.Context, follower, followed uint, max int, now time.Time) (bool, error) {
	res := db.Gorm.WithContext(ctx).Exec(`INSERT INTO follows (follower_id, followed_id, created_at)
		SELECT ?, ?, ? WHERE (SELECT count(*) FROM follows WHERE follower_id = ?) < ?
		ON CONFLICT DO NOTHING`, follower, followed, now.UTC(), follower, max)
	if res.Error != nil || res.RowsAffected > 0 {
		return res.Error == nil, res.Error
	}
	return db.Follows(ctx, follower, followed)
}

// Unfollow makes account follower stop following account followed (no
// error when it did not).
func (db *DB) Unfollow(ctx context.Context, follower, followed uint) error {
	return db.Gorm.WithContext(ctx).Exec(`DELETE FROM follows WHERE follower_id = ? AND followed_id = ?`, follower, followed).Error
}

// Follows reports whether account follower follows account followed.
func (db *DB) Follows(ctx context.Context, follower, followed uint) (bool, error) {
	var n int64
	err := db.Gorm.WithContext(ctx).Model(&Follow{}).
		Where("follower_id = ? AND followed_id = ?", follower, followed).Count(&n).Error
	return n > 0, err
}

// Followed returns the existing (not deleted) accounts that follower
// follows, by name in any case, at most limit.
func (db *DB) Followed(ctx context.Context, follower uint, limit int) ([]User, error) {
	var users []User
	err := db.Gorm.WithContext(ctx).
		Where("deleted_at IS NULL AND id IN (SELECT followed_id FROM follows WHERE follower_id = ?)", follower).
		Order("username_lower").Limit(limit).Find(&users).Error
	return users, err
}

// SetBoard keeps the board and sound settings of account id (board: the
// settings as the site encodes them, "" for the defaults; sound: the move
// sound). ErrNotFound for a deleted or unknown account.
func (db *DB) SetBoard(ctx context.Context, id uint, board string, sound bool) error {
	return db.updateUser(ctx, id, map[string]any{"board": board, "move_sound": sound})
}
