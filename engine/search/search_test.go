package search

import (
	"context"
	"testing"

	"oware/engine"
	"oware/engine/endgame"
)

func game(t testing.TB, rules, position string, moves ...string) *engine.Game {
	t.Helper()
	r, err := engine.RulesByName(rules)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.ParsePosition(position)
	if err != nil {
		t.Fatal(err)
	}
	g := engine.NewGame(r, p)
	for _, m := range moves {
		pit, err := engine.ParseLabel(m)
		if err == nil {
			_, err = g.Play(pit)
		}
		if err != nil {
			t.Fatalf("move %s: %v", m, err)
		}
	}
	return g
}

// TestForcedResults: positions whose best move and exact value are worked
// out by hand; the search must find both and prove the value.
func TestForcedResults(t *testing.T) {
	for _, c := range []struct {
		rules, position string
		best            []string
		score           int // centi-seeds, final capture difference
		depth           int
		exact           bool
		why             string
	}{
		{"abapa", "2-0-0-0-0-1-1-3-0-0-0-4-24-13-S", []string{"F"}, 1300, 4, false,
			"F's seed turns a into 2: South captures them, reaches 26 and wins at once, 26 to 13 (RULES.md 2.6); A captures nothing. The win is proven, not the margin: A might win by more later"},
		{"wari", "0-0-0-0-4-3-1-2-1-0-0-0-15-22-S", []string{"E", "F"}, 400, 2, true,
			"tutorial 2: both moves are grand slams taking 7 and end the game, South adding its 4: 26 to 22"},
		{"warri", "3-2-2-1-1-3-1-2-1-0-0-0-14-18-S", []string{"F"}, 1200, 4, true,
			"tutorial 2: F's grand slam takes 7, South cannot feed with its extra move and takes its own 9: 30 to 18, every seed"},
		{"abapa", "1-0-0-0-0-0-1-0-0-0-0-0-23-23-S", []string{"A"}, 0, 14, true,
			"every move is forced and the start comes back after 12 moves (endgame tests): each side takes its seed, 24 to 24"},
	} {
		g := game(t, c.rules, c.position)
		res, err := NewSearcher(16, nil).Search(context.Background(), g, Options{Limits: Limits{Depth: c.depth}})
		if err != nil {
			t.Fatal(err)
		}
		label := engine.Label(res.Best)
		ok := false
		for _, b := range c.best {
			ok = ok || b == label
		}
		want := map[bool]string{true: "win", false: "loss"}[c.score > 0]
		if c.score == 0 {
			want = "draw"
		}
		if !ok || res.Score != c.score || res.Exact != c.exact || res.Proven != want {
			t.Errorf("%s %s: best %s score %d exact %v proven %q; want %v, %d, %v, %q: %s", c.rules, c.position, label,
				res.Score, res.Exact, res.Proven, c.best, c.score, c.exact, want, c.why)
		}
	}
}

// TestRepetitionFromTheGame: the search knows the positions the game has
// been through since its last capture. Eleven of the twelve forced moves
// of the two-seed walk are played; North's only move, f, brings back the
// start: the game ends there, 24 to 24, which only the game's history tells.
func TestRepetitionFromTheGame(t *testing.T) {
	g := game(t, "abapa", "1-0-0-0-0-0-1-0-0-0-0-0-23-23-S", "A", "a", "B", "b", "C", "c", "D", "d", "E", "e", "F")
	res, err := NewSearcher(16, nil).Search(context.Background(), g, Options{Limits: Limits{Depth: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if engine.Label(res.Best) != "f" || res.Score != 0 || !res.Exact {
		t.Errorf("best %s score %d exact %v; want f, 0, exact", engine.Label(res.Best), res.Score, res.Exact)
	}
	if got := len(sinceCapture(g, g.Rules)); got != 12 {
		t.Errorf("%d positions since the last capture, want the start and 11 more", got)
	}
	g = game(t, "abapa", "2-0-0-0-0-1-1-3-0-0-0-4-20-17-S", "F", "b", "A")
	if got := len(sinceCapture(g, g.Rules)); got != 3 {
		t.Errorf("after a capture and two moves: %d positions, want 3", got)
	}
}

// TestAgreesWithTables: where the search without tables proves a value,
// it lies within the endgame table's bounds, and equals an exact one (the
// search sees the whole game from a fresh position, as the table does;
// the captures are kept at zero, as the table builder does, so that the
// 25-seed end, which the tables leave out, never comes).
func TestAgreesWithTables(t *testing.T) {
	for _, rules := range []engine.Oware{{GrandSlam: engine.Abapa}, {GrandSlam: engine.Warri}} {
		tab, err := endgame.Build(context.Background(), rules, 6, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := NewSearcher(16, nil)
		compared := 0
		bd := [engine.NumPits]uint8{}
		for i := 0; i < 300; i++ {
			state := uint64(i)
			p := rules.Start()
			p.Pits = bd
			for range 2 + i%5 {
				p.Pits[splitmix64(&state)%engine.NumPits]++
			}
			g := engine.NewGame(rules, p)
			if g.Over {
				continue
			}
			lo, hi, _ := tab.Probe(&p)
			res, err := s.Search(context.Background(), g, Options{Limits: Limits{Depth: 40, Nodes: 200000}})
			if err != nil {
				t.Fatal(err)
			}
			base := int(p.Captured[p.ToMove]) - int(p.Captured[p.ToMove.Opponent()])
			if res.Exact && (res.Score < 100*(base+lo) || res.Score > 100*(base+hi)) {
				t.Fatalf("%s %s: search proves %d, table [%d, %d] + %d", rules.Name(), rules.FormatPosition(p), res.Score, lo, hi, base)
			}
			if res.Exact && lo == hi {
				compared++
			}
		}
		if compared < 40 {
			t.Errorf("%s: only %d exact values compared", rules.Name(), compared)
		}
	}
}
