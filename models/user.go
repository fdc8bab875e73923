package models

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// User is a registered player (table users). A deleted account keeps its
// row, so that its games still point at it, but loses its name, password
// and email.
type User struct {
	// ID is the row id, set by the database.
	ID uint `gorm:"primaryKey"`
	// Username is the name as the player typed it (3-20 letters, digits,
	// "_" or "-").
	Username string
	// UsernameLower is strings.ToLower(Username); it is unique, which makes
	// names unique regardless of case.
	UsernameLower string
	// PasswordHash is the password's hash (argon2id, PHC string format).
	PasswordHash string
	// Email is the optional address; nil when not given.
	Email *string
	// Language is the preferred language ("cs", "it", "en"), "" for none.
	Language string
	// Epoch is the session generation: a session cookie carries the epoch
	// it was made in and is valid only while it equals this value. Logout
	// and password change increment it.
	Epoch int
	// MoveSound: the player hears a sound at the opponent's moves (on for
	// a new account; a browser's own choice wins).
	MoveSound bool
	// TurnEmail: the player gets an e-mail when it is their turn in a
	// correspondence game (off by default); MailKey is the key of the
	// unsubscribe link of those mails ("" until the first is turned on;
	// migration 00022).
	TurnEmail bool
	MailKey   string
	// Board is the account's board and sound settings as the site encodes
	// them (handlers' boardSettings), "" for the defaults (migration 00045).
	Board string
	// Bot: the account is a bot (migration 00085): a program that plays
	// through the Bot API only, rated in a pool of its own. Its owner
	// chose it before it played any game (UpgradeToBot); it stays one.
	Bot bool
	// BotEngine is a bot's engine name and version as it says ("" for
	// none); BotOwnerID the account of the person who runs it, or nil.
	BotEngine  string
	BotOwnerID *uint
	// BotSeenAt is when a bot's event stream last said it is connected
	// (migration 00120; nil when closed or never): BotsSeenSince.
	BotSeenAt *time.Time
	// DeletedAt is when the account was deleted, nil while it exists.
	DeletedAt *time.Time
	// CreatedAt and UpdatedAt are set by the queries (UTC).
	CreatedAt, UpdatedAt time.Time
}

// Deleted reports whether the account was deleted.
func (u *User) Deleted() bool { return u.DeletedAt != nil }

// CreateUser inserts u with Epoch 1, filling UsernameLower. A name already
// taken in any case returns an error wrapping ErrConflict.
func (db *DB) CreateUser(ctx context.Context, u *User) error {
	u.UsernameLower = strings.ToLower(u.Username)
	u.Epoch = 1
	u.MoveSound = true // on until the player turns it off (issue 24)
	err := db.Gorm.WithContext(ctx).Create(u).Error
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return fmt.Errorf("models: create user %q: %w", u.Username, ErrConflict)
	}
	return err
}

// UserByID returns the user with the given id (deleted or not), or
// ErrNotFound.
func (db *DB) UserByID(ctx context.Context, id uint) (*User, error) {
	var u User
	if err := db.Gorm.WithContext(ctx).Take(&u, "id = ?", id).Error; err != nil {
		return nil, notFound(err)
	}
	return &u, nil
}

// UserByName returns the existing (not deleted) user whose name equals
// name in any case, or ErrNotFound.
func (db *DB) UserByName(ctx context.Context, name string) (*User, error) {
	var u User
	err := db.Gorm.WithContext(ctx).
		Take(&u, "username_lower = ? AND deleted_at IS NULL", strings.ToLower(name)).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &u, nil
}

// UsersByID returns the users with the given ids, by id.
func (db *DB) UsersByID(ctx context.Context, ids []uint) (map[uint]*User, error) {
	out := map[uint]*User{}
	if len(ids) == 0 {
		return out, nil
	}
	var us []User
	if err := db.Gorm.WithContext(ctx).Where("id IN ?", ids).Find(&us).Error; err != nil {
		return nil, err
	}
	for i := range us {
		out[us[i].ID] = &us[i]
	}
	return out, nil
}

