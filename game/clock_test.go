package game_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"oware/engine"
	"oware/game"
	"oware/models"
	"oware/models/modelstest"
)

// fakeClock is a clock the tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// clocked runs f on a fresh database of every dialect, with a service on
// a fake clock.
func clocked(t *testing.T, f func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock)) {
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		clock := newFakeClock()
		s.SetClock(clock.Now)
		f(t, db, s, clock)
	})
}

// timedGame creates and joins an Abapa game with the time control tc.
func timedGame(t *testing.T, ctx context.Context, s *game.Service, tc game.TimeControl) string {
	t.Helper()
	g, _, err := s.Create(ctx, game.Settings{Clock: tc})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Join(ctx, g); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// move plays label for the side to move of game id, loaded afresh.
func move(t *testing.T, ctx context.Context, s *game.Service, id, label string) error {
	t.Helper()
	g, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return s.Move(ctx, g, g.Position.ToMove, label)
}

// clockOf returns the time left of each side of game id, as stored, at
// the service's now, and the side whose clock runs.
func clockOf(t *testing.T, ctx context.Context, s *game.Service, id string) ([2]time.Duration, engine.Side, *game.Game) {
	t.Helper()
	g, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	left, running := g.ClockAt(s.Now())
	return left, running, g
}

// TestClockIncrements: 5+3. The first move of each side costs nothing
// (the clock starts after them); from then on each move costs the time
// taken and earns 3 s, and the clock of the player to move runs from the
// moment the previous move was stored.
func TestClockIncrements(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		id := timedGame(t, ctx, s, game.TimeControl{Initial: 300, Increment: 3})
		clock.Advance(10 * time.Second)
		if err := move(t, ctx, s, id, "C"); err != nil {
			t.Fatal(err)
		}
		clock.Advance(20 * time.Second)
		if err := move(t, ctx, s, id, "d"); err != nil {
			t.Fatal(err)
		}
		left, running, _ := clockOf(t, ctx, s, id)
		if left != [2]time.Duration{300 * time.Second, 300 * time.Second} || running != engine.South {
			t.Fatalf("after the first moves: %v, running %v; want 5:00 each, South's running", left, running)
		}
		clock.Advance(7*time.Second + 250*time.Millisecond)
		left, _, _ = clockOf(t, ctx, s, id)
		if want := 292*time.Second + 750*time.Millisecond; left[engine.South] != want {
			t.Errorf("South's clock while thinking 7.25 s: %v, want %v", left[engine.South], want)
		}
		if err := move(t, ctx, s, id, "A"); err != nil { // 300 - 7.25 + 3
			t.Fatal(err)
		}
		clock.Advance(12 * time.Second)
		if err := move(t, ctx, s, id, "a"); err != nil { // 300 - 12 + 3
			t.Fatal(err)
		}
		left, running, g := clockOf(t, ctx, s, id)
		want := [2]time.Duration{295*time.Second + 750*time.Millisecond, 291 * time.Second}
		if left != want || running != engine.South {
			t.Errorf("after two timed moves: %v, running %v; want %v, South's running", left, running, want)
		}
		if d := g.Clock.Deadline.Sub(clock.Now()); d != want[engine.South] {
			t.Errorf("deadline in %v, want in %v", d, want[engine.South])
		}
	})
}

// TestTimeRunsOutOnMove: 10 s + 0. South takes 10 s for a move: the move
// comes too late, the game ends on time (North, who can still reach 25
// seeds, wins) and the move is not stored.
func TestTimeRunsOutOnMove(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		id := timedGame(t, ctx, s, game.TimeControl{Initial: 10})
		for _, m := range []string{"C", "d"} {
			if err := move(t, ctx, s, id, m); err != nil {
				t.Fatal(err)
			}
		}
		clock.Advance(10 * time.Second)
		if err := move(t, ctx, s, id, "A"); !errors.Is(err, game.ErrTimeUp) {
			t.Fatalf("a move after 10 s: %v, want ErrTimeUp", err)
		}
		g, _ := s.Load(ctx, id)
		if g.Status != game.Over || g.Result != engine.NorthWins || g.Reason != game.ReasonTimeout || len(g.Engine.Moves) != 2 {
			t.Errorf("game %s %v %q after %d moves; want over, North wins on time, 2 moves", g.Status, g.Result, g.Reason, len(g.Engine.Moves))
		}
		if left, running := g.ClockAt(clock.Now()); left[engine.South] != 0 || left[engine.North] != 10*time.Second || running != engine.Nobody {
			t.Errorf("clocks after the flag: %v, running %v; want 0 and 10 s, none running", left, running)
		}
		if n, _ := stored(t, db, id); n != 2 {
			t.Errorf("%d moves stored, want 2", n)
		}
	})
}

