package models

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Challenge is an open invitation to a game in the lobby (table
// challenges), which anyone (or the player ForUserID) may accept.
type Challenge struct {
	// ID is 12 characters of a-z and 2-7, random (CreateChallenge).
	ID string `gorm:"primaryKey"`
	// Rules, Fours and the time control are the game's settings (as in
	// Game); Seat is the creator's: "south", "north" or "random".
	Rules, Fours, Seat                      string
	ClockInitial, ClockIncrement, ClockDays int
	Rated                                   bool
	// MinRating and MaxRating bound the rating of who may accept a rated
	// challenge (0: no bound).
	MinRating, MaxRating int
	// UserID is the creator's account (nil for a guest); ForUserID the
	// only player who may accept it (nil: anyone).
	UserID, ForUserID *uint
	// Owner is who made it: "u<id>" for an account, "s<key>" for a
	// browser, "a<random>" for an API client without an account.
	Owner string
	// TokenHash is HashToken of the bearer token that holds the creator's
	// seat once the game exists.
	TokenHash string
	// GameID is the id the game gets when the challenge is taken.
	GameID string
	// PairKey groups the challenges a quick-pairing button matches; ""
	// for the others.
	PairKey string
	// Source is who the challenge counts against in the limit of open
	// challenges and in the lobby's list: "u<id>" for an account,
	// "c<address>" for a guest (migration 00017).
	Source string
	// Status is "open", "taken" or "cancelled"; an open challenge is gone
	// once ExpiresAt passed (its creator stopped asking for it).
	Status               string
	ExpiresAt, CreatedAt time.Time
	// Declined is the reason the challenge was declined with
	// (DeclineChallenge: "generic", "later", ...), "" when it was not
	// (migration 00105).
	Declined string
	// Creator is the creator's username ("" for a guest), as
	// OpenChallenges reads it (read only, no column: a tag of "-" would
	// make GORM skip it on reads too, issue 19).
	Creator string `gorm:"->;-:migration"`
	// CreatorBot marks a creator that is a bot (User.Bot), read with
	// Creator in the same join.
	CreatorBot bool `gorm:"->;-:migration"`
}

// CreateChallenge inserts ch, open, with a new id and game id, created
// at now, unless its Source has limit challenges open at now (ErrCapped).
func (db *DB) CreateChallenge(ctx context.Context, ch *Challenge, now time.Time, limit int) error {
	return db.Capped(db.Gorm.WithContext(ctx), challengeCap(ch.Source, now, limit), func(tx *gorm.DB) error {
		prepare(ch, now)
		return tx.Create(ch).Error
	})
}

// challengeCap is the cap of limit challenges of source open at now.
func challengeCap(source string, now time.Time, limit int) Cap {
	return Cap{Key: "challenges:" + source, Limit: limit, Count: func(tx *gorm.DB) *gorm.DB {
		return tx.Model(&Challenge{}).Where("source = ? AND status = 'open' AND expires_at > ?", source, now.UTC())
	}}
}

// prepare fills the id, game id, status and creation time of a new
// challenge.
func prepare(ch *Challenge, now time.Time) {
	ch.ID, ch.GameID, ch.Status, ch.CreatedAt = NewGameID(), NewGameID(), "open", now.UTC()
}

// FindChallenge returns the challenge id (in any status), or ErrNotFound.
func (db *DB) FindChallenge(ctx context.Context, id string) (*Challenge, error) {
	if !ValidKey(id, 12) {
		return nil, ErrNotFound
	}
	var ch Challenge
	if err := db.Gorm.WithContext(ctx).Take(&ch, "id = ?", id).Error; err != nil {
		return nil, notFound(err)
	}
	return &ch, nil
}

// OpenChallenges returns the challenges open at now that forUser (0 for a
// visitor) may see: those for anyone and those for forUser; those of
// owner first, then the newest first; at most limit, with their creators'
// names.
func (db *DB) OpenChallenges(ctx context.Context, now time.Time, forUser uint, owner string, limit int) ([]Challenge, error) {
	var rows []Challenge
	err := db.Gorm.WithContext(ctx).Table("challenges c").Select(challengeColumns).
		Joins("LEFT JOIN users u ON u.id = c.user_id").
		Where("c.status = 'open' AND c.expires_at > ?", now.UTC()).
		Where("c.for_user_id IS NULL OR c.for_user_id = ?", forUser).
		Clauses(clause.OrderBy{Expression: clause.Expr{SQL: "CASE WHEN c.owner = ? THEN 0 ELSE 1 END, c.created_at DESC, c.id",
			Vars: []any{owner}, WithoutParentheses: true}}).
		Limit(limit).Scan(&rows).Error
	return rows, err
}

// KeepChallenge moves the expiry of the open challenge id to until (its
// creator is still there).
func (db *DB) KeepChallenge(ctx context.Context, id string, until time.Time) error {
	return db.Gorm.WithContext(ctx).Model(&Challenge{}).Where("id = ? AND status = 'open'", id).
		Update("expires_at", until.UTC()).Error
}

// challengeColumns are the columns of OpenChallenges and ChallengesFor:
// a challenge with its creator's name and bot mark (users u).
const challengeColumns = "c.*, COALESCE(u.username, '') AS creator, COALESCE(u.bot, false) AS creator_bot"

// DeclineChallenge cancels the open challenge id, keeping the reason its
// player declined it with (Declined); it reports whether it did.
func (db *DB) DeclineChallenge(ctx context.Context, id, reason string) (bool, error) {
	res := db.Gorm.WithContext(ctx).Model(&Challenge{}).Where("id = ? AND status = 'open'", id).
		Updates(map[string]any{"status": "cancelled", "declined": reason})
	return res.RowsAffected > 0, res.Error
}

// CancelChallenge cancels the open challenge id; it reports whether it did.
func (db *DB) CancelChallenge(ctx context.Context, id string) (bool, error) {
	res := db.Gorm.WithContext(ctx).Model(&Challenge{}).Where("id = ? AND status = 'open'", id).
		Update("status", "cancelled")
	return res.RowsAffected > 0, res.Error
}

// TakeChallenge marks the challenge id taken and inserts its game g (with
// CreateGame's defaults), in one transaction, provided the challenge is
// still open at now; otherwise nothing is written and the error wraps
// ErrConflict. Of two takers at once, one gets the game.
func (db *DB) TakeChallenge(ctx context.Context, id string, now time.Time, g *Game) error {
	return db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return take(tx, id, now, g)
	})
}

