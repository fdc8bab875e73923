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

// TestClockTimes: a move's share of a clock, by hand from ClockTimes's
// rule (soft: a 30th of what is left plus three quarters of the increment,
// at most a quarter of what is left and the cap, at least 10 ms; hard:
// three times soft, at most a quarter of what is left, not below soft).
func TestClockTimes(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, c := range []struct {
		clock      Clock
		cap        time.Duration
		soft, hard time.Duration
	}{
		{Clock{}, 0, 0, 0},
		{Clock{Left: ms(30000)}, 0, ms(1000), ms(3000)},                             // 30 s / 30; 3 x 1 s < 7.5 s
		{Clock{Left: ms(3000)}, 0, ms(100), ms(300)},                                // 3 s / 30; 300 ms < 750 ms
		{Clock{Left: ms(60000), Increment: ms(2000)}, ms(1000), ms(1000), ms(3000)}, // 2 s + 1.5 s capped at 1 s
		{Clock{Left: ms(4000), Increment: ms(4000)}, 0, ms(1000), ms(1000)},         // 133 ms + 3 s > 4 s / 4
		{Clock{Left: ms(200)}, 0, ms(10), ms(30)},                                   // the floor; 3 x 10 ms < 50 ms
		{Clock{Left: ms(20)}, 0, ms(10), ms(10)},                                    // the floor over a quarter of 20 ms
	} {
		soft, hard := ClockTimes(c.clock, c.cap)
		if soft != c.soft || hard != c.hard {
			t.Errorf("ClockTimes(%+v, %v) = %v, %v; want %v, %v", c.clock, c.cap, soft, hard, c.soft, c.hard)
		}
	}
}

// TestClockKept: a search on a clock of 1.2 s answers within its hard
// share (300 ms; the same generous bound as TestMoveTimeKept), with a
// legal move.
func TestClockKept(t *testing.T) {
	s := NewSearcher(16, nil)
	_, hard := ClockTimes(Clock{Left: 1200 * time.Millisecond}, 0)
	for _, g := range middlegames(t, 3) {
		start := time.Now()
		res, err := s.Search(context.Background(), g, Options{Limits: Limits{Clock: Clock{Left: 1200 * time.Millisecond}}})
		if took := time.Since(start); err != nil || took > hard+300*time.Millisecond {
			t.Errorf("a search on a 1.2 s clock took %v (%v), hard share %v", took, err, hard)
		}
		if !g.LegalMoves().Has(res.Best) {
			t.Errorf("best %d is not legal", res.Best)
		}
	}
}
