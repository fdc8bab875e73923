package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Rating is a player's Glicko-2 rating in one category (table ratings):
// a rule set and a speed, "abapa-realtime", "wari-correspondence".
type Rating struct {
	UserID   uint   `gorm:"primaryKey"`
	Category string `gorm:"primaryKey"`
	// Rating, Deviation and Volatility are on the Glicko scale (1500,
	// 350, 0.06 for a new player).
	Rating, Deviation, Volatility float64
	// Games counts the rated games played in the category.
	Games     int
	UpdatedAt time.Time
}

// RatingChange is the rating of a player after a rated game (table
// rating_history); a game has at most one per player.
type RatingChange struct {
	ID                uint `gorm:"primaryKey"`
	GameID            string
	UserID            uint
	Category          string
	Rating, Deviation float64
	CreatedAt         time.Time
}

// TableName is the table of RatingChange.
func (RatingChange) TableName() string { return "rating_history" }

// Ratings returns the ratings of the given accounts in category, by
// account; an account without one is missing.
func (db *DB) Ratings(ctx context.Context, category string, ids []uint) (map[uint]Rating, error) {
	out := map[uint]Rating{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []Rating
	err := db.Gorm.WithContext(ctx).Where("category = ? AND user_id IN ?", category, ids).Find(&rows).Error
	for _, r := range rows {
		out[r.UserID] = r
	}
	return out, err
}

// UserRatings returns every rating of account id, by category name.
func (db *DB) UserRatings(ctx context.Context, id uint) ([]Rating, error) {
	var rows []Rating
	err := db.Gorm.WithContext(ctx).Where("user_id = ?", id).Order("category").Find(&rows).Error
	return rows, err
}

// RatingHistory returns the last limit ratings of account id in category
// after each rated game, oldest first.
func (db *DB) RatingHistory(ctx context.Context, id uint, category string, limit int) ([]RatingChange, error) {
	var rows []RatingChange
	err := db.Gorm.WithContext(ctx).Where("user_id = ? AND category = ?", id, category).
		Order("created_at DESC, id DESC").Limit(limit).Find(&rows).Error
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
		rows[i], rows[j] = rows[j], rows[i]
	}
	return rows, err
}

// Leader is a row of a leaderboard: a rating with its player's name.
type Leader struct {
	Rating
	Username string
	// Bot marks a bot's account (read with Username).
	Bot bool
}

// Leaderboard returns the best limit ratings of category, highest first,
// of accounts not deleted that played at least minGames rated games, the
// last of them in the last window (by the database's clock, which stamps
// the ratings): of bots only when bots, else of people only (bots are
// rated in a pool of their own, issue 35).
func (db *DB) Leaderboard(ctx context.Context, category string, bots bool, minGames int, window time.Duration, limit int) ([]Leader, error) {
	since := db.Gorm.NowFunc().Add(-window)
	var rows []Leader
	err := db.Gorm.WithContext(ctx).Table("ratings r").Select("r.*, u.username, u.bot").
		Joins("JOIN users u ON u.id = r.user_id AND u.deleted_at IS NULL").
		Where("r.category = ? AND r.games >= ? AND r.updated_at >= ? AND u.bot = ?", category, minGames, since.UTC(), bots).
		Order("r.rating DESC, r.user_id").Limit(limit).Scan(&rows).Error
	return rows, err
}

// ApplyRatings applies the result of rated game gameID to the ratings of
// its two players ids (South, North) in category, once: in one
// transaction it reads both ratings (a new player's is fresh, locked on
// PostgreSQL so that concurrent games of a player are applied one after
// the other), lets update work out the new ones, records them in
// rating_history and writes them. The unique key (game_id, user_id) of
// rating_history makes a second application of the same game fail with
// ErrConflict, changing nothing.
func (db *DB) ApplyRatings(ctx context.Context, gameID, category string, ids [2]uint, fresh Rating,
	update func(old [2]Rating) [2]Rating) error {
	now := db.Gorm.NowFunc()
	err := db.Gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for _, id := range ids {
			r := fresh
			r.UserID, r.Category, r.UpdatedAt = id, category, now
			if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&r).Error; err != nil {
				return err
			}
		}
		q := tx.Where("category = ? AND user_id IN ?", category, ids[:]).Order("user_id")
		if db.Dialect == Postgres {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		var rows []Rating
		if err := q.Find(&rows).Error; err != nil {
			return err
		}
		var old [2]Rating
		for _, r := range rows {
			for i, id := range ids {
				if r.UserID == id {
					old[i] = r
				}
			}
		}
		next := update(old)
		for i, id := range ids {
			ch := RatingChange{GameID: gameID, UserID: id, Category: category,
				Rating: next[i].Rating, Deviation: next[i].Deviation, CreatedAt: now}
			if err := tx.Create(&ch).Error; err != nil {
				return err
			}
			err := tx.Model(&Rating{}).Where("user_id = ? AND category = ?", id, category).Updates(map[string]any{
				"rating": next[i].Rating, "deviation": next[i].Deviation, "volatility": next[i].Volatility,
				"games": gorm.Expr("games + 1"), "updated_at": now}).Error
			if err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return fmt.Errorf("models: ratings of game %s: %w", gameID, ErrConflict)
	}
	return err
}

