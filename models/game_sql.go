package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"
)

// The hot path of a move: one query reads the game row with the names of
// its players, one statement writes it. They go straight to pgx (or
// database/sql on SQLite): GORM's reflection costs more than the rest of a
// move.

// gameColumns are the columns of a games row as scanGame reads them: its
// state (stateColumns) and its settings (settingColumns).
const gameColumns = stateColumns + ",\n\t" + settingColumns

// stateColumns are the columns of a games row that may change while the
// game is in play, with the labels of its moves (moveLabels) and the
// seated accounts' names and bot marks (users su and nu): 38.
const stateColumns = `g.id, g.position, g.status, g.result, g.reason, g.version,
	g.south_token, g.north_token, g.end_offer, g.rematch_offer, g.rematch_id,
	g.agreements, g.south_round_seen, g.north_round_seen, g.south_user_id, g.north_user_id,
	` + moveLabels + `, g.resume, g.rounds, g.updated_at, g.south_ms, g.north_ms, g.turn_since, g.deadline,
	g.rated, g.south_rating, g.north_rating, g.unrated, g.aborted_end, g.hints, g.hint, g.takeback_offer,
	su.username, su.deleted_at IS NOT NULL, nu.username, nu.deleted_at IS NOT NULL, su.bot IS TRUE, nu.bot IS TRUE`

// moveLabels is the labels of the moves of game g in ply order, one
// character each ("CdBa"; "" for none), read from its moves: the row does
// not keep them (migration 00121), so that a move's write does not grow
// with the game. The same text on PostgreSQL and SQLite (3.44 or later).
const moveLabels = `COALESCE((SELECT string_agg(m.label, '' ORDER BY m.ply) FROM moves m WHERE m.game_id = g.id), '')`

// settingColumns are the columns of GameSettings: 11.
const settingColumns = `g.rules, g.start_position, g.spectator_key, g.fours, g.created_at,
	g.clock_initial, g.clock_increment, g.clock_days, g.south_computer, g.north_computer, g.computer_instant`

// GameSettings are the columns of a game that nothing changes once it is
// in play (status "playing" or "over"; a waiting game may still get a
// computer opponent): the rules, the start, the watch key, the creation,
// the time control and the computer's seats. A reader may keep them by
// game id and read the rest alone (FindGameFor). The ratings are not among
// them: they are written after the game started, without a new version.
type GameSettings struct {
	Rules, StartPosition, SpectatorKey, Fours string
	CreatedAt                                 time.Time
	ClockInitial, ClockIncrement, ClockDays   int
	SouthComputer, NorthComputer              int
	ComputerInstant                           bool
}

// Settings returns g's settings.
func (g *Game) Settings() GameSettings {
	return GameSettings{Rules: g.Rules, StartPosition: g.StartPosition, SpectatorKey: g.SpectatorKey, Fours: g.Fours,
		CreatedAt: g.CreatedAt, ClockInitial: g.ClockInitial, ClockIncrement: g.ClockIncrement, ClockDays: g.ClockDays,
		SouthComputer: g.SouthComputer, NorthComputer: g.NorthComputer, ComputerInstant: g.ComputerInstant}
}

// setSettings sets g's settings to s.
func (g *Game) setSettings(s GameSettings) {
	g.Rules, g.StartPosition, g.SpectatorKey, g.Fours, g.CreatedAt = s.Rules, s.StartPosition, s.SpectatorKey, s.Fours, s.CreatedAt
	g.ClockInitial, g.ClockIncrement, g.ClockDays = s.ClockInitial, s.ClockIncrement, s.ClockDays
	g.SouthComputer, g.NorthComputer, g.ComputerInstant = s.SouthComputer, s.NorthComputer, s.ComputerInstant
}

// gameFrom is the FROM clause of the game queries.
const gameFrom = ` FROM games g
	LEFT JOIN users su ON su.id = g.south_user_id
	LEFT JOIN users nu ON nu.id = g.north_user_id`

// FindGame returns the game with the given id (without its moves) and its
// seated accounts, in one query; ErrNotFound for no such game (also for a
// string that cannot be an id).
func (db *DB) FindGame(ctx context.Context, id string) (*Game, error) {
	if !ValidKey(id, 12) {
		return nil, ErrNotFound
	}
	return db.findGame(ctx, "g.id", id)
}

