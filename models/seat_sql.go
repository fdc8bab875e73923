package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// GameVisitor is what FindGameFor reads besides the game: what decides the
// seat of the visitor who asked, in the same query.
type GameVisitor struct {
	// SeatHash is the token hash of the seat the visitor holds in the game
	// (VisitorSeat.TokenHash), "" for none.
	SeatHash string
	// SouthEpoch and NorthEpoch are the session epochs (User.Epoch) of
	// the seated accounts, 0 for a seat without one.
	SouthEpoch, NorthEpoch int
}

// findGameFor is the query of FindGameFor: the game's row and its seated
// accounts (gameColumns), their epochs and the visitor's seat;
// findStateFor the same without the settings (stateColumns).
const (
	findGameFor  = "SELECT " + gameColumns + seatFor
	findStateFor = "SELECT " + stateColumns + seatFor
	seatFor      = `, COALESCE(su.epoch, 0), COALESCE(nu.epoch, 0), COALESCE(vs.token_hash, '')` + gameFrom + `
	LEFT JOIN visitor_seats vs ON vs.game_id = g.id AND vs.visitor_id = $2
	WHERE g.id = $1`
)

// FindGameFor is FindGame with what decides the seat of visitor (the
// cookie's visitor id as NewToken made it, "" for none): the seat it
// holds and the epochs of the seated accounts, in the same one query.
// With settings, the game's as a reader kept them (GameSettings), the
// query reads the other columns only. ErrNotFound for no such game.
func (db *DB) FindGameFor(ctx context.Context, id, visitor string, settings *GameSettings) (*Game, GameVisitor, error) {
	var v GameVisitor
	if !ValidKey(id, 12) {
		return nil, v, ErrNotFound
	}
	hash := ""
	if visitor != "" {
		hash = HashToken(visitor)
	}
	q := findGameFor
	if settings != nil {
		q = findStateFor
	}
	var row interface{ Scan(...any) error }
	if db.pool != nil {
		row = db.pool.QueryRow(ctx, q, id, hash)
	} else {
		row = db.sql.QueryRowContext(ctx, sqliteParams(q), id, hash)
	}
	g, err := scanGameWith(row, settings, &v.SouthEpoch, &v.NorthEpoch, &v.SeatHash)
	if errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows) {
		return nil, v, ErrNotFound
	}
	if err != nil {
		return nil, v, fmt.Errorf("models: game %s: %w", id, err)
	}
	return g, v, nil
}
