package models

import (
	"context"
)

// playingQuery lists the games in play between two accounts, the newest
// first (the partial index games_people_playing of migration 00022; none
// of its columns changes with a move, so moves stay HOT updates).
const playingQuery = "SELECT " + gameColumns + gameFrom + `
	WHERE g.status = 'playing' AND g.south_user_id IS NOT NULL AND g.north_user_id IS NOT NULL`

// PlayingGames returns at most limit games in play between two accounts
// (without their moves), the newest first: the games a visitor may watch
// from the games-now page. Games with a guest are private to their link.
func (db *DB) PlayingGames(ctx context.Context, limit int) ([]*Game, error) {
	return db.playing(ctx, playingQuery+` ORDER BY g.created_at DESC LIMIT $1`, limit)
}

// PlayingGamesOf returns at most limit of the games PlayingGames lists
// that account user plays, the newest first.
func (db *DB) PlayingGamesOf(ctx context.Context, user uint, limit int) ([]*Game, error) {
	return db.playing(ctx, playingQuery+` AND (g.south_user_id = $1 OR g.north_user_id = $1)
	ORDER BY g.created_at DESC LIMIT $2`, user, limit)
}

// PlayingGamesFollowed returns at most limit of the games PlayingGames
// lists that a player account follower follows plays, the newest first.
func (db *DB) PlayingGamesFollowed(ctx context.Context, follower uint, limit int) ([]*Game, error) {
	return db.playing(ctx, playingQuery+` AND (g.south_user_id IN (SELECT followed_id FROM follows WHERE follower_id = $1)
	  OR g.north_user_id IN (SELECT followed_id FROM follows WHERE follower_id = $1))
	ORDER BY g.created_at DESC LIMIT $2`, follower, limit)
}

// playing runs q, a query of gameColumns with PostgreSQL's $n parameters.
func (db *DB) playing(ctx context.Context, q string, args ...any) ([]*Game, error) {
	var games []*Game
	if db.pool != nil {
		rows, err := db.pool.Query(ctx, q, args...)
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
	rows, err := db.sql.QueryContext(ctx, sqliteParams(q), args...) // $n is ?n: numbered, as in PostgreSQL
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