// take is TakeChallenge inside the transaction tx.
func take(tx *gorm.DB, id string, now time.Time, g *Game) error {
	res := tx.Model(&Challenge{}).Where("id = ? AND status = 'open' AND expires_at > ?", id, now.UTC()).
		Update("status", "taken")
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("models: take challenge %s: %w", id, ErrConflict)
	}
	if g.SpectatorKey == "" {
		g.SpectatorKey = randomKey(16)
	}
	g.Version = 1
	return tx.Omit(clause.Associations).Create(g).Error
}

// QuickPair pairs ch, a quick-pairing challenge, with the oldest open
// challenge of the same PairKey from another Owner: build makes the game
// of that challenge, which is taken and its game inserted, and QuickPair
// returns it. When there is none, ch is inserted, open, and QuickPair
// returns nil (now is the time of the call), unless its Source has limit
// challenges open (ErrCapped). The calls of one PairKey are serialized (an advisory lock
// on PostgreSQL, the one writer of SQLite), so of two players pressing the
// same button at once the second is paired with the first.
func (db *DB) QuickPair(ctx context.Context, ch *Challenge, now time.Time, limit int, build func(*Challenge) (*Game, error)) (*Challenge, error) {
	var taken *Challenge
	now = now.UTC()
	err := db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		taken = nil
		if db.Dialect == Postgres {
			if err := tx.Exec("SELECT pg_advisory_xact_lock(hashtext(?))", "oware-pair:"+ch.PairKey).Error; err != nil {
				return err
			}
		}
		var found []Challenge
		err := tx.Where("pair_key = ? AND owner <> ? AND status = 'open' AND expires_at > ?", ch.PairKey, ch.Owner, now).
			Order("created_at, id").Limit(1).Find(&found).Error
		if err != nil {
			return err
		}
		if len(found) == 0 {
			if err := db.check(tx, challengeCap(ch.Source, now, limit)); err != nil {
				return err
			}
			prepare(ch, now)
			return tx.Create(ch).Error
		}
		g, err := build(&found[0])
		if err != nil {
			return err
		}
		if err := take(tx, found[0].ID, now, g); err != nil {
			return err
		}
		taken = &found[0]
		return nil
	})
	return taken, err
}

// GoneChallenges cancels the open challenges that expired before now; it
// returns how many.
func (db *DB) GoneChallenges(ctx context.Context, now time.Time) (int64, error) {
	res := db.Gorm.WithContext(ctx).Model(&Challenge{}).Where("status = 'open' AND expires_at <= ?", now.UTC()).
		Update("status", "cancelled")
	return res.RowsAffected, res.Error
}

// ChallengesFor returns the challenges open at now for account forUser
// (ForUserID) and those it sent to one player (UserID, with ForUserID),
// open or declined (kept until they would have expired, so that the
// sender's event stream learns why), the newest first, at most limit,
// with their creators' names.
func (db *DB) ChallengesFor(ctx context.Context, now time.Time, forUser uint, limit int) ([]Challenge, error) {
	var rows []Challenge
	err := db.Gorm.WithContext(ctx).Table("challenges c").Select(challengeColumns).
		Joins("LEFT JOIN users u ON u.id = c.user_id").
		Where(`c.expires_at > ? AND ((c.status = 'open' AND (c.for_user_id = ? OR (c.user_id = ? AND c.for_user_id IS NOT NULL)))
			OR (c.status = 'cancelled' AND c.declined <> '' AND c.user_id = ?))`, now.UTC(), forUser, forUser, forUser).
		Order("c.created_at DESC, c.id").Limit(limit).Scan(&rows).Error
	return rows, err
}