// FindGameByKey is FindGame for the key of the game's watch link.
func (db *DB) FindGameByKey(ctx context.Context, key string) (*Game, error) {
	if !ValidKey(key, 16) {
		return nil, ErrNotFound
	}
	return db.findGame(ctx, "g.spectator_key", key)
}

// FindGameHead returns the id, status, version and seats (tokens and
// accounts) of the game with the given id or, when byKey, the key of its
// watch link; the other fields are left empty. ErrNotFound when there is
// none.
func (db *DB) FindGameHead(ctx context.Context, idOrKey string, byKey bool) (*Game, error) {
	q := findHeadByID
	if byKey {
		if !ValidKey(idOrKey, 16) {
			return nil, ErrNotFound
		}
		q = findHeadByKey
	} else if !ValidKey(idOrKey, 12) {
		return nil, ErrNotFound
	}
	var row interface{ Scan(...any) error }
	if db.pool != nil {
		row = db.pool.QueryRow(ctx, q, idOrKey)
	} else {
		row = db.sql.QueryRowContext(ctx, sqliteParams(q), idOrKey)
	}
	var g Game
	var south, north sql.NullInt64
	err := row.Scan(&g.ID, &g.Status, &g.Version, &g.SouthToken, &g.NorthToken, &south, &north)
	if errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	g.SouthUserID, _ = seated(south, sql.NullString{}, false)
	g.NorthUserID, _ = seated(north, sql.NullString{}, false)
	return &g, nil
}

// The queries of FindGameHead.
const (
	headColumns   = "SELECT id, status, version, south_token, north_token, south_user_id, north_user_id FROM games "
	findHeadByID  = headColumns + "WHERE id = $1"
	findHeadByKey = headColumns + "WHERE spectator_key = $1"
)

// findGameBy are the queries of FindGame and FindGameByKey.
var findGameBy = map[string]string{
	"g.id":            "SELECT " + gameColumns + gameFrom + " WHERE g.id = $1",
	"g.spectator_key": "SELECT " + gameColumns + gameFrom + " WHERE g.spectator_key = $1",
}

func (db *DB) findGame(ctx context.Context, column, value string) (*Game, error) {
	var row interface{ Scan(...any) error }
	if db.pool != nil {
		row = db.pool.QueryRow(ctx, findGameBy[column], value)
	} else {
		row = db.sql.QueryRowContext(ctx, sqliteParams(findGameBy[column]), value)
	}
	g, err := scanGame(row)
	if errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	return g, err
}

// scanGame reads a row of gameColumns, then the columns that follow them
// into extra.
func scanGame(row interface{ Scan(...any) error }, extra ...any) (*Game, error) {
	return scanGameWith(row, nil, extra...)
}

// scanGameWith reads a row of gameColumns or, when settings is not nil, a
// row of stateColumns completed with settings; then the columns that
// follow them into extra.
func scanGameWith(row interface{ Scan(...any) error }, settings *GameSettings, extra ...any) (*Game, error) {
	var g Game
	var south, north sql.NullInt64
	var southName, northName sql.NullString
	var southDeleted, northDeleted, southBot, northBot bool
	var since, deadline sql.NullTime
	dest := []any{&g.ID, &g.Position, &g.Status, &g.Result, &g.Reason, &g.Version,
		&g.SouthToken, &g.NorthToken, &g.EndOffer, &g.RematchOffer, &g.RematchID,
		&g.Agreements, &g.SouthRoundSeen, &g.NorthRoundSeen, &south, &north,
		&g.MoveLabels, &g.Resume, &g.Rounds, &g.UpdatedAt, &g.SouthMS, &g.NorthMS, &since, &deadline,
		&g.Rated, &g.SouthRating, &g.NorthRating, &g.Unrated, &g.AbortedEnd, &g.Hints, &g.Hint, &g.TakebackOffer,
		&southName, &southDeleted, &northName, &northDeleted, &southBot, &northBot}
	if settings == nil {
		dest = append(dest, &g.Rules, &g.StartPosition, &g.SpectatorKey, &g.Fours, &g.CreatedAt,
			&g.ClockInitial, &g.ClockIncrement, &g.ClockDays, &g.SouthComputer, &g.NorthComputer, &g.ComputerInstant)
	}
	err := row.Scan(append(dest, extra...)...)
	if err != nil {
		return nil, err
	}
	if settings != nil {
		g.setSettings(*settings)
	}
	g.TurnSince, g.Deadline = utcTime(since), utcTime(deadline)
	g.SouthUserID, g.SouthPlayer = seated(south, southName, southDeleted)
	g.NorthUserID, g.NorthPlayer = seated(north, northName, northDeleted)
	if g.SouthPlayer != nil {
		g.SouthPlayer.Bot = southBot
	}
	if g.NorthPlayer != nil {
		g.NorthPlayer.Bot = northBot
	}
	g.CreatedAt, g.UpdatedAt = g.CreatedAt.UTC(), g.UpdatedAt.UTC()
	return &g, nil
}

