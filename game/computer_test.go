package game_test

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"oware/engine"
	"oware/engine/search"
	"oware/game"
	"oware/models"
	"oware/models/modelstest"
)

// quiet is a logger that drops everything.
var quiet = slog.New(slog.DiscardHandler)

// withComputer returns a service on db with a computer's pool of workers
// that answers without a minimum thinking time.
func withComputer(t *testing.T, db *models.DB, workers int) (*game.Service, *game.Pool) {
	s := game.New(db, quiet)
	return s, startComputer(t, s, game.PoolConfig{Workers: workers, HashMB: 1})
}

// startComputer starts the computer of s with cfg until the test ends.
func startComputer(t *testing.T, s *game.Service, cfg game.PoolConfig) *game.Pool {
	t.Helper()
	p, err := s.StartComputer(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// eventually fails the test unless cond holds within 20 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s: not within 20 s", what)
		}
	}
}

// movesOf returns the stored moves of game id (the truth, not the row's
// cache).
func movesOf(t *testing.T, db *models.DB, id string) []models.Move {
	t.Helper()
	moves, err := db.Moves(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return moves
}

// vsComputer creates a game of rules against the computer at level with
// the person in seat; it returns the game and the person's token.
func vsComputer(t *testing.T, s *game.Service, rules, seat string, level search.Level) (*game.Game, string) {
	t.Helper()
	g, token, err := s.Create(t.Context(), game.Settings{Rules: rules, Seat: seat, Computer: level})
	if err != nil {
		t.Fatal(err)
	}
	return g, token
}

func TestComputerGameStarts(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, _ *game.Service) {
		s, pool := withComputer(t, db, 1)
		ctx := t.Context()
		// The person sits North: the computer, South, opens at once.
		g, token := vsComputer(t, s, "abapa", "north", 3)
		if g.Status != game.Playing || g.Seats[engine.South].Computer != 3 || g.SeatByToken(token) != engine.North {
			t.Fatalf("created: status %s, seats %+v", g.Status, g.Seats)
		}
		pool.Await(ctx, g.ID)
		eventually(t, "the computer's opening", func() bool { return len(movesOf(t, db, g.ID)) == 1 })
		g, err := s.Load(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		// Its move is one of South's legal opening moves, and the board is
		// the engine's after it.
		pit := g.LastPit()
		want, _, err := g.Rules.Play(g.Rules.Start(), pit)
		if err != nil || pit > 5 || g.Position != want || g.Position.ToMove != engine.North {
			t.Fatalf("the computer played %d to %s (%v)", pit, g.Rules.FormatPosition(g.Position), err)
		}
		// The person's move gets its reply, stored like any move.
		if err := s.Move(ctx, g, engine.North, "a"); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the reply", func() bool { return len(movesOf(t, db, g.ID)) == 3 })
		if rep, err := game.Verify(ctx, db); err != nil || len(rep.Mismatches) != 0 {
			t.Fatalf("Verify: %+v %v", rep, err)
		}
		// Nobody can join or move for the computer.
		if _, _, err := s.Join(ctx, g); err != game.ErrSeatsTaken {
			t.Errorf("join of a game against the computer: %v, want ErrSeatsTaken", err)
		}
		if err := s.OfferEnd(ctx, g, engine.North); err != game.ErrVsComputer {
			t.Errorf("offer to end against the computer: %v, want ErrVsComputer", err)
		}
		if _, _, err := s.Create(ctx, game.Settings{Computer: 9}); err == nil {
			t.Error("level 9 accepted")
		}
	})
}

