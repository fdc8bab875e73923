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

// TestClockTime: a move's share of a clock, by hand from ClockTime's rule
// (a 30th of what is left plus three quarters of the increment, at most a
// quarter of what is left and the cap, at least 10 ms).
func TestClockTime(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, c := range []struct {
		clock Clock
		cap   time.Duration
		want  time.Duration
	}{
		{Clock{}, 0, 0},
		{Clock{Left: ms(30000)}, 0, ms(1000)},                             // 30 s / 30
		{Clock{Left: ms(3000)}, 0, ms(100)},                               // 3 s / 30
		{Clock{Left: ms(60000), Increment: ms(2000)}, ms(1000), ms(1000)}, // 2 s + 1.5 s, capped at 1 s
		{Clock{Left: ms(4000), Increment: ms(4000)}, 0, ms(1000)},         // 133 ms + 3 s > 4 s / 4
		{Clock{Left: ms(200)}, 0, ms(10)},                                 // the floor
	} {
		if got := ClockTime(c.clock, c.cap); got != c.want {
			t.Errorf("ClockTime(%+v, %v) = %v, want %v", c.clock, c.cap, got, c.want)
		}
	}
}

// TestClockKept: a search on a clock of 3 s answers within its share
// (100 ms; the same generous bound as TestMoveTimeKept), with a legal
// move.
func TestClockKept(t *testing.T) {
	s := NewSearcher(16, nil)
	clock := Clock{Left: 3 * time.Second}
	share := ClockTime(clock, 0)
	for _, g := range middlegames(t, 3) {
		start := time.Now()
		res, err := s.Search(context.Background(), g, Options{Limits: Limits{Clock: clock}})
		if took := time.Since(start); err != nil || took > share+300*time.Millisecond {
			t.Errorf("a search on a 3 s clock took %v (%v), its share %v", took, err, share)
		}
		if !g.LegalMoves().Has(res.Best) {
			t.Errorf("best %d is not legal", res.Best)
		}
	}
}
