package game_test

import (
	"sync"
	"testing"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// TestSimultaneousRematch: both players of a finished game ask for a
// rematch at the same moment (each request with the game as it read it):
// every time exactly one new game starts, and each player holds the other
// seat in it with their own token (issue 14, item 8: before, in 91 of 100
// tries neither request started it).
func TestSimultaneousRematch(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		ctx := t.Context()
		const tries = 30
		for i := range tries {
			g, southToken, err := s.Create(ctx, game.Settings{Rules: "abapa"})
			if err != nil {
				t.Fatal(err)
			}
			northToken, _, err := s.Join(ctx, g)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Resign(ctx, g, engine.South); err != nil {
				t.Fatal(err)
			}
			var before int64
			db.Gorm.Model(&models.Game{}).Count(&before)

			var wg sync.WaitGroup
			errs := make([]error, 2)
			for k, seat := range []engine.Side{engine.South, engine.North} {
				read, err := s.Load(ctx, g.ID)
				if err != nil {
					t.Fatal(err)
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[k] = s.Rematch(ctx, read, seat)
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatalf("try %d: %v", i+1, err)
				}
			}

			var after int64
			db.Gorm.Model(&models.Game{}).Count(&after)
			if after != before+1 {
				t.Fatalf("try %d: %d new games, want exactly 1", i+1, after-before)
			}
			done, err := s.Load(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if done.RematchID == "" {
				t.Fatalf("try %d: the game names no rematch", i+1)
			}
			ng, err := s.Load(ctx, done.RematchID)
			if err != nil {
				t.Fatal(err)
			}
			if ng.Status != game.Playing {
				t.Errorf("try %d: the rematch is %v, want playing", i+1, ng.Status)
			}
			if ng.SeatByToken(southToken) != engine.North || ng.SeatByToken(northToken) != engine.South {
				t.Fatalf("try %d: South's token holds %v, North's %v in the rematch; want the seats swapped",
					i+1, ng.SeatByToken(southToken), ng.SeatByToken(northToken))
			}
		}
	})
}
