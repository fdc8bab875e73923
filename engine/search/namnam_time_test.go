package search

import (
	"context"
	"errors"
	"testing"
	"time"

	"oware/engine"
)

// slowNamNam is the slowest Nam-nam position known for its legal moves
// (engine's worstNamNam, found by a search over random positions): North's
// pit c relays for about 13 million laps before the cycle shows, some
// 0.15 s of CPU.
const slowNamNam = "0-5-1-0-9-1-5-1-3-6-5-12-0-0-N-SSSSNNNNNNNN-0-0"

// slowPlay makes every position of a search as costly to check as
// slowNamNam, with the search's budget: the tree of a crafted position.
type slowPlay struct {
	play
	n    engine.NamNam
	slow engine.Position
}

func (s slowPlay) legal(p *engine.Position) engine.Moves {
	s.n.LegalMoves(s.slow)
	return s.play.legal(p)
}

// slowSearcher returns a searcher whose Nam-nam positions all cost as much
// as slowNamNam.
func slowSearcher(t testing.TB) *Searcher {
	slow, err := engine.NamNam{}.ParsePosition(slowNamNam)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSearcher(1, nil)
	s.newPlay = func(r engine.Rules, b *engine.Budget) play {
		return slowPlay{play: playFor(r, b), n: engine.NamNam{Budget: b}, slow: slow}
	}
	return s
}

// searchOrHang runs the search and fails when it has not ended after a
// minute (without the budget's stop it would take 1024 nodes of 0.15 s
// before the first look at the clock).
func searchOrHang(t *testing.T, ctx context.Context, s *Searcher, g *engine.Game, opt Options) (Result, error) {
	t.Helper()
	type answer struct {
		res Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := s.Search(ctx, g, opt)
		done <- answer{res, err}
	}()
	select {
	case a := <-done:
		if !g.LegalMoves().Has(a.res.Best) {
			t.Errorf("best %d is not a legal move of %s", a.res.Best, g.Rules.FormatPosition(g.Position))
		}
		return a.res, a.err
	case <-time.After(time.Minute):
		t.Fatal("the search did not stop")
	}
	return Result{}, nil
}

// TestNamNamSearchStops: with every position as slow to check as the
// slowest known, a search still ends at its time, its context's deadline
// or its cancellation, with a legal move, under both fours settings.
func TestNamNamSearchStops(t *testing.T) {
	for _, fours := range []string{"last", "owner"} {
		r, _ := engine.NewRules("namnam", fours)
		g := engine.NewGame(r, r.Start())
		s := slowSearcher(t)
		if _, err := searchOrHang(t, context.Background(), s, g, Options{Limits: Limits{MoveTime: 20 * time.Millisecond}}); err != nil {
			t.Errorf("%s, movetime: %v", fours, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		if _, err := searchOrHang(t, ctx, s, g, Options{}); err != nil {
			t.Errorf("%s, deadline: %v, want the best so far", fours, err)
		}
		cancel()
		ctx, cancel = context.WithCancel(context.Background())
		time.AfterFunc(20*time.Millisecond, cancel)
		if _, err := searchOrHang(t, ctx, s, g, Options{}); err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("%s, cancelled: %v", fours, err)
		}
		if _, err := s.Analyze(ctx, g, Limits{Depth: 30}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Analyze with a cancelled context: %v", fours, err)
		}
	}
}

// TestSlowNamNamRoot: from the slowest position itself (its own legal
// moves decided once through the caller's cache), a short search answers
// with one of them, and so does Analyze within its time.
func TestSlowNamNamRoot(t *testing.T) {
	r := engine.NamNam{Cache: engine.NewLegalCache(64)}
	p, err := r.ParsePosition(slowNamNam)
	if err != nil {
		t.Fatal(err)
	}
	g := engine.NewGame(r, p)
	// North owns e..l; its c relays for ever (the engine's tests), its
	// other non-empty pits end: E F a b d e f.
	if got := g.LegalMoves().Labels(); len(got) != 7 || g.LegalMoves().Has(8) {
		t.Fatalf("legal moves %v, want E F a b d e f", got)
	}
	s := NewSearcher(1, nil)
	searchOrHang(t, context.Background(), s, g, Options{Limits: Limits{MoveTime: 50 * time.Millisecond}})
	a, err := s.Analyze(context.Background(), g, Limits{MoveTime: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if pit, err := engine.ParseLabel(a.Best); err != nil || !g.LegalMoves().Has(pit) {
		t.Errorf("Analyze: best %q is not legal", a.Best)
	}
}

// TestNamNamSearchMemory: a Nam-nam search allocates nothing per node (its
// moves are played without a record, whose relay laps a long sowing would
// fill): a search of thousands of nodes makes only the result's few
// allocations.
func TestNamNamSearchMemory(t *testing.T) {
	g := game(t, "namnam", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0")
	s := NewSearcher(1, nil)
	var nodes uint64
	allocs := testing.AllocsPerRun(3, func() {
		s.NewGame()
		res, err := s.Search(context.Background(), g, Options{Limits: Limits{Depth: 9}})
		if err != nil {
			t.Fatal(err)
		}
		nodes = res.Nodes
	})
	if nodes < 2000 || allocs > 100 {
		t.Errorf("%.0f allocations for %d nodes", allocs, nodes)
	}
}
