package models

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Game is one table: its settings, seats and state (table games).
// The moves (and Agreements) are the truth about the game; Position and the
// cache columns (Resume, Rounds) are kept for quick reads and
// moves by package game, which writes them with every change.
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
	// "resignation") or an end of package game ("timeout", "abandoned",
	// "aborted"; Result is "" after "aborted").
	Reason string
	// AbortedEnd is the end an aborted game would have had: its result
	// and reason, "north resignation" (migration 00025); "" for a game not
	// aborted. Tournaments score aborted games by it.
	AbortedEnd string
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
	// MoveLabels are the labels of the moves, one character each, as the
	// game's reads (FindGame, LoadGame, OpenGames, ...) take them from its
	// moves; never written (the row has no such column: migration 00121).
	MoveLabels string `gorm:"->;-:migration"`
	// Resume and Rounds cache what package game needs to play on without
	// replaying every move (migration 00007): where to rebuild the
	// engine's game from; the ends of Nam-nam rounds. "" until package
	// game writes them.
	Resume, Rounds string
	// ClockInitial and ClockIncrement are the real-time control in seconds
	// (0, 0: none); ClockDays the correspondence days per move (0: none).
	// They are written by CreateGame only.
	ClockInitial, ClockIncrement, ClockDays int
	// SouthMS and NorthMS are each side's time left in milliseconds at
	// TurnSince, when the turn of the player to move began (nil before
	// the game started or without a clock).
	SouthMS, NorthMS int64
	TurnSince        *time.Time
	// Deadline is when the game ends by itself unless the player to move
	// moves (a flag falls, a first move does not come); nil while no
	// clock runs. SweepLease is until when a sweeper holds the game
	// (models.DB.DueGames); UpdateGame writes neither SweepLease nor the
	// settings.
	Deadline, SweepLease *time.Time
	// SweepAt is when the sweeper next looks at the game: at or before
	// Deadline, nil with it (migration 00125). CreateGame sets it to
	// Deadline, the writes of a change lower it to a Deadline before it,
	// and DueGames raises it to Deadline; nothing else writes it.
	SweepAt *time.Time
	// Rated marks a rated game; SouthRating and NorthRating are the
	// players' ratings as it started ("1500", "1500?" while provisional,
	// "" for none). Written by CreateGame only.
	Rated                    bool
	SouthRating, NorthRating string
	// Unrated says why a game asked for as rated is played casual:
	// "pair" when its players had played their rated games against each
	// other of the day (migration 00016; SetCasual writes it); "" else.
	Unrated string
	// SouthComputer and NorthComputer are the level (1-8) of the computer
	// seated there, 0 for a person; ComputerInstant makes the computer
	// answer without its minimum thinking time (migration 00010).
	// CreateGame writes them; they never change.
	SouthComputer, NorthComputer int
	ComputerInstant              bool
	// Hints counts the hints given in the game and Hint is the last one,
	// "<version> <label> <reason> <seeds> <plies>" ("" for none; hints
	// kept before have no plies): UseHint writes
	// them, UpdateGame does not.
	Hints int
	Hint  string
	// TakebackOffer is "<side> <version>": the side that asked to take
	// back its last move, valid while the game has that version; "" for
	// none (migration 00011). SetTakebackOffer writes it, UpdateGame does
	// not.
	TakebackOffer string
	// PopFrom, when not 0, makes UpdateGame delete the moves from this ply
	// on (a takeback) with the write of the row.
	PopFrom int `gorm:"-"`
	// CreatedAt and UpdatedAt are set by CreateGame and UpdateGame (UTC).
	CreatedAt, UpdatedAt time.Time
	// Moves are the moves played, ordered by Ply when loaded by LoadGame or
	// GameBySpectatorKey. CreateGame and UpdateGame do not write them.
	Moves []Move `gorm:"constraint:OnDelete:CASCADE"`
	// SouthPlayer and NorthPlayer are the accounts seated south and north
	// as FindGame and LoadGame read them; nil for a guest.
	SouthPlayer, NorthPlayer *Player `gorm:"-"`
}

// Player is the account seated in a game as the game pages name it.
type Player struct {
	// Name is the username; "" once the account was deleted.
	Name string
	// Deleted is set when the account was deleted.
	Deleted bool
	// Bot marks a bot account (User.Bot), read in the same join.
	Bot bool
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

// BeforeCreate is GORM's hook before g is inserted (CreateGame, a taken
// challenge): the sweeper first looks at the game at its Deadline.
func (g *Game) BeforeCreate(*gorm.DB) error {
	g.SweepAt = g.Deadline
	return nil
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
	return db.withMoves(ctx)(db.FindGame(ctx, id))
}

// GameBySpectatorKey returns the game whose watch link has the given key,
// with its moves in ply order, or ErrNotFound.
func (db *DB) GameBySpectatorKey(ctx context.Context, key string) (*Game, error) {
	return db.withMoves(ctx)(db.FindGameByKey(ctx, key))
}

// withMoves returns a function that adds the moves to a game just found.
func (db *DB) withMoves(ctx context.Context) func(*Game, error) (*Game, error) {
	return func(g *Game, err error) (*Game, error) {
		if err != nil {
			return nil, err
		}
		if g.Moves, err = db.Moves(ctx, g.ID); err != nil {
			return nil, err
		}
		return g, nil
	}
}

// Moves returns the moves of game id in ply order.
func (db *DB) Moves(ctx context.Context, id string) ([]Move, error) {
	var moves []Move
	err := db.Gorm.WithContext(ctx).Where("game_id = ?", id).Order("ply").Find(&moves).Error
	return moves, err
}

// GameIDs returns at most limit game ids greater than after, in order: a
// page of every stored game.
func (db *DB) GameIDs(ctx context.Context, after string, limit int) ([]string, error) {
	var ids []string
	err := db.Gorm.WithContext(ctx).Model(&Game{}).Where("id > ?", after).Order("id").Limit(limit).Pluck("id", &ids).Error
	return ids, err
}

// DeleteGame deletes game id and its moves.
func (db *DB) DeleteGame(ctx context.Context, id string) error {
	return db.Gorm.WithContext(ctx).Delete(&Game{ID: id}).Error
}

// NewGameID returns a new random game id: 12 characters of a-z and 2-7.
func NewGameID() string { return randomKey(12) }

// IsGameID reports whether id has the shape of NewGameID's ids.
func IsGameID(id string) bool {
	return len(id) == 12 && strings.Trim(id, "abcdefghijklmnopqrstuvwxyz234567") == ""
}

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