// utcTime returns a nullable time read from a row, in UTC; nil for NULL.
func utcTime(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}

// seated returns the account id of a seat and its Player, nil for a guest.
func seated(id sql.NullInt64, name sql.NullString, deleted bool) (*uint, *Player) {
	if !id.Valid {
		return nil, nil
	}
	uid := uint(id.Int64)
	p := &Player{Name: name.String, Deleted: deleted}
	if deleted {
		p.Name = ""
	}
	return &uid, p
}

// updateGame is the write of a change on PostgreSQL, in one statement: the
// game's columns with the version check ($2), the new move when its ply
// ($19) is not 0, the clock ($26-$29), the moves taken back from ply $30 on
// when it is not 0, the end of an aborted game ($31). It notifies nothing: the new version is announced
// after the commit (publisher.go). It returns the new version and the move's id, or no row when the version
// check failed.
const updateGame = `WITH g AS (
	UPDATE games SET rules = $3, start_position = $4, position = $5, status = $6, result = $7, reason = $8,
		version = version + 1, south_token = $9, north_token = $10, spectator_key = $11, end_offer = $12,
		rematch_offer = $13, rematch_id = $14, fours = $15, agreements = $16, south_round_seen = $17,
		north_round_seen = $18, resume = $23, rounds = $24, updated_at = $25,
		south_ms = $26, north_ms = $27, turn_since = $28, deadline = $29, aborted_end = $31,
		sweep_at = CASE WHEN $29::timestamptz IS NULL THEN NULL ELSE LEAST(sweep_at, $29) END
	WHERE id = $1 AND version = $2
	RETURNING id, version
), m AS (
	INSERT INTO moves (game_id, ply, pit, label, position, created_at)
	SELECT id, $19, $20, $21, $22, $25 FROM g WHERE $19::integer > 0
	RETURNING id
), d AS (
	DELETE FROM moves WHERE $30::integer > 0 AND game_id IN (SELECT id FROM g) AND ply >= $30
)
SELECT g.version, (SELECT id FROM m) FROM g`

// updateGameSQLite is the update of updateGame on SQLite (the move is a
// second statement of the same transaction).
const updateGameSQLite = `UPDATE games SET rules = ?3, start_position = ?4, position = ?5, status = ?6, result = ?7,
	reason = ?8, version = version + 1, south_token = ?9, north_token = ?10, spectator_key = ?11,
	end_offer = ?12, rematch_offer = ?13, rematch_id = ?14, fours = ?15, agreements = ?16,
	south_round_seen = ?17, north_round_seen = ?18, resume = ?19, rounds = ?20,
	updated_at = ?21, south_ms = ?22, north_ms = ?23, turn_since = ?24, deadline = ?25, aborted_end = ?26,
	sweep_at = CASE WHEN ?25 IS NULL THEN NULL ELSE MIN(COALESCE(sweep_at, ?25), ?25) END
	WHERE id = ?1 AND version = ?2`