// TestPoolBounded: a pool of two workers runs at most two searches at a
// time and queues the rest, which all run in the end.
func TestPoolBounded(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("a pool has at most one worker per core")
	}
	db := modelstest.Open(t, models.SQLite)
	_, pool := withComputer(t, db, 2)
	release := make(chan struct{})
	var now, most atomic.Int32
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			err := pool.Do(t.Context(), func(context.Context, *search.Searcher) {
				n := now.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				<-release
				now.Add(-1)
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	// Wait for what is checked: two functions running (the pool's Running
	// counter may read 2 before the second one has started), three queued.
	eventually(t, "two running, three queued", func() bool {
		st := pool.Stats()
		return now.Load() == 2 && st.Queued == 3 && st.Workers == 2
	})
	close(release)
	wg.Wait()
	if m := most.Load(); m != 2 {
		t.Errorf("at most %d searches ran at once, want 2", m)
	}
	// A worker counts itself free just after its function returned.
	eventually(t, "after the work, nothing running or queued", func() bool {
		st := pool.Stats()
		return st.Running == 0 && st.Queued == 0
	})
	// A request that goes away while queued is dropped; a full queue is
	// refused.
	block := make(chan struct{})
	var blocked atomic.Int32
	for range 2 {
		go pool.Do(context.Background(), func(context.Context, *search.Searcher) { blocked.Add(1); <-block })
	}
	eventually(t, "both workers busy", func() bool { return blocked.Load() == 2 })
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	var ran atomic.Bool
	if err := pool.Do(ctx, func(context.Context, *search.Searcher) { ran.Store(true) }); err != context.DeadlineExceeded {
		t.Errorf("queued past its deadline: %v", err)
	}
	close(block)
	eventually(t, "the workers free", func() bool { return pool.Stats().Running == 0 && pool.Stats().Queued == 0 })
	if ran.Load() {
		t.Error("a request gone away still ran")
	}
}

// TestReplyAfterRestart: a server stops while the computer is to move; the
// next one schedules the reply at start, or when anyone loads the game.
func TestReplyAfterRestart(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, before *game.Service) {
		ctx := t.Context()
		// The first server has no pool (it stopped before answering).
		a, _ := vsComputer(t, before, "wari", "south", 1)
		b, _ := vsComputer(t, before, "abapa", "south", 2)
		for _, g := range []*game.Game{a, b} {
			if err := before.Move(ctx, g, engine.South, "C"); err != nil {
				t.Fatal(err)
			}
		}
		over, _ := vsComputer(t, before, "abapa", "south", 1)
		if err := before.Resign(ctx, over, engine.South); err != nil {
			t.Fatal(err)
		}
		if n := len(movesOf(t, db, a.ID)); n != 1 {
			t.Fatalf("without a pool: %d moves", n)
		}

		s, pool := withComputer(t, modelstest.Reopen(t, db), 1)
		n, err := pool.ScheduleWaiting(ctx, 100)
		if err != nil || n != 2 {
			t.Fatalf("ScheduleWaiting = %d, %v; want the 2 games where the computer is to move", n, err)
		}
		for _, g := range []*game.Game{a, b} {
			eventually(t, "the reply after the restart", func() bool { return len(movesOf(t, db, g.ID)) == 2 })
		}

		// Another stopped server; this time a page load schedules it.
		if err := before.Move(ctx, mustLoad(t, before, a.ID), engine.South, "A"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Load(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the reply after a load", func() bool { return len(movesOf(t, db, a.ID)) == 4 })
	})
}

// mustLoad loads game id.
func mustLoad(t *testing.T, s *game.Service, id string) *game.Game {
	t.Helper()
	g, err := s.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestTwoInstancesOneReply: two instances on one PostgreSQL database both
// search the computer's reply; one is stored, the other is dropped.
func TestTwoInstancesOneReply(t *testing.T) {
	db := modelstest.Open(t, models.Postgres)
	one := game.New(db, quiet)
	two := game.New(modelstest.Reopen(t, db), quiet)
	cfg := game.PoolConfig{Workers: 1, HashMB: 1, MinThink: 300 * time.Millisecond}
	p1, p2 := startComputer(t, one, cfg), startComputer(t, two, cfg)
	ctx := t.Context()
	for range 5 {
		g, _ := vsComputer(t, one, "abapa", "south", 2)
		if err := one.Move(ctx, g, engine.South, "D"); err != nil {
			t.Fatal(err)
		}
		mustLoad(t, two, g.ID) // the second instance schedules the reply too
		p1.Await(ctx, g.ID)
		p2.Await(ctx, g.ID)
		moves := movesOf(t, db, g.ID)
		if len(moves) != 2 {
			t.Fatalf("two instances stored %d moves, want the person's and one reply", len(moves))
		}
		row, err := db.FindGame(ctx, g.ID)
		if err != nil || row.Version != 3 || row.MoveLabels != "D"+moves[1].Label {
			t.Fatalf("row version %d labels %q (%v), want 3 and one reply", row.Version, row.MoveLabels, err)
		}
	}
}

// TestAnalysesWait: an analysis queued before a hint (or a reply) runs
// after it.
func TestAnalysesWait(t *testing.T) {
	_, pool := withComputer(t, modelstest.Open(t, models.SQLite), 1)
	block := make(chan struct{})
	go pool.Do(t.Context(), func(context.Context, *search.Searcher) { <-block })
	eventually(t, "the worker busy", func() bool { return pool.Stats().Running == 1 })
	order := make(chan string, 2)
	r, _ := engine.RulesByName("abapa")
	go func() {
		if _, err := pool.Analyze(t.Context(), engine.NewGame(r, r.Start()), search.Limits{Depth: 1}); err != nil {
			t.Error(err)
		}
		order <- "analysis"
	}()
	eventually(t, "the analysis queued", func() bool { return pool.Stats().Queued == 1 })
	go pool.Do(t.Context(), func(context.Context, *search.Searcher) { order <- "hint" })
	eventually(t, "the hint queued", func() bool { return pool.Stats().Queued == 2 })
	close(block)
	if first, second := <-order, <-order; first != "hint" || second != "analysis" {
		t.Errorf("ran %s, then %s; want the hint first", first, second)
	}
}

// TestAnalysesLeaveRoomForHints: analyses (anyone may ask for them, over
// the API) fill at most half of the waiting room (MaxWaiting 16 of one
// worker: 8), so that queued analyses never make a player's hint busy.
func TestAnalysesLeaveRoomForHints(t *testing.T) {
	_, pool := withComputer(t, modelstest.Open(t, models.SQLite), 1)
	block := make(chan struct{})
	go pool.Do(t.Context(), func(context.Context, *search.Searcher) { <-block })
	eventually(t, "the worker busy", func() bool { return pool.Stats().Running == 1 })
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	r, _ := engine.RulesByName("abapa")
	for range 8 {
		go pool.Analyze(ctx, engine.NewGame(r, r.Start()), search.Limits{Depth: 1})
	}
	eventually(t, "8 analyses queued", func() bool { return pool.Stats().Queued == 8 })
	// (A deadline, so that a 9th analysis let in fails the test, not hangs it.)
	ctx9, cancel9 := context.WithTimeout(ctx, 5*time.Second)
	defer cancel9()
	if _, err := pool.Analyze(ctx9, engine.NewGame(r, r.Start()), search.Limits{Depth: 1}); !errors.Is(err, game.ErrBusy) {
		t.Errorf("a 9th analysis waiting: %v, want ErrBusy", err)
	}
	hinted := make(chan error, 1)
	go func() { hinted <- pool.Do(t.Context(), func(context.Context, *search.Searcher) {}) }()
	eventually(t, "the hint queued beside the analyses", func() bool { return pool.Stats().Queued == 9 })
	cancel()
	close(block)
	if err := <-hinted; err != nil {
		t.Errorf("hint with 8 analyses waiting: %v", err)
	}
}

// TestComputerOnTheClock: a game against the computer may have a clock
// (issue 34: real-time games use it); the computer's clock runs as the
// person's does, its searches take their share of what it has left
// (search.ClockTimes), and on a 10 s clock without increment, the
// shortest the site offers, it does not lose on time while the person
// answers at once. After its first move (plies 1 and 2 run no clock,
// RULES of the clock: game/clock.go) each of its moves costs it the time
// it took and earns the increment.
func TestComputerOnTheClock(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, _ *game.Service) {
		s, pool := withComputer(t, db, 1)
		ctx := t.Context()
		g, _, err := s.Create(ctx, game.Settings{Rules: "abapa", Seat: "south", Computer: 8,
			Clock: game.TimeControl{Initial: 10}})
		if err != nil {
			t.Fatalf("a clocked game against the computer: %v", err)
		}
		for ply := 0; ply < 40; ply += 2 {
			g, err = s.Load(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != game.Playing {
				break
			}
			pit := g.Playable(engine.South).Pits()[0]
			if err := s.Move(ctx, g, engine.South, engine.Label(pit)); err != nil {
				t.Fatal(err)
			}
			pool.Await(ctx, g.ID)
			eventually(t, "the computer's reply", func() bool {
				n := len(movesOf(t, db, g.ID))
				g, err = s.Load(ctx, g.ID)
				return err == nil && (n >= ply+2 || g.Status != game.Playing)
			})
		}
		t.Logf("after %d plies: status %s, the computer has %v, the person %v", len(g.Engine.Moves), g.Status, g.Clock.Left[engine.North], g.Clock.Left[engine.South])
		if g.Status == game.Over && g.Reason == game.ReasonTimeout {
			t.Fatalf("the game ended on time at ply %d (result %v)", len(g.Engine.Moves), g.Result)
		}
		if left := g.Clock.Left[engine.North]; left <= 0 || left >= 10*time.Second {
			t.Errorf("the computer's clock after %d plies: %v, want under the 10 s it had and above 0", len(g.Engine.Moves), left)
		}
	})
}

// inserts counts the job inserts River sends to PostgreSQL through one
// handle (its JobInsertFastMany statements).
type inserts struct{ n atomic.Int32 }

func (c *inserts) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if strings.Contains(d.SQL, "JobInsertFastMany") {
		c.n.Add(1)
	}
	return ctx
}
func (c *inserts) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TestWorkerAsksNoReplyAgain: an oware worker working the reply a site
// asked for inserts no job (issue 37): loading the game for the job it
// works, the computer to move at that version, used to ask for the same
// reply again, an insert River skipped as a duplicate but still sent, with
// its notification and the fetches it woke (4-5 statements a reply).
func TestWorkerAsksNoReplyAgain(t *testing.T) {
	db := modelstest.Open(t, models.Postgres)
	counted := &inserts{}
	wdb, err := models.OpenWith(t.Context(), modelstest.DSN(t, db), nil, models.Options{Tracer: counted})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wdb.Close() })
	site, worker := game.New(db, quiet), game.New(wdb, quiet)
	sp := startComputer(t, site, game.PoolConfig{Workers: 1, HashMB: 1, NoJobs: true})
	startComputer(t, worker, game.PoolConfig{Workers: 1, HashMB: 1})
	ctx := t.Context()
	for i := range 3 {
		g, _ := vsComputer(t, site, "abapa", "south", 2)
		if err := site.Move(ctx, g, engine.South, "D"); err != nil {
			t.Fatal(err)
		}
		sp.Await(ctx, g.ID) // the site's loads: the worker's handle counts its own statements only
		if n := len(movesOf(t, db, g.ID)); n != 2 {
			t.Fatalf("game %d: %d moves, want the person's and the reply", i, n)
		}
	}
	if n := counted.n.Load(); n != 0 {
		t.Errorf("the worker inserted %d jobs for 3 replies the site asked for, want 0", n)
	}
}
