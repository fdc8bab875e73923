package models

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Puzzle is a puzzle of the site (table puzzles): engine/puzzle's, with
// its Glicko-2 puzzle rating.
type Puzzle struct {
	ID     string `gorm:"primaryKey"`
	Number int    // its place in the puzzle file, the order of lists
	Rules  string // "abapa", "wari", "warri"
	// Position is the position string, the solver to move.
	Position string
	// Solution is the line's move labels, comma-separated.
	Solution string
	// Themes are the theme names, each between commas: ",endgame-win,".
	Themes string
	// FirstMoves are the legal first moves as label:lo:hi, comma-separated.
	FirstMoves string
	// Rating, Deviation and Volatility are on the Glicko scale.
	Rating, Deviation, Volatility float64
	Plays                         int // rated attempts
}

// AccountPuzzlePlayer is the puzzle player key of account id: "u<id>".
// DeleteUser deletes its rows.
func AccountPuzzlePlayer(id uint) string { return "u" + strconv.FormatUint(uint64(id), 10) }

// GuestPuzzlePlayer is the puzzle player key of a visitor without an
// account, by the visitor id of its session cookie (NewToken's form): "v"
// and HashToken of the id (migration 00050), so that the table holds no
// session secret. DeleteIdlePuzzleGuests deletes its rows.
func GuestPuzzlePlayer(visitor string) string { return "v" + HashToken(visitor) }

// ThemeList returns the puzzle's themes.
func (p *Puzzle) ThemeList() []string { return strings.Split(strings.Trim(p.Themes, ","), ",") }

// PuzzlePlayer is a puzzle solver's rating and streak (table
// puzzle_players); Player is AccountPuzzlePlayer's key for an account,
// GuestPuzzlePlayer's for a visitor.
type PuzzlePlayer struct {
	Player                        string `gorm:"primaryKey"`
	Rating, Deviation, Volatility float64
	// Streak counts the puzzles solved in a row at the first attempt;
	// BestStreak the longest such run.
	Streak, BestStreak int
	Solved, Failed     int // rated attempts
	UpdatedAt          time.Time
}

// PuzzleAttempt is a player's first, rated attempt at a puzzle (table
// puzzle_attempts), with the player's rating after it.
type PuzzleAttempt struct {
	ID        uint `gorm:"primaryKey"`
	Player    string
	PuzzleID  string
	Correct   bool
	Rating    float64
	CreatedAt time.Time
}

// MaxPuzzleList bounds the puzzles one list returns.
const MaxPuzzleList = 100

// LoadPuzzles adds the puzzles whose id is not stored yet and returns how
// many it added; a stored puzzle keeps its row (its rating above all), so
// loading the same file again changes nothing.
func (db *DB) LoadPuzzles(ctx context.Context, puzzles []Puzzle) (int, error) {
	if len(puzzles) == 0 {
		return 0, nil
	}
	var have []string
	if err := db.Gorm.WithContext(ctx).Model(&Puzzle{}).Pluck("id", &have).Error; err != nil {
		return 0, err
	}
	known := make(map[string]bool, len(have))
	for _, id := range have {
		known[id] = true
	}
	var fresh []Puzzle
	for _, p := range puzzles {
		if !known[p.ID] {
			fresh = append(fresh, p)
			known[p.ID] = true
		}
	}
	if len(fresh) == 0 {
		return 0, nil
	}
	tx := db.Gorm.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(fresh, 200)
	return int(tx.RowsAffected), tx.Error
}

// PuzzleByID returns puzzle id, or ErrNotFound.
func (db *DB) PuzzleByID(ctx context.Context, id string) (*Puzzle, error) {
	var p Puzzle
	if err := db.Gorm.WithContext(ctx).Where("id = ?", id).Take(&p).Error; err != nil {
		return nil, notFound(err)
	}
	return &p, nil
}

// Puzzles returns at most limit (1..MaxPuzzleList) puzzles of theme (""
// for any) whose number is above after, in number order.
func (db *DB) Puzzles(ctx context.Context, theme string, after, limit int) ([]Puzzle, error) {
	limit = min(max(limit, 1), MaxPuzzleList)
	q := db.Gorm.WithContext(ctx).Where("number > ?", after)
	if theme != "" {
		q = q.Where("themes LIKE ?", "%,"+theme+",%")
	}
	var rows []Puzzle
	err := q.Order("number, id").Limit(limit).Find(&rows).Error
	return rows, err
}

// NextPuzzle returns the first puzzle of theme ("" for any) after number
// after that player has not attempted yet, wrapping round to the start;
// when they attempted every one, the first after after. ErrNotFound when
// there is none of the theme.
func (db *DB) NextPuzzle(ctx context.Context, player, theme string, after int) (*Puzzle, error) {
	base := func() *gorm.DB {
		q := db.Gorm.WithContext(ctx).Model(&Puzzle{})
		if theme != "" {
			q = q.Where("themes LIKE ?", "%,"+theme+",%")
		}
		return q
	}
	tried := db.Gorm.Model(&PuzzleAttempt{}).Select("puzzle_id").Where("player = ?", player)
	for _, q := range []*gorm.DB{
		base().Where("number > ? AND id NOT IN (?)", after, tried),
		base().Where("id NOT IN (?)", tried),
		base().Where("number > ?", after),
		base(),
	} {
		var p Puzzle
		err := q.Order("number, id").Take(&p).Error
		if err == nil {
			return &p, nil
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, err
		}
	}
	return nil, ErrNotFound
}

