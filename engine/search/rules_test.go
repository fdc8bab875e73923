package search

import (
	"context"
	"testing"

	"oware/engine"
)

// TestGrandSlamSettingsApart: the same position has a different value
// under each grand slam setting, and a searcher that has just searched it
// under one must not answer from what it learned there under another.
func TestGrandSlamSettingsApart(t *testing.T) {
	// South's only seeds are the two of f; North has one in g and one in h;
	// each side has captured 22. f sows g and h to 2 each, a capture of
	// North's whole row: a grand slam (RULES.md 2.4, 3).
	//   abapa: it captures nothing; North, to move, cannot feed South (g and
	//          h reach i and j at most), so the game ends and North takes
	//          its own 4 seeds: 22 to 26, -4 for South.
	//   wari:  f is South's only move, so the grand slam is legal; it takes
	//          4 and South, at 26, wins at once: 26 to 22, +4.
	//   warri: the same capture and the same 25-seed end: +4.
	const pos = "0-0-0-0-0-2-1-1-0-0-0-0-22-22-S"
	want := map[string]int{"abapa": -400, "wari": 400, "warri": 400}
	s := NewSearcher(1, nil)
	for _, rules := range []string{"abapa", "wari", "warri", "abapa", "warri"} {
		res, err := s.Search(context.Background(), game(t, rules, pos), Options{Limits: Limits{Depth: 3}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != want[rules] || !res.Exact {
			t.Errorf("%s: score %d exact %v, want %d exact", rules, res.Score, res.Exact, want[rules])
		}
	}
}

// TestTableKeptPerRules: a searcher that searched a position under other
// rule sets answers it exactly as a fresh searcher does. Positions of
// few seeds, where grand slams are common, searched deep enough that the
// transposition table answers many nodes: an entry of one rule set read
// under another would change some of the results.
func TestTableKeptPerRules(t *testing.T) {
	rules := []engine.Oware{{GrandSlam: engine.Abapa}, {GrandSlam: engine.Wari}, {GrandSlam: engine.Warri}}
	shared := NewSearcher(1, nil)
	checked := 0
	for i := range 60 {
		state := uint64(i) + 1000
		p := rules[0].Start()
		p.Pits = [engine.NumPits]uint8{}
		for range 5 + i%6 {
			p.Pits[splitmix64(&state)%engine.NumPits]++
		}
		p.Captured = [2]uint8{20, 48 - 20 - uint8(p.BoardSeeds())}
		shared.NewGame()
		for k := range 3 {
			r := rules[(i+k)%3]
			g := engine.NewGame(r, p)
			if g.Over || g.LegalMoves() == 0 {
				continue
			}
			opt := Options{Limits: Limits{Depth: 9}, NoTables: true}
			got, err := shared.Search(context.Background(), g, opt)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := NewSearcher(1, nil).Search(context.Background(), g, opt)
			if got.Best != want.Best || got.Score != want.Score || got.Exact != want.Exact {
				t.Fatalf("%s %s after other rules: %s %d %v, fresh %s %d %v", r.Name(), r.FormatPosition(p),
					engine.Label(got.Best), got.Score, got.Exact, engine.Label(want.Best), want.Score, want.Exact)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("only %d searches compared", checked)
	}
}
