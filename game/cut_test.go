package game

import (
	"fmt"
	"log/slog"
	"sync"
	"syscall"
	"testing"
	"time"

	"oware/engine"
	"oware/models/modelstest"
)

// TestCutGivenBack: an instance whose own heartbeat fails while it is
// asked about a game gives the cut back on its next heartbeat written.
// A 60 s game (no increment) starts its clock at t0 (ply 2 stored,
// South to move); the instance's last heartbeat is at t0+1 s, then its
// heartbeats fail (the cut begins at t0+1 s) and a load of the game fails
// for the database; at t0+10 s a heartbeat is written again: South gets
// the 9 s of the cut the turn lived through. South moves at t0+11 s and
// is charged the 2 s outside the cut (another instance kept the site's
// heartbeat: no outage): 58 s left (charged 11 s, 49 s,
// without the cut given back). A second game, not asked about, gets
// nothing back.
func TestCutGivenBack(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			ctx := t.Context()
			db := modelstest.Open(t, d)
			s := New(db, slog.New(slog.DiscardHandler))
			t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
			var mu sync.Mutex
			now := t0
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			set := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = t0.Add(d) }
			s.SetClock(clock)
			other := New(modelstest.Reopen(t, db), slog.New(slog.DiscardHandler))
			other.SetClock(clock)
			var ids [2]string
			for i := range ids {
				g, _, err := s.Create(ctx, Settings{Clock: TimeControl{Initial: 60}})
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := s.Join(ctx, g); err != nil {
					t.Fatal(err)
				}
				for j, label := range []string{"A", "a"} {
					g, err := s.Load(ctx, g.ID)
					if err != nil {
						t.Fatal(err)
					}
					if err := s.Move(ctx, g, []engine.Side{engine.South, engine.North}[j], label); err != nil {
						t.Fatal(err)
					}
				}
				ids[i] = g.ID
			}
			set(time.Second)
			if err := s.Beat(ctx); err != nil {
				t.Fatal(err)
			}
			set(2 * time.Second)
			s.cutOff()
			s.asked(ids[0], fmt.Errorf("read: %w", syscall.ECONNREFUSED))
			for _, at := range []time.Duration{3, 5, 7, 9} { // another instance keeps the site's heartbeat
				set(at * time.Second)
				if err := other.Beat(ctx); err != nil {
					t.Fatal(err)
				}
			}
			set(10 * time.Second)
			if err := s.Beat(ctx); err != nil {
				t.Fatal(err)
			}
			set(11 * time.Second)
			for i, want := range []time.Duration{58 * time.Second, 49 * time.Second} {
				g, err := s.Load(ctx, ids[i])
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Move(ctx, g, engine.South, "B"); err != nil {
					t.Fatal(err)
				}
				if g.Clock.Left[engine.South] != want {
					t.Errorf("game %d: South has %v left, want %v", i+1, g.Clock.Left[engine.South], want)
				}
			}
		})
	}
}
