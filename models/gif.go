package models

import (
	"context"
	"fmt"
	"time"
)

// GameGIF is a row of table game_gifs (issue 36; migration 00090): the
// animated GIF of a finished game, made once on its first request and
// kept, so that it is drawn once whichever instance serves it.
type GameGIF struct {
	GameID    string `gorm:"primaryKey"`
	GIF       []byte
	CreatedAt time.Time
}

// GameGIF returns the kept GIF of game id, or ErrNotFound.
func (db *DB) GameGIF(ctx context.Context, id string) ([]byte, error) {
	var g GameGIF
	if err := db.Gorm.WithContext(ctx).Where("game_id = ?", id).Take(&g).Error; err != nil {
		return nil, notFound(err)
	}
	return g.GIF, nil
}

// KeepGameGIF keeps gif as game id's GIF; a GIF kept already (another
// request made it meanwhile) stays as it is.
func (db *DB) KeepGameGIF(ctx context.Context, id string, gif []byte, now time.Time) error {
	err := db.Gorm.WithContext(ctx).Exec(`INSERT INTO game_gifs (game_id, gif, created_at) VALUES (?, ?, ?)
		ON CONFLICT (game_id) DO NOTHING`, id, gif, now.UTC()).Error
	if err != nil {
		return fmt.Errorf("models: keep the GIF of game %s: %w", id, err)
	}
	return nil
}
