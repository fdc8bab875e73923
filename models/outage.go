package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The site's heartbeat (table heartbeat, one row): every instance's
// sweeper writes it every second while the database is in reach (every
// 2 s while no game in play has a deadline: no clock to move on), so a
// gap in it is time when no instance could serve a move: the database was
// out of reach, or every instance was down or restarting. One instance of
// several down is no gap (the others write it).

// Shift is a game whose clock Beat moved on, with its new version.
type Shift struct {
	ID      string
	Version int
}

// The statements of Beat.
const (
	heartbeatRead = `SELECT seen_at FROM heartbeat WHERE id = 1`
	heartbeatLock = heartbeatRead + ` FOR UPDATE`
	// heartbeatWrite never moves the heartbeat back (an instance whose
	// clock is behind another's).
	heartbeatWrite = `INSERT INTO heartbeat (id, seen_at) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at WHERE heartbeat.seen_at < excluded.seen_at`
	// shiftClocks moves the turn start and deadline of every game in play
	// with a deadline on by the time of the outage that its turn lived
	// through (from the later of its start, $2 the last heartbeat, to $1
	// now) plus the grace ($3 microseconds), as of a new version (a page
	// shows the new clock: Beat announces it after the commit).
	// heartbeatPulse is the heartbeat of a second with no gap, in one
	// statement: it writes nothing when the last heartbeat is older than
	// $2 (Beat handles the gap), and tells whether a game is due for the
	// sweep (dueSelect's condition) and whether any game in play has a
	// deadline (sweep_at is set with it, and the partial index games_sweep
	// holds only those).
	heartbeatPulse = `UPDATE heartbeat SET seen_at = GREATEST(seen_at, $1) WHERE id = 1 AND seen_at >= $2
		RETURNING EXISTS (SELECT 1 FROM games WHERE sweep_at <= $1 AND status = 'playing' AND (sweep_lease IS NULL OR sweep_lease <= $1)),
			EXISTS (SELECT 1 FROM games WHERE sweep_at IS NOT NULL AND status = 'playing')`
	shiftClocks = `UPDATE games SET
		deadline = deadline + GREATEST($1::timestamptz - GREATEST(turn_since, $2::timestamptz), interval '0') + $3::bigint * interval '1 microsecond',
		turn_since = turn_since + GREATEST($1::timestamptz - GREATEST(turn_since, $2::timestamptz), interval '0') + $3::bigint * interval '1 microsecond',
		version = version + 1
	WHERE status = 'playing' AND sweep_at IS NOT NULL AND deadline IS NOT NULL AND turn_since IS NOT NULL
	RETURNING id, version`
)

// Beat writes the heartbeat at now. When the last one (by any instance)
// is older than away, the site was away since then: the clock of every
// game in play is moved on by the part of the gap its turn lived through,
// plus grace, in the same transaction (nobody is charged the outage, and
// no deadline falls during it or within grace after it). It returns the
// gap (0 when there was none) and the games moved on; their new versions
// are announced to every instance.
func (db *DB) Beat(ctx context.Context, now time.Time, away, grace time.Duration) (time.Duration, []Shift, error) {
	now = now.UTC().Truncate(time.Microsecond)
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, nil, err
	}
	defer tx.Rollback()
	read := heartbeatLock
	if db.Dialect == SQLite {
		// One instance on the file; the write below locks it.
		read = heartbeatRead
	}
	var last sql.NullTime
	if err := tx.QueryRowContext(ctx, read).Scan(&last); err != nil && err != sql.ErrNoRows {
		return 0, nil, fmt.Errorf("models: heartbeat: %w", err)
	}
	var shifted []Shift
	gap := time.Duration(0)
	if last.Valid && now.Sub(last.Time) > away {
		gap = now.Sub(last.Time)
		if db.Dialect == SQLite {
			shifted, err = shiftSQLite(ctx, tx, now, last.Time.UTC(), grace)
		} else {
			shifted, err = shiftPostgres(ctx, tx, now, last.Time.UTC(), grace)
		}
		if err != nil {
			return 0, nil, fmt.Errorf("models: heartbeat: shift the clocks: %w", err)
		}
	}
	q := heartbeatWrite
	if db.Dialect == SQLite {
		q = sqliteParams(q)
	}
	if _, err := tx.ExecContext(ctx, q, now); err != nil {
		return 0, nil, fmt.Errorf("models: heartbeat: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, nil, fmt.Errorf("models: heartbeat: %w", err)
	}
	for _, s := range shifted {
		db.announce(s.ID, s.Version)
	}
	return gap, shifted, nil
}

// Pulse writes the heartbeat at now in one statement when the last one
// is at most away old (no gap, so nothing else to do: an idle site's
// heartbeat is one statement) and reports whether it did (beaten),
// whether a game in play is past its deadline and not leased (due:
// DueGames would return it) and whether any game in play has a deadline
// at all (clocks: a clock or the first move's limit runs somewhere; false
// when no game can end by itself nor have its clock moved on by an
// outage). When it did not (no heartbeat yet, a gap, or SQLite, where it
// always leaves the heartbeat to Beat), the caller calls Beat.
func (db *DB) Pulse(ctx context.Context, now time.Time, away time.Duration) (beaten, due, clocks bool, err error) {
	if db.Dialect == SQLite {
		return false, false, false, nil
	}
	now = now.UTC().Truncate(time.Microsecond)
	// On the pool itself: database/sql would ping a connection idle for a
	// second before the statement (pgx's ResetSession), doubling it.
	err = db.pool.QueryRow(ctx, heartbeatPulse, now, now.Add(-away)).Scan(&due, &clocks)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return false, false, false, nil
	case err != nil:
		return false, false, false, fmt.Errorf("models: heartbeat: %w", err)
	}
	return true, due, clocks, nil
}

// shiftPostgres is Beat's move of the clocks on PostgreSQL: one statement.
func shiftPostgres(ctx context.Context, tx *sql.Tx, now, last time.Time, grace time.Duration) ([]Shift, error) {
	rows, err := tx.QueryContext(ctx, shiftClocks, now, last, grace.Microseconds())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Shift
	for rows.Next() {
		var s Shift
		if err := rows.Scan(&s.ID, &s.Version); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// shiftSQLite is Beat's move of the clocks on SQLite, which has no
// interval arithmetic on its text times: each game is read and written.
func shiftSQLite(ctx context.Context, tx *sql.Tx, now, last time.Time, grace time.Duration) ([]Shift, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, version, turn_since, deadline FROM games
		WHERE status = 'playing' AND sweep_at IS NOT NULL AND deadline IS NOT NULL AND turn_since IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	type clock struct {
		id              string
		version         int
		since, deadline time.Time
	}
	var games []clock
	for rows.Next() {
		var c clock
		if err := rows.Scan(&c.id, &c.version, &c.since, &c.deadline); err != nil {
			rows.Close()
			return nil, err
		}
		games = append(games, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]Shift, 0, len(games))
	for _, c := range games {
		shift := max(now.Sub(later(c.since.UTC(), last)), 0) + grace
		if _, err := tx.ExecContext(ctx, `UPDATE games SET turn_since = ?1, deadline = ?2, version = version + 1 WHERE id = ?3`,
			c.since.UTC().Add(shift), c.deadline.UTC().Add(shift), c.id); err != nil {
			return nil, err
		}
		out = append(out, Shift{ID: c.id, Version: c.version + 1})
	}
	return out, nil
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
