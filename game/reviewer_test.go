package game_test

import (
	"testing"
	"time"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// TestReviewRequested: a review asked for is queued, computed in the
// background and stored done, one ply per move; asking again changes
// nothing (the same plies, still done), and one never asked for is "none".
func TestReviewRequested(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, _ *game.Service) {
		s, _ := withComputer(t, db, 1)
		ctx := t.Context()
		r := engine.Oware{GrandSlam: engine.Abapa}
		start, err := r.ParsePosition("0-0-0-0-1-1-1-0-0-1-0-0-23-21-S")
		if err != nil {
			t.Fatal(err)
		}
		sub := game.ReviewSubject{Key: "i/testreview", Rules: r, Start: start, Moves: []int{4, 9, 5}}
		if rv, err := s.LoadReview(ctx, sub.Key); err != nil || rv.Status != game.ReviewNone {
			t.Fatalf("before: %+v, %v", rv, err)
		}
		rv, err := s.RequestReview(ctx, sub)
		if err != nil || rv.Status == game.ReviewNone || rv.Total != 3 {
			t.Fatalf("requested: %+v, %v", rv, err)
		}
		eventually(t, "the review done", func() bool {
			rv, err = s.LoadReview(ctx, sub.Key)
			return err == nil && rv.Status == game.ReviewDone
		})
		if len(rv.Plies) != 3 || rv.Reviewed != 3 || rv.Plies[0].Mark != game.MarkBlunder || rv.Plies[0].Best != "F" {
			t.Fatalf("done: %+v", rv)
		}
		again, err := s.RequestReview(ctx, sub)
		if err != nil || again.Status != game.ReviewDone || len(again.Plies) != 3 || again.Plies[0].Value != rv.Plies[0].Value {
			t.Fatalf("asked again: %+v, %v", again, err)
		}
		if sum := rv.Summary(); sum.South.Blunder != 1 || sum.North.Blunder != 0 {
			t.Errorf("summary %+v", sum)
		}
	})
}

// TestReviewTooLong: a game of more than MaxReviewPlies plies is refused.
func TestReviewTooLong(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, _ *game.Service) {
		s, _ := withComputer(t, db, 1)
		r := engine.Oware{GrandSlam: engine.Abapa}
		sub := game.ReviewSubject{Key: "i/long", Rules: r, Start: r.Start(), Moves: make([]int, game.MaxReviewPlies+1)}
		if _, err := s.RequestReview(t.Context(), sub); err != game.ErrReviewTooLong {
			t.Fatalf("got %v, want ErrReviewTooLong", err)
		}
	})
}

// TestLines: every legal move with its proven value, best first (the
// position of TestReviewBlunder: F wins 25-21, E loses 23-25).
func TestLines(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, _ *game.Service) {
		_, pool := withComputer(t, db, 1)
		r := engine.Oware{GrandSlam: engine.Abapa}
		start, err := r.ParsePosition("0-0-0-0-1-1-1-0-0-1-0-0-23-21-S")
		if err != nil {
			t.Fatal(err)
		}
		lines, err := pool.Lines(t.Context(), engine.NewGame(r, start), time.Second)
		if err != nil || len(lines) != 2 {
			t.Fatalf("lines %+v, %v", lines, err)
		}
		if f, e := lines[0], lines[1]; f.Move != "F" || f.Value != 4 || !f.Exact || f.Result != "win" ||
			e.Move != "E" || e.Value != -2 || !e.Exact || e.Result != "loss" || len(e.PV) < 2 || e.PV[0] != "E" || e.PV[1] != "d" {
			t.Errorf("lines %+v", lines)
		}
	})
}