// UpdateGame writes g's columns and, when newMove is not nil, inserts
// newMove for g (or, when g.PopFrom is not 0, deletes the moves from that
// ply on: a takeback), atomically, provided the stored row still has
// g.Version; then it announces the new version to the broker of every
// instance. Otherwise (another request changed the game, or the game does
// not exist) nothing is written and the error wraps ErrConflict; a newMove whose ply
// is already stored is refused the same way.
//
// On PostgreSQL this is one statement (one round trip), its event handed
// to the instance's publisher after the commit (publisher.go); on SQLite
// one transaction, then the event goes to this process's subscribers (the
// only instance on the file).
//
// On success g.Version is incremented and g.UpdatedAt set; newMove.GameID,
// ID and CreatedAt are set. g.Moves is left as it is. ID, CreatedAt and the
// accounts (SouthUserID, NorthUserID) of g are never written.
func (db *DB) UpdateGame(ctx context.Context, g *Game, newMove *Move) error {
	now := db.Gorm.NowFunc()
	m := Move{GameID: g.ID}
	if newMove != nil {
		m = *newMove
		m.GameID, m.CreatedAt = g.ID, now
	}
	var err error
	if db.pool != nil {
		var id *int64
		err = db.pool.QueryRow(ctx, updateGame, g.ID, g.Version, g.Rules, g.StartPosition, g.Position, g.Status,
			g.Result, g.Reason, g.SouthToken, g.NorthToken, g.SpectatorKey, g.EndOffer, g.RematchOffer, g.RematchID,
			g.Fours, g.Agreements, g.SouthRoundSeen, g.NorthRoundSeen,
			m.Ply, m.Pit, m.Label, m.Position, g.Resume, g.Rounds, now,
			g.SouthMS, g.NorthMS, g.TurnSince, g.Deadline, g.PopFrom, g.AbortedEnd).Scan(new(int), &id)
		if id != nil {
			m.ID = uint(*id)
		}
	} else {
		err = db.updateSQLite(ctx, g, &m, newMove != nil, now)
	}
	return db.stored(g, newMove, m, now, err)
}

// moveGame is the write of a move on PostgreSQL, in one statement: only
// the columns a move may change (the position, the end, the offer to end
// that a move withdraws, the caches, the clock) with the version check
// ($2), and the move ($11-$13; its position is the game's, $3). None of
// them is indexed, so the update stays on the row's page (HOT): the
// sweeper's indexed sweep_at changes only when the new deadline ($17) is
// before it, or the game ends (NULL), as in every write of a change.
// moveGameSeen(visitor, accounts) adds the checks of a move written from
// a kept state (Seen).
const (
	moveGame    = moveGameSet + `WHERE id = $1 AND version = $2` + moveGameInsert
	moveGameSet = `WITH g AS (
	UPDATE games SET position = $3, status = $4, result = $5, reason = $6, version = version + 1,
		end_offer = $7, resume = $8, rounds = $9, updated_at = $10,
		south_ms = $14, north_ms = $15, turn_since = $16, deadline = $17,
		sweep_at = CASE WHEN $17::timestamptz IS NULL THEN NULL ELSE LEAST(sweep_at, $17) END
	`
	moveGameInsert = `
	RETURNING id, version
), m AS (
	INSERT INTO moves (game_id, ply, pit, label, position, created_at)
	SELECT id, $11, $12, $13, $3, $10 FROM g
	RETURNING id
)
SELECT (SELECT id FROM m) FROM g`
	// seenRow is Seen's condition on the games row being updated
	// ($18-$25: the row's own columns).
	seenRow = `south_user_id IS NOT DISTINCT FROM $18 AND north_user_id IS NOT DISTINCT FROM $19
		AND rated = $20 AND unrated = $21 AND south_rating = $22 AND north_rating = $23 AND hints = $24 AND hint = $25`
	// seenVisitor checks the guest's seat of a visitor ($A: the visitor's
	// hash, $B: the seat's token hash as read); seenAccounts the seated
	// accounts' session epochs ($A: South's, $B: North's).
	seenVisitor  = `COALESCE((SELECT vs.token_hash FROM visitor_seats vs WHERE vs.game_id = $1 AND vs.visitor_id = $A), '') = $B`
	seenAccounts = `COALESCE((SELECT CASE WHEN u.deleted_at IS NULL THEN u.epoch ELSE -1 END FROM users u WHERE u.id = games.south_user_id), 0) = $A
		AND COALESCE((SELECT CASE WHEN u.deleted_at IS NULL THEN u.epoch ELSE -1 END FROM users u WHERE u.id = games.north_user_id), 0) = $B`
)

