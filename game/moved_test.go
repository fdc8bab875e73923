package game_test

import (
	"testing"
	"time"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// TestOnMove checks that the move hook runs once per stored move and not
// for a refused one.
func TestOnMove(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		var got []time.Duration
		s.OnMove(func(d time.Duration) { got = append(got, d) })
		ctx := t.Context()
		id := newGame(t, ctx, s, "abapa", "")
		g, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Move(ctx, g, engine.North, "a"); err == nil {
			t.Fatal("North moved first")
		}
		if len(got) != 0 {
			t.Fatalf("hook ran %d times for a refused move", len(got))
		}
		if err := s.Move(ctx, g, engine.South, "C"); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0] <= 0 {
			t.Fatalf("hook after one move: %v, want one positive duration", got)
		}
	})
}
