package game_test

import (
	"log/slog"
	"testing"
	"time"

	"oware/engine"
	"oware/game"
	"oware/models"
)

// TestOutageMovesClocks: South's 10 s clock runs from T+2; the last
// heartbeat is at T+3, then the site is away until T+14 (the deadline,
// T+12, falls during the outage). The heartbeat at T+14 moves South's
// turn on by the outage it lived through (T+3 to T+14, 11 s) and the
// 5 s grace: South's turn now starts at T+18, the deadline is T+28, the
// sweeper flags nobody, and a move at T+20 costs South 20 - 18 = 2 s:
// South keeps 8 s. A game that started during the gap (its
// turn began after the last heartbeat) is moved on by the gap it lived
// through; a game without a clock is left alone; a second heartbeat (of
// another instance) right after moves nothing again. A gap of 3 s or less
// is no outage.
func TestOutageMovesClocks(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		t0 := clock.Now()
		tc := game.TimeControl{Initial: 10}
		id, _ := opening(t, ctx, s, clock, tc, time.Second)
		none, _ := opening(t, ctx, s, clock, noClock, 0)
		if err := s.Beat(ctx); err != nil { // T+2
			t.Fatal(err)
		}
		clock.Advance(time.Second)
		if err := s.Beat(ctx); err != nil { // T+3: 1 s, no outage
			t.Fatal(err)
		}
		wantClock(t, s, id, [2]time.Duration{10 * time.Second, 10 * time.Second}, t0.Add(2*time.Second), t0.Add(12*time.Second))
		clock.Advance(500 * time.Millisecond)
		late := timedGame(t, ctx, s, tc) // joined at T+3.5, in the gap
		_, noneVersion := stored(t, db, none)
		_, version := stored(t, db, id)

		clock.Advance(10*time.Second + 500*time.Millisecond) // T+14
		if err := s.Beat(ctx); err != nil {
			t.Fatal(err)
		}
		wantClock(t, s, id, [2]time.Duration{10 * time.Second, 10 * time.Second}, t0.Add(18*time.Second), t0.Add(28*time.Second))
		// T+3.5 + (14 - 3.5) + 5 = T+19; the first move's 30 s from then.
		wantClock(t, s, late, [2]time.Duration{10 * time.Second, 10 * time.Second}, t0.Add(19*time.Second), t0.Add(49*time.Second))
		if _, v := stored(t, db, id); v != version+1 {
			t.Errorf("version after the outage: %d, want %d (a page shows the new clock)", v, version+1)
		}
		if _, v := stored(t, db, none); v != noneVersion {
			t.Errorf("the game without a clock changed: version %d, was %d", v, noneVersion)
		}
		if left, running := load(t, s, id).ClockAt(clock.Now()); left[engine.South] != 10*time.Second || running != engine.South {
			t.Errorf("South's clock right after the outage: %v, %v running; want 10 s", left, running)
		}
		if n, err := s.Sweep(ctx); n != 0 || err != nil {
			t.Fatalf("sweep after the outage: %d ended, %v; want none", n, err)
		}

		other := game.New(db, slog.New(slog.DiscardHandler))
		other.SetClock(clock.Now)
		if err := other.Beat(ctx); err != nil {
			t.Fatal(err)
		}
		wantClock(t, s, id, [2]time.Duration{10 * time.Second, 10 * time.Second}, t0.Add(18*time.Second), t0.Add(28*time.Second))

		for range 3 { // to T+20, a heartbeat every 2 s
			clock.Advance(2 * time.Second)
			if err := s.Beat(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if err := move(t, ctx, s, id, "A"); err != nil {
			t.Fatal(err)
		}
		if g := load(t, s, id); g.Clock.Left[engine.South] != 8*time.Second {
			t.Errorf("South after moving at T+20: %v, want 8 s", g.Clock.Left[engine.South])
		}
	})
}