// moveGameSeens holds the texts of moveGameSeen by [visitor][accounts]:
// [0] PostgreSQL's, [1] SQLite's update.
var moveGameSeens = func() (q [2][2][2]string) {
	for v := range 2 {
		for a := range 2 {
			q[v][a][0] = moveGameSeen(v == 1, a == 1)
			q[v][a][1] = moveGameSQLite + ` AND ` + strings.ReplaceAll(sqliteParams(seenCondition(v == 1, a == 1)), "IS NOT DISTINCT FROM", "IS")
		}
	}
	return q
}()

// moveGameSeen returns the statement of a move written from a kept state:
// moveGame that also checks the row's columns of Seen ($18-$25) and, when
// asked, the visitor's seat ($26, $27) and then the accounts' epochs (the
// next two). Each text checks only what it is asked, with no condition
// on a parameter (such as a check skipped when $26 is empty): PostgreSQL's custom plan of
// such a condition folds it away, is cheaper than the generic plan, and so
// the prepared statement was planned again on every move (29 % of a
// move's CPU in PostgreSQL); without, the generic plan costs what a custom
// one does and is kept after the fifth execution of a connection.
func moveGameSeen(visitor, accounts bool) string {
	return moveGameSet + `WHERE id = $1 AND version = $2 AND ` + seenCondition(visitor, accounts) + moveGameInsert
}

// seenCondition is moveGameSeen's condition (besides the version).
func seenCondition(visitor, accounts bool) string {
	c, n := seenRow, 26
	if visitor {
		c += "\n\t\tAND " + strings.NewReplacer("$A", "$26", "$B", "$27").Replace(seenVisitor)
		n = 28
	}
	if accounts {
		c += "\n\t\tAND " + strings.NewReplacer("$A", "$"+strconv.Itoa(n), "$B", "$"+strconv.Itoa(n+1)).Replace(seenAccounts)
	}
	return c
}

// moveGameSQLite is moveGame's update on SQLite (the move is a second
// statement of the same transaction); moveGameSeens[..][..][1] are
// moveGameSeen's.
const moveGameSQLite = `UPDATE games SET position = ?3, status = ?4, result = ?5, reason = ?6, version = version + 1,
	end_offer = ?7, resume = ?8, rounds = ?9, updated_at = ?10,
	south_ms = ?14, north_ms = ?15, turn_since = ?16, deadline = ?17,
	sweep_at = CASE WHEN ?17 IS NULL THEN NULL ELSE MIN(COALESCE(sweep_at, ?17), ?17) END
	WHERE id = ?1 AND version = ?2`

// Seen is what a move written from a kept state of its game (one an
// instance stored or read before, not read again for the move) checks is
// still so, besides the version, in the same statement (MoveGame): the
// columns that change without a new version (the seated accounts, the
// ratings, the hints: the row's own, passed in the Game written) and what
// decided the mover's seat (the guest's seat of the visitor, the seated
// accounts' session epochs). When one is no longer so nothing is written
// and the error wraps ErrConflict: the game must be read again.
type Seen struct {
	// Visitor is the hash of the browser's visitor id (HashToken) whose
	// seat was decided from SeatHash, the token hash of its kept seat as
	// read ("" for none); Visitor "" checks neither.
	Visitor, SeatHash string
	// Accounts asks for the check of Epochs: the seated accounts' session
	// epochs (User.Epoch) as read, by seat (South, North): 0 for a seat
	// without an account, -1 for a deleted account.
	Accounts bool
	Epochs   [2]int
}

