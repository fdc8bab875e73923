package models

import (
	"context"
	"time"

	"gorm.io/gorm/clause"
)

// dueGames leases the games past their deadline to one sweeper. On
// PostgreSQL FOR UPDATE SKIP LOCKED hands each row to one of the instances
// that sweep at the same moment; the lease then keeps the others off a due
// game until it ends, and lets another instance take the game over when
// the one that leased it stopped before ending it. The games are found by
// their indexed sweep_at (at or before the deadline, migration 00125): one
// whose sweep_at passed but whose deadline did not (its moves put the
// deadline later) is not leased, and its sweep_at is raised to its
// deadline, so a move of a clocked game need not change an index.
const dueSelect = `SELECT id FROM games
	WHERE sweep_at <= $1 AND status = 'playing' AND (sweep_lease IS NULL OR sweep_lease <= $1)
	ORDER BY sweep_at LIMIT $3`

// dueSet is dueGames' update of each game found: leased when due, else
// its sweep_at raised to its deadline (NULL with it).
const dueSet = `UPDATE games SET
	sweep_lease = CASE WHEN deadline <= $1 THEN $2 ELSE sweep_lease END,
	sweep_at = CASE WHEN deadline <= $1 THEN sweep_at ELSE deadline END
	WHERE id IN (`

// The statements of DueGames.
var (
	dueGames       = dueSet + dueSelect + ` FOR UPDATE SKIP LOCKED) RETURNING id, COALESCE(deadline <= $1, false)`
	dueGamesSQLite = sqliteParams(dueSet + dueSelect + `) RETURNING id, COALESCE(deadline <= $1, false)`)
)

// DueGames returns the ids of at most limit games in play whose Deadline
// is at or before now, and leases them until now+lease: until then no
// other call returns them, so one sweeper acts for each game. A game whose
// lease ran out without its end being stored is returned again. One
// statement (on SQLite, where one instance serves the file, without the
// row locks). The games it looked at that are not due yet (dueGames) count
// in limit.
func (db *DB) DueGames(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]string, error) {
	q := dueGames
	if db.Dialect == SQLite {
		q = dueGamesSQLite
	}
	rows, err := db.sql.QueryContext(ctx, q, now.UTC(), now.UTC().Add(lease), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		var due bool
		if err := rows.Scan(&id, &due); err != nil {
			return nil, err
		}
		if due {
			ids = append(ids, id)
		}
	}
	return ids, rows.Err()
}

// Presence is when a player of a game last had its page open (table
// presence): its event stream or its page's poll refreshes it.
type Presence struct {
	GameID string    `gorm:"primaryKey"`
	Side   string    `gorm:"primaryKey"` // "south" or "north"
	SeenAt time.Time // UTC
}

// TableName is the table of Presence.
func (Presence) TableName() string { return "presence" }

// SeePlayer records that the player of game gameID's side ("south",
// "north") has the game open at time at.
func (db *DB) SeePlayer(ctx context.Context, gameID, side string, at time.Time) error {
	p := Presence{GameID: gameID, Side: side, SeenAt: at.UTC()}
	return db.Gorm.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "game_id"}, {Name: "side"}},
		DoUpdates: clause.AssignmentColumns([]string{"seen_at"}),
	}).Create(&p).Error
}

// LastSeen returns when each side of game gameID was last seen, by side
// name; a side never seen is missing.
func (db *DB) LastSeen(ctx context.Context, gameID string) (map[string]time.Time, error) {
	var rows []Presence
	if err := db.Gorm.WithContext(ctx).Where("game_id = ?", gameID).Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make(map[string]time.Time, len(rows))
	for _, r := range rows {
		out[r.Side] = r.SeenAt.UTC()
	}
	return out, nil
}