// PuzzleCount returns the number of puzzles.
func (db *DB) PuzzleCount(ctx context.Context) (int, error) {
	var n int64
	err := db.Gorm.WithContext(ctx).Model(&Puzzle{}).Count(&n).Error
	return int(n), err
}

// PuzzleAt returns the puzzle at place i (0..count-1) in number order.
func (db *DB) PuzzleAt(ctx context.Context, i int) (*Puzzle, error) {
	var p Puzzle
	if err := db.Gorm.WithContext(ctx).Order("number, id").Offset(i).Take(&p).Error; err != nil {
		return nil, notFound(err)
	}
	return &p, nil
}

// PuzzlePlayerOf returns player's puzzle rating and streak, or fresh with
// Player set when they have none yet.
func (db *DB) PuzzlePlayerOf(ctx context.Context, player string, fresh PuzzlePlayer) (PuzzlePlayer, error) {
	var p PuzzlePlayer
	err := db.Gorm.WithContext(ctx).Where("player = ?", player).Take(&p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		fresh.Player = player
		return fresh, nil
	}
	return p, err
}

// PuzzleHistory returns player's last limit rated attempts, newest first,
// with their puzzles.
func (db *DB) PuzzleHistory(ctx context.Context, player string, limit int) ([]PuzzleAttempt, error) {
	var rows []PuzzleAttempt
	err := db.Gorm.WithContext(ctx).Where("player = ?", player).
		Order("created_at DESC, id DESC").Limit(min(max(limit, 1), MaxPuzzleList)).Find(&rows).Error
	return rows, err
}

// RatePuzzleAttempt records player's attempt at puzzle id when it is their
// first (the rated one) and applies update to both ratings, in one
// transaction (the rows locked on PostgreSQL, so that concurrent attempts
// apply one after the other). fresh is a new player's rating. It returns
// the player after it, and false (nothing changed) when the player had
// attempted the puzzle before.
func (db *DB) RatePuzzleAttempt(ctx context.Context, player, id string, correct bool, fresh PuzzlePlayer,
	update func(pl PuzzlePlayer, pz Puzzle) (PuzzlePlayer, Puzzle)) (PuzzlePlayer, bool, error) {
	now := db.Gorm.NowFunc()
	var out PuzzlePlayer
	rated := false
	err := db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		att := PuzzleAttempt{Player: player, PuzzleID: id, Correct: correct, Rating: fresh.Rating, CreatedAt: now}
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&att)
		if res.Error != nil || res.RowsAffected == 0 {
			return res.Error
		}
		rated = true
		fresh.Player, fresh.UpdatedAt = player, now
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&fresh).Error; err != nil {
			return err
		}
		lock := func(q *gorm.DB) *gorm.DB {
			if db.Dialect == Postgres {
				return q.Clauses(clause.Locking{Strength: "UPDATE"})
			}
			return q
		}
		var pl PuzzlePlayer
		if err := lock(tx.Where("player = ?", player)).Take(&pl).Error; err != nil {
			return err
		}
		var pz Puzzle
		if err := lock(tx.Where("id = ?", id)).Take(&pz).Error; err != nil {
			return err
		}
		pl, pz = update(pl, pz)
		pl.UpdatedAt = now
		if err := tx.Model(&PuzzlePlayer{}).Where("player = ?", player).Updates(map[string]any{
			"rating": pl.Rating, "deviation": pl.Deviation, "volatility": pl.Volatility, "streak": pl.Streak,
			"best_streak": pl.BestStreak, "solved": pl.Solved, "failed": pl.Failed, "updated_at": now}).Error; err != nil {
			return err
		}
		if err := tx.Model(&Puzzle{}).Where("id = ?", id).Updates(map[string]any{
			"rating": pz.Rating, "deviation": pz.Deviation, "volatility": pz.Volatility, "plays": pz.Plays}).Error; err != nil {
			return err
		}
		out = pl
		return tx.Model(&PuzzleAttempt{}).Where("id = ?", att.ID).Update("rating", pl.Rating).Error
	})
	if err != nil || !rated {
		return PuzzlePlayer{}, false, err
	}
	return out, true, nil
}

// deletePuzzlePlayers deletes, within tx, the puzzle rating, streak and
// attempts of the players that where (on puzzle_players' columns) selects;
// the puzzles keep the ratings the attempts gave them.
func deletePuzzlePlayers(tx *gorm.DB, where string, args ...any) error {
	players := tx.Model(&PuzzlePlayer{}).Select("player").Where(where, args...)
	if err := tx.Where("player IN (?)", players).Delete(&PuzzleAttempt{}).Error; err != nil {
		return err
	}
	return tx.Where(where, args...).Delete(&PuzzlePlayer{}).Error
}

// DeleteIdlePuzzleGuests deletes the puzzle rows (rating, streak,
// attempts) of the guests, players "v…", who attempted no puzzle since
// before (package game's sweeper, after the visitors' lifetime).
func (db *DB) DeleteIdlePuzzleGuests(ctx context.Context, before time.Time) error {
	return db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return deletePuzzlePlayers(tx, "player LIKE ? AND updated_at < ?", "v%", before.UTC())
	})
}

// LastPuzzleNumber returns the highest Number of the stored puzzles, 0
// for none: puzzles added later take the numbers after it.
func (db *DB) LastPuzzleNumber(ctx context.Context) (int, error) {
	var n *int
	err := db.Gorm.WithContext(ctx).Model(&Puzzle{}).Select("max(number)").Scan(&n).Error
	if err != nil || n == nil {
		return 0, err
	}
	return *n, nil
}
