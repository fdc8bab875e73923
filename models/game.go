package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Game is one table: its settings, seats and state (table games).
// The moves are the truth about the game; Position is a cache of the
// position after the last move, kept for quick reads.
type Game struct {
	// ID is 12 characters of lowercase base32 (a-z, 2-7), random; CreateGame
	// sets it when empty.
	ID string `gorm:"primaryKey;size:12"`
	// Rules is the engine rule set: "abapa", "wari", "warri" or "namnam".
	Rules string
	// StartPosition is the RULES.md position string the game started from.
	StartPosition string
	// Position is the position string after the last move.
	Position string
	// Status is "waiting" (a seat is free), "playing" or "over".
	Status string
	// Result is "" while not over, else "south", "north" or "draw".
	Result string
	// Reason is "" while not over, else an engine.Reason ("25-seeds",
	// "grand-slam", "cannot-feed", "no-moves", "repetition", "agreement",
	// "resignation").
	Reason string
	// Version counts the changes of the row: 1 after CreateGame, +1 on every
	// UpdateGame. It is the optimistic concurrency check.
	Version int
	// SouthToken and NorthToken hold HashToken of each seat's bearer token;
	// "" means the seat is free.
	SouthToken, NorthToken string
	// SpectatorKey is the random, unique key of the watch link
	// (/{lang}/watch/{key}); CreateGame sets it when empty (16 characters).
	SpectatorKey string `gorm:"uniqueIndex"`
	// EndOffer is "", "south" or "north": who proposed ending the game by
	// agreement.
	EndOffer string
	// RematchOffer is "", "south" or "north": who asked for a rematch.
	RematchOffer string
	// RematchID is the id of the rematch game once both players agreed.
	RematchID string
	// Fours is the Nam-nam table setting ("last" or "owner", RULES.md 4.3a);
	// "" for the Oware rule sets.
	Fours string
	// Agreements lists, comma-separated and in order, the number of moves
	// played when the players agreed to end a Nam-nam round or the match
	// ("14,30"); with the moves it rebuilds the match. "" when none.
	Agreements string
	// SouthRoundSeen and NorthRoundSeen are the last Nam-nam round whose
	// start each player has seen (the summary of the round before is then
	// no longer shown to them); 0 at first.
	SouthRoundSeen, NorthRoundSeen int
	// SouthUserID and NorthUserID are the accounts (User.ID) seated south
	// and north, nil for a guest. UpdateGame does not write them; ClaimSeat
	// does.
	SouthUserID, NorthUserID *uint
	// CreatedAt and UpdatedAt are set by CreateGame and UpdateGame (UTC).
	CreatedAt, UpdatedAt time.Time
	// Moves are the moves played, ordered by Ply when loaded by LoadGame or
	// GameBySpectatorKey. CreateGame and UpdateGame do not write them.
	Moves []Move `gorm:"constraint:OnDelete:CASCADE"`
}

// Move is one move of a game (table moves). A game has at most one move per
// ply.
type Move struct {
	// ID is the row id, set by the database.
	ID uint `gorm:"primaryKey"`
	// GameID is the game's ID; UpdateGame sets it.
	GameID string `gorm:"uniqueIndex:moves_game_ply"`
	// Ply is the 1-based number of the move in the game.
	Ply int `gorm:"uniqueIndex:moves_game_ply"`
	// Pit is the sown pit, 0..11 (engine numbering).
	Pit int
	// Label is the pit's label, engine.Label(Pit): "A".."F", "a".."f".
	Label string
	// Position is the position string after the move.
	Position string
	// CreatedAt is when the move was stored (UTC).
	CreatedAt time.Time
}

// Setting is a site-wide key/value pair (table settings), such as the
// cookie secret (see DB.Secret).
type Setting struct {
	// Key names the setting.
	Key string `gorm:"primaryKey"`
	// Value is the setting's text.
	Value string
}

// CreateGame inserts g (not its Moves). It fills an empty ID and
// SpectatorKey with new random values, sets Version to 1 and the
// timestamps. An ID or SpectatorKey already taken returns an error wrapping
// ErrConflict.
func (db *DB) CreateGame(ctx context.Context, g *Game) error {
	if g.ID == "" {
		g.ID = NewGameID()
	}
	if g.SpectatorKey == "" {
		g.SpectatorKey = randomKey(16)
	}
	g.Version = 1
	err := db.Gorm.WithContext(ctx).Omit(clause.Associations).Create(g).Error
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return fmt.Errorf("models: create game %s: %w", g.ID, ErrConflict)
	}
	return err
}