// UnratedGames returns the ids of at most limit rated games that ended
// with a result since the given time and whose result no rating holds yet
// (an instance stopped between storing the end and applying it).
func (db *DB) UnratedGames(ctx context.Context, since time.Time, limit int) ([]string, error) {
	var ids []string
	err := db.Gorm.WithContext(ctx).Model(&Game{}).
		Where("rated AND status = 'over' AND result <> '' AND updated_at >= ?", since.UTC()).
		Where("NOT EXISTS (SELECT 1 FROM rating_history h WHERE h.game_id = games.id)").
		Order("updated_at").Limit(limit).Pluck("id", &ids).Error
	return ids, err
}

// SetMoveSound stores whether account id hears a sound at the opponent's
// moves.
func (db *DB) SetMoveSound(ctx context.Context, id uint, on bool) error {
	return db.updateUser(ctx, id, map[string]any{"move_sound": on})
}

// SetGameRatings writes the ratings shown for the players of game id
// (Game.SouthRating, NorthRating), without a new version.
func (db *DB) SetGameRatings(ctx context.Context, id, south, north string) error {
	return db.Gorm.WithContext(ctx).Model(&Game{}).Where("id = ?", id).
		Updates(map[string]any{"south_rating": south, "north_rating": north}).Error
}

// PairRatedGames counts the rated games, not aborted, between the accounts
// a and b (in either seat) created in the last window (by the database's
// clock, which stamps the games) and before game id (in the order of
// creation, then of id; "" for all), in every category: the per-pair
// limit of rated games (game.PairGames).
func (db *DB) PairRatedGames(ctx context.Context, a, b uint, window time.Duration, id string) (int64, error) {
	since := db.Gorm.NowFunc().Add(-window).UTC()
	q := db.Gorm.WithContext(ctx).Model(&Game{}).
		Where("rated AND reason <> 'aborted' AND created_at >= ?", since).
		Where("(south_user_id = ? AND north_user_id = ?) OR (south_user_id = ? AND north_user_id = ?)", a, b, b, a)
	if id != "" {
		q = q.Where("id <> ? AND (created_at < (SELECT created_at FROM games WHERE id = ?) OR "+
			"(created_at = (SELECT created_at FROM games WHERE id = ?) AND id < ?))", id, id, id, id)
	}
	var n int64
	err := q.Count(&n).Error
	return n, err
}

// RatedOpponents counts, by opponent, the rated games not aborted that
// account id played (or plays), created in the last window.
func (db *DB) RatedOpponents(ctx context.Context, id uint, window time.Duration) (map[uint]int, error) {
	since := db.Gorm.NowFunc().Add(-window)
	var rows []struct {
		Opponent uint
		N        int
	}
	err := db.Gorm.WithContext(ctx).Model(&Game{}).
		Select("CASE WHEN south_user_id = ? THEN north_user_id ELSE south_user_id END AS opponent, COUNT(*) AS n", id).
		Where("rated AND reason <> 'aborted' AND created_at >= ?", since.UTC()).
		Where("(south_user_id = ? AND north_user_id IS NOT NULL) OR (north_user_id = ? AND south_user_id IS NOT NULL)", id, id).
		Group("opponent").Scan(&rows).Error
	out := map[uint]int{}
	for _, r := range rows {
		out[r.Opponent] = r.N
	}
	return out, err
}

// SetCasual makes game id casual for the reason why (Game.Unrated), before
// anyone moved: it is no longer rated and shows no ratings.
func (db *DB) SetCasual(ctx context.Context, id, why string) error {
	return db.Gorm.WithContext(ctx).Model(&Game{}).Where("id = ?", id).
		Updates(map[string]any{"rated": false, "unrated": why, "south_rating": "", "north_rating": ""}).Error
}
