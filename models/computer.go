package models

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// The columns of the computer opponent, hints and takebacks (migrations
// 00010 and 00011) that change outside UpdateGame, each by one statement.

// useHint records a hint given at the game's version $2 when fewer than
// $4 were given and none yet at that version ($5 is "<version> %").
const useHint = `UPDATE games SET hints = hints + 1, hint = $3
	WHERE id = $1 AND version = $2 AND hints < $4 AND hint NOT LIKE $5`

// UseHint records hint (Game.Hint's form, "<version> ...") as given in
// game id, provided the game still has version, fewer than most hints
// were given and none yet at that version; it reports whether it did. The
// version is left as it is: a hint changes nothing of the game itself.
func (db *DB) UseHint(ctx context.Context, id string, version, most int, hint string) (bool, error) {
	args := []any{id, version, hint, most, fmt.Sprint(version) + " %"}
	var n int64
	if db.pool != nil {
		tag, err := db.pool.Exec(ctx, useHint, args...)
		if err != nil {
			return false, err
		}
		n = tag.RowsAffected()
	} else {
		res, err := db.sql.ExecContext(ctx, sqliteParams(useHint), args...)
		if err != nil {
			return false, err
		}
		if n, err = res.RowsAffected(); err != nil {
			return false, err
		}
	}
	return n == 1, nil
}

// setTakebackOffer writes the takeback offer $3 with the version check
// (PostgreSQL).
const setTakebackOffer = `UPDATE games SET takeback_offer = $3, version = version + 1, updated_at = $4
	WHERE id = $1 AND version = $2
	RETURNING version`

// SetTakebackOffer writes g.TakebackOffer provided the stored row still
// has g.Version, then announces the new version as UpdateGame does;
// otherwise nothing is written and the error wraps ErrConflict. On
// success g.Version is incremented and g.UpdatedAt set.
func (db *DB) SetTakebackOffer(ctx context.Context, g *Game) error {
	now := db.Gorm.NowFunc()
	var err error
	if db.pool != nil {
		err = db.pool.QueryRow(ctx, setTakebackOffer, g.ID, g.Version, g.TakebackOffer, now).Scan(new(int))
	} else {
		var n int64
		res, xerr := db.sql.ExecContext(ctx, `UPDATE games SET takeback_offer = ?3, version = version + 1, updated_at = ?4
			WHERE id = ?1 AND version = ?2`, g.ID, g.Version, g.TakebackOffer, now)
		if err = xerr; err == nil {
			if n, err = res.RowsAffected(); err == nil && n == 0 {
				err = ErrConflict
			}
		}
	}
	if errors.Is(err, pgx.ErrNoRows) || errors.Is(err, ErrConflict) {
		return fmt.Errorf("models: takeback offer of game %s at version %d: %w", g.ID, g.Version, ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("models: takeback offer of game %s: %w", g.ID, err)
	}
	g.Version++
	g.UpdatedAt = now
	db.announce(g.ID, g.Version)
	return nil
}

// ComputerGames returns the ids of at most limit games in play against the
// computer, the latest started first: those where it may be the
// computer's turn (a server looks for them at start).
func (db *DB) ComputerGames(ctx context.Context, limit int) ([]string, error) {
	var ids []string
	err := db.Gorm.WithContext(ctx).Model(&Game{}).
		Where("status = ? AND (south_computer > 0 OR north_computer > 0)", "playing").
		Order("created_at DESC").Limit(limit).Pluck("id", &ids).Error
	return ids, err
}
