package game

import (
	"context"
	"testing"

	"oware/engine"
	"oware/engine/search"
)

// BenchmarkReview60 reviews a 60-ply Abapa game (level 5 against level 5,
// the same game every run) on one searcher, as a worker does: the cost of
// one review on one core (README's figure; about ReviewBudget by design).
// Run it alone: go test ./game -run '^$' -bench Review60 -benchtime 1x.
func BenchmarkReview60(b *testing.B) {
	r := engine.Oware{GrandSlam: engine.Abapa}
	s := search.NewSearcher(32, nil)
	g := engine.NewGame(r, r.Start())
	for len(g.Moves) < 60 && !g.Over {
		pit, err := s.Move(context.Background(), g, 5, uint64(len(g.Moves)), false)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.Play(pit); err != nil {
			b.Fatal(err)
		}
	}
	if len(g.Moves) != 60 {
		b.Fatalf("the game ended after %d plies", len(g.Moves))
	}
	lim := search.Limits{MoveTime: ReviewPlyTime(len(g.Moves))}
	find := func(ctx context.Context, g *engine.Game) (search.Result, error) {
		s.NewGame()
		return s.Search(ctx, g, search.Options{Limits: lim})
	}
	for b.Loop() {
		n := 0
		if err := reviewMoves(context.Background(), r, r.Start(), g.Moves, nil, 0, find, func(ReviewPly) error { n++; return nil }); err != nil || n != 60 {
			b.Fatal(n, err)
		}
	}
}