// updateUser writes the given columns of user id (and updated_at);
// ErrNotFound when no existing user has that id.
func (db *DB) updateUser(ctx context.Context, id uint, cols map[string]any) error {
	return updateUser(db.Gorm.WithContext(ctx), id, cols)
}

// updateUser is DB.updateUser on g (a transaction's).
func updateUser(g *gorm.DB, id uint, cols map[string]any) error {
	cols["updated_at"] = g.NowFunc()
	res := g.Model(&User{}).Where("id = ? AND deleted_at IS NULL", id).Updates(cols)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// SetUserLanguage stores the preferred language of user id.
func (db *DB) SetUserLanguage(ctx context.Context, id uint, lang string) error {
	return db.updateUser(ctx, id, map[string]any{"language": lang})
}

// SetUserPassword stores a new password hash for user id and increments
// its Epoch, which ends every other session of the account.
func (db *DB) SetUserPassword(ctx context.Context, id uint, hash string) error {
	return db.updateUser(ctx, id, map[string]any{"password_hash": hash, "epoch": gorm.Expr("epoch + 1")})
}

// SetUserEmail stores the address of user id; nil removes it.
func (db *DB) SetUserEmail(ctx context.Context, id uint, email *string) error {
	return db.updateUser(ctx, id, map[string]any{"email": email})
}

// BumpEpoch increments the Epoch of user id: every session of the account
// ends (logout).
func (db *DB) BumpEpoch(ctx context.Context, id uint) error {
	return db.updateUser(ctx, id, map[string]any{"epoch": gorm.Expr("epoch + 1")})
}

// DeleteUser deletes the account id: it sets DeletedAt, replaces the name
// by "deleted:<id>" (which no username can take; the old name is free
// again), clears the password and email and ends every session, and
// deletes its puzzle rating, streak and attempts, its API tokens and its
// follows (both ways), in one transaction. The games keep pointing at the row.
func (db *DB) DeleteUser(ctx context.Context, id uint) error {
	name := fmt.Sprintf("deleted:%d", id)
	return db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := deletePuzzlePlayers(tx, "player = ?", AccountPuzzlePlayer(id)); err != nil {
			return err
		}
		// Nobody follows a deleted account, and it follows nobody.
		if err := tx.Exec(`DELETE FROM follows WHERE follower_id = ? OR followed_id = ?`, id, id).Error; err != nil {
			return err
		}
		if err := tx.Exec(`DELETE FROM account_tokens WHERE user_id = ?`, id).Error; err != nil {
			return err
		}
		return updateUser(tx, id, map[string]any{
			"deleted_at": tx.NowFunc(), "username": name, "username_lower": name,
			"password_hash": "", "email": nil, "epoch": gorm.Expr("epoch + 1"),
		})
	})
}

// ClaimSeat records user id as the player of game gameID's side ("south"
// or "north") when that seat has no account yet and the other seat is not
// the same account's. It reports whether it did. It does not change the
// game's Version.
func (db *DB) ClaimSeat(ctx context.Context, gameID, side string, id uint) (bool, error) {
	col, other := "south_user_id", "north_user_id"
	switch side {
	case "south":
	case "north":
		col, other = other, col
	default:
		return false, fmt.Errorf("models: claim seat: bad side %q", side)
	}
	res := db.Gorm.WithContext(ctx).Model(&Game{}).
		Where("id = ? AND "+col+" IS NULL AND ("+other+" IS NULL OR "+other+" <> ?)", gameID, id).
		UpdateColumn(col, id)
	return res.RowsAffected > 0, res.Error
}

// HistoryFilter selects the games of a player's history.
type HistoryFilter struct {
	// Rules keeps the games of one rule set; "" keeps all.
	Rules string
	// Result keeps the games the player "won", "lost" or "drawn"; "" keeps
	// all.
	Result string
	// Offset and Limit page through the games (newest first); Limit 0
	// means 20.
	Offset, Limit int
}

