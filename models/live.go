package models

import (
	"context"
)

// playingQuery lists the games in play between two accounts, the newest
// first (the partial index games_people_playing of migration 00022; none
// of its columns changes with a move, so moves stay HOT updates).
const playingQuery = "SELECT " + gameColumns + gameFrom + `
	WHERE g.status = 'playing' AND g.south_user_id IS NOT NULL AND g.north_user_id IS NOT NULL
	ORDER BY g.created_at DESC LIMIT $1`

// PlayingGames returns at most limit games in play between two accounts
// (without their moves), the newest first: the games a visitor may watch
// from the games-now page. Games with a guest are private to their link.
func (db *DB) PlayingGames(ctx context.Context, limit int) ([]*Game, error) {
	var games []*Game
	if db.pool != nil {
		rows, err := db.pool.Query(ctx, playingQuery, limit)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			g, err := scanGame(rows)
			if err != nil {
				return nil, err
			}
			games = append(games, g)
		}
		return games, rows.Err()
	}
	rows, err := db.sql.QueryContext(ctx, sqliteParams(playingQuery), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, rows.Err()
}
