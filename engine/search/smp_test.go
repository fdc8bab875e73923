package search

import (
	"context"
	"testing"
	"time"

	"oware/engine"
	"oware/engine/endgame"
)

// TestThreadsAgreeWithTables: a search on four threads (lazy SMP) proves
// the values the endgame table holds, as the single thread does
// (TestAgreesWithTables): every proven value within the table's bounds,
// equal to an exact one, and the same as the single thread's.
func TestThreadsAgreeWithTables(t *testing.T) {
	rules := engine.Oware{GrandSlam: engine.Abapa}
	tab, err := endgame.Build(context.Background(), rules, 6, nil)
	if err != nil {
		t.Fatal(err)
	}
	one, four := NewSearcher(4, nil), NewSearcher(4, nil)
	compared := 0
	for i := 0; i < 150; i++ {
		state := uint64(1000 + i)
		p := rules.Start()
		p.Pits = [engine.NumPits]uint8{}
		for range 2 + i%5 {
			p.Pits[splitmix64(&state)%engine.NumPits]++
		}
		g := engine.NewGame(rules, p)
		if g.Over {
			continue
		}
		lim := Limits{Depth: 40, Nodes: 100000}
		single, err := one.Search(context.Background(), g, Options{Limits: lim})
		if err != nil {
			t.Fatal(err)
		}
		smp, err := four.Search(context.Background(), g, Options{Limits: lim, Threads: 4})
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, _ := tab.Probe(&p)
		if !smp.Exact || !single.Exact {
			continue
		}
		if smp.Score < 100*lo || smp.Score > 100*hi || smp.Score != single.Score || smp.Proven != single.Proven {
			t.Fatalf("%s: four threads prove %d (%s), one %d (%s), table [%d, %d]", rules.FormatPosition(p),
				smp.Score, smp.Proven, single.Score, single.Proven, lo, hi)
		}
		if lo == hi {
			compared++
		}
	}
	if compared < 25 {
		t.Errorf("only %d exact values compared", compared)
	}
}

// TestOneThreadIsReproducible: Threads 0 and 1 are the same search,
// node for node, as the site's replies need (the same seed and position,
// the same move).
func TestOneThreadIsReproducible(t *testing.T) {
	for _, g := range middlegames(t, 3) {
		var results [2]Result
		for i, threads := range []int{0, 1} {
			res, err := NewSearcher(8, nil).Search(context.Background(), g, Options{Limits: Limits{Depth: 10}, Threads: threads})
			if err != nil {
				t.Fatal(err)
			}
			res.Time = 0
			results[i] = res
		}
		if results[0].Best != results[1].Best || results[0].Score != results[1].Score || results[0].Nodes != results[1].Nodes {
			t.Errorf("threads 0: %+v; threads 1: %+v", results[0], results[1])
		}
	}
}

// TestThreadsKeepTheirTime: with helpers, a timed search still answers a
// legal move within its time (and a little), and a node limit stops
// every thread.
func TestThreadsKeepTheirTime(t *testing.T) {
	g := middlegames(t, 1)[0]
	s := NewSearcher(8, nil)
	start := time.Now()
	res, err := s.Search(context.Background(), g, Options{Limits: Limits{MoveTime: 200 * time.Millisecond}, Threads: 3})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 2*time.Second || !g.LegalMoves().Has(res.Best) {
		t.Errorf("200 ms on three threads: took %v, move %d", took, res.Best)
	}
	res, err = s.Search(context.Background(), g, Options{Limits: Limits{Nodes: 20000}, Threads: 3})
	if err != nil || !g.LegalMoves().Has(res.Best) || res.Depth == 0 {
		t.Errorf("20,000 nodes on three threads: %+v, %v", res, err)
	}
}