// HistoryGame is a finished game of a player's history.
type HistoryGame struct {
	Game
	// MoveCount is the number of moves played.
	MoveCount int
}

// Totals counts a player's finished games of one rule set.
type Totals struct {
	Rules            string
	Won, Lost, Drawn int
}

// wonBy and lostBy are the SQL conditions "the account (both ? are its
// id) won / lost this finished game", the storage's half of
// accounts.Outcome: the one way to ask who won in SQL.
const (
	wonBy  = "((south_user_id = ? AND result = 'south') OR (north_user_id = ? AND result = 'north'))"
	lostBy = "((south_user_id = ? AND result = 'north') OR (north_user_id = ? AND result = 'south'))"
)

// playerGames returns the query of the finished games of user id.
func (db *DB) playerGames(ctx context.Context, id uint) *gorm.DB {
	return db.Gorm.WithContext(ctx).Model(&Game{}).
		Where("status = ? AND (south_user_id = ? OR north_user_id = ?)", "over", id, id)
}

// History returns one page of the finished games of user id (newest first)
// with their move counts, and how many games match the filter.
func (db *DB) History(ctx context.Context, id uint, f HistoryFilter) ([]HistoryGame, int64, error) {
	q := db.playerGames(ctx, id)
	if f.Rules != "" {
		q = q.Where("rules = ?", f.Rules)
	}
	switch f.Result {
	case "won":
		q = q.Where(wonBy, id, id)
	case "lost":
		q = q.Where(lostBy, id, id)
	case "drawn":
		q = q.Where("result = 'draw'")
	}
	var total int64
	if err := q.Session(&gorm.Session{}).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	if f.Limit <= 0 {
		f.Limit = 20
	}
	var games []Game
	if err := q.Order("updated_at DESC, id").Offset(f.Offset).Limit(f.Limit).Find(&games).Error; err != nil {
		return nil, 0, err
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.ID
	}
	counts := map[string]int{}
	if len(ids) > 0 {
		var rows []struct {
			GameID string
			N      int
		}
		err := db.Gorm.WithContext(ctx).Model(&Move{}).Select("game_id, COUNT(*) AS n").
			Where("game_id IN ?", ids).Group("game_id").Scan(&rows).Error
		if err != nil {
			return nil, 0, err
		}
		for _, r := range rows {
			counts[r.GameID] = r.N
		}
	}
	out := make([]HistoryGame, len(games))
	for i, g := range games {
		out[i] = HistoryGame{Game: g, MoveCount: counts[g.ID]}
	}
	return out, total, nil
}

// PlayerTotals returns, per rule set (sorted by name), how many finished
// games user id won, lost and drew.
func (db *DB) PlayerTotals(ctx context.Context, id uint) ([]Totals, error) {
	var out []Totals
	err := db.playerGames(ctx, id).Select(`rules,
		SUM(CASE WHEN `+wonBy+` THEN 1 ELSE 0 END) AS won,
		SUM(CASE WHEN `+lostBy+` THEN 1 ELSE 0 END) AS lost,
		SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END) AS drawn`, id, id, id, id).
		Group("rules").Order("rules").Scan(&out).Error
	return out, err
}

// OpenGames returns the games of user id that are not over (waiting for
// the opponent or in play), the latest changed first, at most 50.
func (db *DB) OpenGames(ctx context.Context, id uint) ([]Game, error) {
	var games []Game
	err := db.Gorm.WithContext(ctx).Table("games g").Select("g.*, "+moveLabels+" AS move_labels").
		Where("g.status <> ? AND (g.south_user_id = ? OR g.north_user_id = ?)", "over", id, id).
		Order("g.updated_at DESC, g.id").Limit(50).Find(&games).Error
	return games, err
}
