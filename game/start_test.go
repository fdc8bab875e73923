package game_test

import (
	"errors"
	"testing"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// TestCreateFromPosition: a game created from a start position (a
// lesson's practice) is played from it, stored with it, and loads again
// at it; a bad, finished or Nam-nam start is refused with ErrBadSettings.
func TestCreateFromPosition(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		ctx := t.Context()
		const start = "1-1-0-0-1-3-0-0-0-0-0-2-20-20-S"
		g, _, err := s.Create(ctx, game.Settings{Rules: "abapa", Start: start})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Join(ctx, g); err != nil {
			t.Fatal(err)
		}
		// B (1) sows C: 1-0-1-0-1-3 for South, North to move.
		if err := s.Move(ctx, g, engine.South, "B"); err != nil {
			t.Fatal(err)
		}
		back, err := s.Load(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := back.Rules.FormatPosition(back.Position); got != "1-0-1-0-1-3-0-0-0-0-0-2-20-20-N" {
			t.Errorf("after B: %s", got)
		}
		for _, bad := range []game.Settings{
			{Rules: "abapa", Start: "4-4-4"},
			{Rules: "abapa", Start: "0-0-0-0-0-0-1-2-0-3-0-1-21-20-S"}, // South has no move
			{Rules: "abapa", Start: "0-0-0-0-1-1-1-1-1-1-0-0-25-17-S"}, // South has 25
			{Rules: "namnam", Start: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0"},
		} {
			if _, _, err := s.Create(ctx, bad); !errors.Is(err, game.ErrBadSettings) {
				t.Errorf("%+v: %v, want ErrBadSettings", bad, err)
			}
		}
	})
}
