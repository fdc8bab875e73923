package models_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"oware/models"
)

// TestGameGIF: a game has no GIF until one is kept; the first kept stays
// (a second, made at the same time by another request, changes nothing);
// the GIF goes with its game.
func TestGameGIF(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		g := newGame(t, db)
		if _, err := db.GameGIF(ctx, g.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("before any: %v, want ErrNotFound", err)
		}
		first, second := []byte("GIF89a first"), []byte("GIF89a second")
		for _, b := range [][]byte{first, second} {
			if err := db.KeepGameGIF(ctx, g.ID, b, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		got, err := db.GameGIF(ctx, g.ID)
		if err != nil || !bytes.Equal(got, first) {
			t.Fatalf("kept %q, %v; want %q", got, err, first)
		}
		if err := db.Gorm.Exec(`DELETE FROM games WHERE id = ?`, g.ID).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := db.GameGIF(ctx, g.ID); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("after the game's deletion: %v, want ErrNotFound", err)
		}
	})
}