// stored returns the number of stored moves and the version of game id.
func stored(t *testing.T, db *models.DB, id string) (int, int) {
	t.Helper()
	g, err := db.LoadGame(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(g.Moves), g.Version
}

// TestSweeperFindsFlag: nobody asks anything; the sweeper ends the game
// once South's 10 s are gone (not a moment before), once.
func TestSweeperFindsFlag(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		id := timedGame(t, ctx, s, game.TimeControl{Initial: 10, Increment: 2})
		for _, m := range []string{"C", "d"} {
			if err := move(t, ctx, s, id, m); err != nil {
				t.Fatal(err)
			}
		}
		clock.Advance(9999 * time.Millisecond)
		if n, err := s.Sweep(ctx); n != 0 || err != nil {
			t.Fatalf("sweep with 1 ms left: %d, %v; want 0", n, err)
		}
		clock.Advance(time.Millisecond)
		if n, err := s.Sweep(ctx); n != 1 || err != nil {
			t.Fatalf("sweep at the flag: %d, %v; want 1", n, err)
		}
		if n, _ := s.Sweep(ctx); n != 0 {
			t.Errorf("a second sweep ended %d games, want 0", n)
		}
		g, _ := s.Load(ctx, id)
		if g.Status != game.Over || g.Result != engine.NorthWins || g.Reason != game.ReasonTimeout {
			t.Errorf("game %s %v %q; want North wins on time", g.Status, g.Result, g.Reason)
		}
	})
}

// TestFirstMoveAborts: the first move of each side has 30 s: past them
// the game is aborted (over, no result), in real time as in
// correspondence (where the limit is the days per move).
func TestFirstMoveAborts(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		south := timedGame(t, ctx, s, game.TimeControl{Initial: 300})
		north := timedGame(t, ctx, s, game.TimeControl{Initial: 300})
		corr := timedGame(t, ctx, s, game.TimeControl{Days: 1})
		clock.Advance(29 * time.Second)
		if err := move(t, ctx, s, north, "C"); err != nil {
			t.Fatal(err)
		}
		if g, _ := s.Load(ctx, north); g.Clock.Deadline.Sub(clock.Now()) != game.FirstMove {
			t.Errorf("North's first move has %v, want %v", g.Clock.Deadline.Sub(clock.Now()), game.FirstMove)
		}
		clock.Advance(time.Second)
		if n, err := s.Sweep(ctx); n != 1 || err != nil {
			t.Fatalf("sweep after 30 s: %d, %v; want 1 (South's first move)", n, err)
		}
		clock.Advance(30 * time.Second)
		if n, _ := s.Sweep(ctx); n != 1 {
			t.Fatalf("sweep 30 s after South's move: %d, want 1 (North's first move)", n)
		}
		for _, id := range []string{south, north} {
			g, _ := s.Load(ctx, id)
			if g.Status != game.Over || g.Result != engine.NoResult || g.Reason != game.ReasonAborted {
				t.Errorf("game %s %v %q; want aborted without a result", g.Status, g.Result, g.Reason)
			}
		}
		clock.Advance(24 * time.Hour)
		if n, _ := s.Sweep(ctx); n != 1 {
			t.Fatalf("sweep a day later: %d, want 1 (the correspondence game)", n)
		}
		if g, _ := s.Load(ctx, corr); g.Reason != game.ReasonAborted {
			t.Errorf("correspondence game without a first move: %q, want aborted", g.Reason)
		}
	})
}