// LoadGame returns the game with the given id and its moves in ply order,
// or ErrNotFound (also for a string that cannot be an id).
func (db *DB) LoadGame(ctx context.Context, id string) (*Game, error) {
	if !ValidKey(id, 12) {
		return nil, ErrNotFound
	}
	return db.loadGame(ctx, "id = ?", id)
}

// GameBySpectatorKey returns the game whose watch link has the given key,
// with its moves in ply order, or ErrNotFound.
func (db *DB) GameBySpectatorKey(ctx context.Context, key string) (*Game, error) {
	if !ValidKey(key, 16) {
		return nil, ErrNotFound
	}
	return db.loadGame(ctx, "spectator_key = ?", key)
}

// NewGameID returns a new random game id: 12 characters of a-z and 2-7.
func NewGameID() string { return randomKey(12) }

// GameStatuses returns the status ("waiting", "playing" or "over") of each
// of the given games that exists.
func (db *DB) GameStatuses(ctx context.Context, ids []string) (map[string]string, error) {
	var rows []Game
	err := db.Gorm.WithContext(ctx).Select("id", "status").Where("id IN ?", ids).Find(&rows).Error
	statuses := map[string]string{}
	for _, g := range rows {
		statuses[g.ID] = g.Status
	}
	return statuses, err
}

// ValidKey reports whether s has the shape of a game id (n = 12) or a
// spectator key (n = 16): n characters of a-z and 2-7.
func ValidKey(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range []byte(s) {
		if (c < 'a' || c > 'z') && (c < '2' || c > '7') {
			return false
		}
	}
	return true
}

func (db *DB) loadGame(ctx context.Context, where string, arg string) (*Game, error) {
	var g Game
	err := db.Gorm.WithContext(ctx).
		Preload("Moves", func(tx *gorm.DB) *gorm.DB { return tx.Order("ply") }).
		Where(where, arg).Take(&g).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &g, nil
}

// UpdateGame writes g's columns and, when newMove is not nil, inserts
// newMove for g, in one transaction, provided the stored row still has
// g.Version. Otherwise (another request changed the game, or the game does
// not exist) nothing is written and the error wraps ErrConflict; a newMove
// whose ply is already stored is refused the same way.
//
// On success g.Version is incremented and g.UpdatedAt set; newMove.GameID,
// ID and CreatedAt are set. g.Moves is left as it is. ID and CreatedAt of g
// never change.
func (db *DB) UpdateGame(ctx context.Context, g *Game, newMove *Move) error {
	now := db.Gorm.NowFunc()
	err := db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Game{}).Where("id = ? AND version = ?", g.ID, g.Version).Updates(map[string]any{
			"rules":            g.Rules,
			"start_position":   g.StartPosition,
			"position":         g.Position,
			"status":           g.Status,
			"result":           g.Result,
			"reason":           g.Reason,
			"version":          gorm.Expr("version + 1"),
			"south_token":      g.SouthToken,
			"north_token":      g.NorthToken,
			"spectator_key":    g.SpectatorKey,
			"end_offer":        g.EndOffer,
			"rematch_offer":    g.RematchOffer,
			"rematch_id":       g.RematchID,
			"fours":            g.Fours,
			"agreements":       g.Agreements,
			"south_round_seen": g.SouthRoundSeen,
			"north_round_seen": g.NorthRoundSeen,
			"updated_at":       now,
		})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrConflict
		}
		if newMove == nil {
			return nil
		}
		m := *newMove
		m.GameID = g.ID
		if err := tx.Create(&m).Error; err != nil {
			return err
		}
		*newMove = m
		return nil
	})
	if errors.Is(err, ErrConflict) || errors.Is(err, gorm.ErrDuplicatedKey) {
		return fmt.Errorf("models: update game %s at version %d: %w", g.ID, g.Version, ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("models: update game %s: %w", g.ID, err)
	}
	g.Version++
	g.UpdatedAt = now
	return nil
}
