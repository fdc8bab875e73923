package models

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Visitor is a browser that holds guest seats (table visitors), named by a
// random visitor id in its session cookie. The functions below take that
// id as the cookie has it (NewToken's form); the table keeps its hash.
type Visitor struct {
	// ID is HashToken of the cookie's visitor id.
	ID string `gorm:"primaryKey"`
	// CreatedAt is when the visitor kept its first seat, SeenAt when it
	// last kept one (UTC).
	CreatedAt time.Time
	SeenAt    time.Time
}

// VisitorSeat is a seat a visitor holds (table visitor_seats): the seat of
// game GameID whose bearer token hashes to TokenHash.
type VisitorSeat struct {
	VisitorID string `gorm:"primaryKey"`
	GameID    string `gorm:"primaryKey"`
	// TokenHash is HashToken of the seat's bearer token, as the game's row
	// keeps it.
	TokenHash string
	// CreatedAt is when the visitor took the seat (UTC).
	CreatedAt time.Time
}

// VisitorLifetime is how long a visitor's seats are kept after the
// visitor last kept a seat and any of its games last changed.
const VisitorLifetime = 90 * 24 * time.Hour

// KeepVisitorSeat records that visitor holds the seat of game gameID whose
// token hashes to tokenHash (replacing a seat it held there before); the
// visitor's row is made or marked seen. One transaction: a seat kept is
// never half written.
func (db *DB) KeepVisitorSeat(ctx context.Context, visitor, gameID, tokenHash string) error {
	now := time.Now().UTC()
	id := HashToken(visitor)
	return db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "id"}},
			DoUpdates: clause.Assignments(map[string]any{"seen_at": now})}).
			Create(&Visitor{ID: id, CreatedAt: now, SeenAt: now}).Error
		if err != nil {
			return err
		}
		return tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "visitor_id"}, {Name: "game_id"}},
			DoUpdates: clause.Assignments(map[string]any{"token_hash": tokenHash})}).
			Create(&VisitorSeat{VisitorID: id, GameID: gameID, TokenHash: tokenHash, CreatedAt: now}).Error
	})
}

// VisitorSeatHash returns the token hash of the seat visitor holds in game
// gameID, or "" when it holds none there.
func (db *DB) VisitorSeatHash(ctx context.Context, visitor, gameID string) (string, error) {
	var hashes []string
	err := db.Gorm.WithContext(ctx).Model(&VisitorSeat{}).
		Where("visitor_id = ? AND game_id = ?", HashToken(visitor), gameID).Limit(1).Pluck("token_hash", &hashes).Error
	if err != nil || len(hashes) == 0 {
		return "", err
	}
	return hashes[0], nil
}

// VisitorSeats returns the seats visitor holds, oldest first.
func (db *DB) VisitorSeats(ctx context.Context, visitor string) ([]VisitorSeat, error) {
	var seats []VisitorSeat
	err := db.Gorm.WithContext(ctx).Where("visitor_id = ?", HashToken(visitor)).
		Order("created_at, game_id").Find(&seats).Error
	return seats, err
}

// VisitorOpenSeats returns the seats visitor holds in games that exist and
// are not over (waiting or playing), oldest first: one query for the
// visitor's games in progress.
func (db *DB) VisitorOpenSeats(ctx context.Context, visitor string) ([]VisitorSeat, error) {
	var seats []VisitorSeat
	err := db.Gorm.WithContext(ctx).Model(&VisitorSeat{}).Select("visitor_seats.*").
		Joins("JOIN games ON games.id = visitor_seats.game_id").
		Where("visitor_seats.visitor_id = ? AND games.status <> ?", HashToken(visitor), "over").
		Order("visitor_seats.created_at, visitor_seats.game_id").Find(&seats).Error
	return seats, err
}

// VisitorGamesPlaying counts the games being played (status "playing")
// in which visitor holds a seat.
func (db *DB) VisitorGamesPlaying(ctx context.Context, visitor string) (int, error) {
	var n int64
	err := db.Gorm.WithContext(ctx).Model(&VisitorSeat{}).
		Joins("JOIN games ON games.id = visitor_seats.game_id").
		Where("visitor_seats.visitor_id = ? AND games.status = ?", HashToken(visitor), "playing").
		Count(&n).Error
	return int(n), err
}

// DeleteExpiredVisitors deletes, with their seats, the visitors that kept
// no seat since before and none of whose games changed since before; it
// returns how many it deleted.
func (db *DB) DeleteExpiredVisitors(ctx context.Context, before time.Time) (int64, error) {
	res := db.Gorm.WithContext(ctx).Where("seen_at < ? AND NOT EXISTS (?)", before.UTC(),
		db.Gorm.Model(&VisitorSeat{}).Select("1").
			Joins("JOIN games ON games.id = visitor_seats.game_id").
			Where("visitor_seats.visitor_id = visitors.id AND games.updated_at >= ?", before.UTC())).
		Delete(&Visitor{})
	return res.RowsAffected, res.Error
}