// TestCorrespondence: each move has the days per move again; a move a
// day late loses on time.
func TestCorrespondence(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		id := timedGame(t, ctx, s, game.TimeControl{Days: 1})
		for _, m := range []string{"C", "d", "A"} {
			clock.Advance(23 * time.Hour)
			if err := move(t, ctx, s, id, m); err != nil {
				t.Fatal(err)
			}
		}
		left, running, _ := clockOf(t, ctx, s, id)
		if left != [2]time.Duration{24 * time.Hour, 24 * time.Hour} || running != engine.North {
			t.Errorf("clocks: %v, running %v; want a day each, North's running", left, running)
		}
		clock.Advance(24 * time.Hour)
		if n, _ := s.Sweep(ctx); n != 1 {
			t.Fatalf("sweep a day after South's move: %d, want 1", n)
		}
		if g, _ := s.Load(ctx, id); g.Result != engine.SouthWins || g.Reason != game.ReasonTimeout {
			t.Errorf("game %v %q; want South wins on time", g.Result, g.Reason)
		}
	})
}

// TestTwoSweepers: two instances on one database sweep the same due games
// at once: each game is ended once (one write, one published change).
func TestTwoSweepers(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		other := game.New(modelstest.Reopen(t, db), slog.New(slog.DiscardHandler))
		other.SetClock(clock.Now)
		var mu sync.Mutex
		published := map[string]int{}
		for _, svc := range []*game.Service{s, other} {
			svc.OnStore(func(_ context.Context, g *game.Game) {
				mu.Lock()
				defer mu.Unlock()
				if g.Status == game.Over {
					published[g.ID]++
				}
			})
		}
		var ids []string
		for range 8 {
			ids = append(ids, timedGame(t, ctx, s, game.TimeControl{Initial: 60}))
		}
		clock.Advance(time.Minute)
		var wg sync.WaitGroup
		counts := make([]int, 2)
		for i, svc := range []*game.Service{s, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := svc.Sweep(ctx)
				if err != nil {
					t.Error(err)
				}
				counts[i] = n
			}()
		}
		wg.Wait()
		if counts[0]+counts[1] != len(ids) {
			t.Errorf("the sweepers ended %v games, want %d in all", counts, len(ids))
		}
		for _, id := range ids {
			if _, version := stored(t, db, id); version != 3 || published[id] != 1 {
				t.Errorf("game %s: version %d, ended %d times; want version 3 (create, join, end), ended once", id, version, published[id])
			}
		}
	})
}

// TestSweeperRestart: an instance leases a due game and stops before
// ending it; after a restart the game is not missed: once the lease ran
// out, the next sweep ends it.
func TestSweeperRestart(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		id := timedGame(t, ctx, s, game.TimeControl{Initial: 60})
		clock.Advance(time.Minute)
		if ids, err := db.DueGames(ctx, clock.Now(), game.SweepLease, 10); err != nil || len(ids) != 1 {
			t.Fatalf("the stopped instance leased %v, %v; want the game", ids, err)
		}
		db.Close()
		restarted := game.New(modelstest.Reopen(t, db), slog.New(slog.DiscardHandler))
		restarted.SetClock(clock.Now)
		if n, _ := restarted.Sweep(ctx); n != 0 {
			t.Errorf("a sweep during the lease ended %d games, want 0", n)
		}
		clock.Advance(game.SweepLease)
		if n, err := restarted.Sweep(ctx); n != 1 || err != nil {
			t.Errorf("a sweep after the lease: %d, %v; want 1", n, err)
		}
		if g, _ := restarted.Load(ctx, id); g.Reason != game.ReasonAborted {
			t.Errorf("game ended %q, want aborted (no first move)", g.Reason)
		}
	})
}

// TestMoveInTimeWins: the sweeper and a move at the same moment: a move
// stored before the deadline stands, and the sweeper ends nothing.
func TestMoveInTimeWins(t *testing.T) {
	clocked(t, func(t *testing.T, db *models.DB, s *game.Service, clock *fakeClock) {
		ctx := t.Context()
		id := timedGame(t, ctx, s, game.TimeControl{Initial: 60})
		clock.Advance(29 * time.Second)
		if err := move(t, ctx, s, id, "C"); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Second)
		if n, _ := s.Sweep(ctx); n != 0 {
			t.Errorf("the sweeper ended %d games after a move in time, want 0", n)
		}
	})
}
