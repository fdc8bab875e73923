package search

import (
	"context"
	"testing"
	"time"
)

// TestMoveTimeKept: a timed search answers within its time (a generous
// bound: the machine may be busy; the distribution of the time used is
// BenchmarkLevel8Reply's), with a legal move.
func TestMoveTimeKept(t *testing.T) {
	const moveTime = 200 * time.Millisecond
	s := NewSearcher(16, nil)
	for _, g := range middlegames(t, 3) {
		start := time.Now()
		res, err := s.Search(context.Background(), g, Options{Limits: Limits{MoveTime: moveTime}})
		if took := time.Since(start); err != nil || took > moveTime+300*time.Millisecond {
			t.Errorf("a %v search took %v (%v)", moveTime, took, err)
		}
		if !g.LegalMoves().Has(res.Best) {
			t.Errorf("best %d is not legal", res.Best)
		}
	}
}