// MoveGame is UpdateGame for a move: it writes only the columns a move
// may change (Position, Status, Result, Reason, EndOffer, MoveLabels,
// Resume, Rounds, the clock: SouthMS, NorthMS, TurnSince, Deadline) and
// inserts m, whose Position must be g.Position; any other change of g is
// not stored. Same version check, errors and announcement as UpdateGame;
// with seen, also its checks (Seen), in the same one statement on
// PostgreSQL (one transaction on SQLite).
func (db *DB) MoveGame(ctx context.Context, g *Game, m *Move, seen *Seen) error {
	now := db.Gorm.NowFunc()
	mv := *m
	mv.GameID, mv.CreatedAt = g.ID, now
	args := []any{g.ID, g.Version, g.Position, g.Status, g.Result, g.Reason,
		g.EndOffer, g.Resume, g.Rounds, now, mv.Ply, mv.Pit, mv.Label,
		g.SouthMS, g.NorthMS, g.TurnSince, g.Deadline}
	q, qs := moveGame, moveGameSQLite
	if seen != nil {
		args = append(args, g.SouthUserID, g.NorthUserID, g.Rated, g.Unrated, g.SouthRating, g.NorthRating,
			g.Hints, g.Hint)
		v, a := 0, 0
		if seen.Visitor != "" {
			args = append(args, seen.Visitor, seen.SeatHash)
			v = 1
		}
		if seen.Accounts {
			args = append(args, seen.Epochs[0], seen.Epochs[1])
			a = 1
		}
		q, qs = moveGameSeens[v][a][0], moveGameSeens[v][a][1]
	}
	var err error
	if db.pool != nil {
		var id int64
		err = db.pool.QueryRow(ctx, q, args...).Scan(&id)
		mv.ID = uint(id)
	} else {
		err = db.inTx(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, qs, args...)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				return ErrConflict
			}
			return insertMove(ctx, tx, &mv)
		})
	}
	return db.stored(g, m, mv, now, err)
}

// stored ends a versioned write of g (with the move mv when m is not nil)
// whose error is err: a refused version check is ErrConflict; on success
// g and m are brought up to date and the new version is announced.
func (db *DB) stored(g *Game, m *Move, mv Move, now time.Time, err error) error {
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) || errors.Is(err, ErrConflict) || db.duplicate(err) {
			return fmt.Errorf("models: update game %s at version %d: %w", g.ID, g.Version, ErrConflict)
		}
		return fmt.Errorf("models: update game %s: %w", g.ID, err)
	}
	g.Version++
	g.UpdatedAt = now
	if m != nil {
		*m = mv
	}
	db.announce(g.ID, g.Version)
	return nil
}

// inTx runs f in a transaction of the database/sql handle (SQLite) and
// commits it when f succeeds.
func (db *DB) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// insertMove inserts m in tx (SQLite) and sets its ID.
func insertMove(ctx context.Context, tx *sql.Tx, m *Move) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, ply, pit, label, position, created_at)
		VALUES (?1, ?2, ?3, ?4, ?5, ?6)`, m.GameID, m.Ply, m.Pit, m.Label, m.Position, m.CreatedAt)
	if err != nil {
		return err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	m.ID = uint(id)
	return nil
}

// updateSQLite is UpdateGame's transaction on SQLite.
func (db *DB) updateSQLite(ctx context.Context, g *Game, m *Move, insert bool, now time.Time) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, updateGameSQLite, g.ID, g.Version, g.Rules, g.StartPosition, g.Position,
			g.Status, g.Result, g.Reason, g.SouthToken, g.NorthToken, g.SpectatorKey, g.EndOffer, g.RematchOffer,
			g.RematchID, g.Fours, g.Agreements, g.SouthRoundSeen, g.NorthRoundSeen, g.Resume, g.Rounds, now,
			g.SouthMS, g.NorthMS, g.TurnSince, g.Deadline, g.AbortedEnd)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return ErrConflict
		}
		if g.PopFrom > 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2`, g.ID, g.PopFrom); err != nil {
				return err
			}
		}
		if !insert {
			return nil
		}
		m.CreatedAt = now
		return insertMove(ctx, tx, m)
	})
}

// duplicate reports whether err of a query is a unique constraint
// violation, as the dialect's GORM error translator says.
func (db *DB) duplicate(err error) bool {
	if t, ok := db.Gorm.Dialector.(gorm.ErrorTranslator); ok {
		err = t.Translate(err)
	}
	return errors.Is(err, gorm.ErrDuplicatedKey)
}

// PoolAcquires returns how many times a PostgreSQL connection was taken
// from the pool: once for every query or statement sent, so it counts the
// round trips of the hot path (tests and load tests); 0 on SQLite.
func (db *DB) PoolAcquires() int64 {
	if db.pool == nil {
		return 0
	}
	return db.pool.Stat().AcquireCount()
}

// sqliteParams rewrites the numbered parameters $1, $2, ... of a
// PostgreSQL query as SQLite's ?1, ?2, ...
func sqliteParams(q string) string {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if q[i] == '$' && i+1 < len(q) && q[i+1] >= '0' && q[i+1] <= '9' {
			b.WriteByte('?')
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}
