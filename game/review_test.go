package game

import (
	"context"
	"sync"
	"testing"

	"oware/engine"
	"oware/engine/endgame"
	"oware/engine/enginetest"
	"oware/engine/search"
)

// bruteValue and bruteMove are the tests' oracle (enginetest).
var (
	bruteValue = enginetest.Value
	bruteMove  = enginetest.Move
)

var (
	smallTablesOnce sync.Once
	smallTables     endgame.Tables
)

// tableSearch returns a search of the review with the Abapa endgame table
// of up to 6 seeds, built once.
func tableSearch(t *testing.T) searchFunc {
	smallTablesOnce.Do(func() {
		tab, err := endgame.Build(context.Background(), engine.Oware{GrandSlam: engine.Abapa}, 6, nil)
		if err != nil {
			t.Fatal(err)
		}
		smallTables = endgame.Tables{engine.Abapa: tab}
	})
	s := search.NewSearcher(1, smallTables)
	return func(ctx context.Context, g *engine.Game) (search.Result, error) {
		s.NewGame()
		return s.Search(ctx, g, search.Options{Limits: search.Limits{Depth: 30}})
	}
}

// reviewOfMoves reviews moves (labels) from the Abapa position start.
func reviewOfMoves(t *testing.T, start string, moves ...string) []ReviewPly {
	t.Helper()
	r := engine.Oware{GrandSlam: engine.Abapa}
	p, err := r.ParsePosition(start)
	if err != nil {
		t.Fatal(err)
	}
	pits := make([]int, len(moves))
	for i, m := range moves {
		if pits[i], err = engine.ParseLabel(m); err != nil {
			t.Fatal(err)
		}
	}
	var plies []ReviewPly
	if err := reviewMoves(t.Context(), r, p, pits, nil, 0, tableSearch(t), func(p ReviewPly) error {
		plies = append(plies, p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(plies) != len(moves) {
		t.Fatalf("%d plies reviewed, want %d", len(plies), len(moves))
	}
	return plies
}

// TestReviewBlunder: South (23 captured, North 21) has E and F:
//
//	F sows into a, which makes 2: captured, South has 25 and wins 25-21: +4.
//	E sows into F (2). North answers d-e; South's only move F sows a, b
//	(1, no capture); North cannot feed South's empty row: the game ends,
//	North takes its 4 seeds: 23-25, -2 for South. (North's a-b instead
//	lets F capture b's 2: 25-21.)
//
// So E loses 6 seeds: a blunder, proven; d and F are best.
func TestReviewBlunder(t *testing.T) {
	plies := reviewOfMoves(t, "0-0-0-0-1-1-1-0-0-1-0-0-23-21-S", "E", "d", "F")
	want := []struct {
		move, best string
		value      float64
		loss       float64
		mark       Mark
		result     string
	}{
		{"E", "F", -2, 6, MarkBlunder, "loss"},
		{"d", "d", 2, 0, MarkBest, "win"},
		{"F", "F", -2, 0, MarkBest, "loss"},
	}
	for i, w := range want {
		p := plies[i]
		if p.Ply != i+1 || p.Move != w.move || p.Best != w.best || p.Value != w.value || p.Loss != w.loss || p.Mark != w.mark || !p.Exact || p.Result != w.result {
			t.Errorf("ply %d: %+v, want %+v", i+1, p, w)
		}
	}
	if plies[0].BestValue != 4 || len(plies[0].Refutation) == 0 || plies[0].Refutation[0] != "d" {
		t.Errorf("ply 1: best value %v, refutation %v; want 4 and d first", plies[0].BestValue, plies[0].Refutation)
	}
	sum := Summarize(plies)
	if sum.South != (ReviewSide{Blunder: 1, AverageLoss: 3}) || sum.North != (ReviewSide{}) {
		t.Errorf("summary %+v", sum)
	}
}

// TestReviewAgreesWithBruteForce: games from small positions, the first
// move a poor one, the rest the best by brute force; every ply's value and
// loss are the brute force's, and its mark follows the documented
// thresholds (the first move's mark is also given by hand: 6 seeds
// lost a blunder, 4 or 5 a mistake, 0 best).
func TestReviewAgreesWithBruteForce(t *testing.T) {
	r := engine.Oware{GrandSlam: engine.Abapa}
	for _, c := range []struct {
		start, first string
		mark         Mark
	}{
		{"1-0-0-1-0-0-0-0-0-0-0-1-23-22-S", "D", MarkMistake}, // A +4, D 0
		{"1-0-0-0-1-0-0-0-0-0-0-1-22-23-S", "E", MarkMistake}, // A +2, E -3
		{"0-1-0-1-0-0-0-0-0-0-0-2-22-22-S", "D", MarkMistake}, // B +4, D 0
		{"1-0-0-1-0-0-0-0-0-0-0-1-23-22-S", "A", MarkBest},    // the best
		{"0-0-0-0-1-1-1-0-1-0-0-0-24-20-S", "E", MarkBlunder}, // F +6, E 0
		{"1-1-0-0-0-0-0-0-0-0-0-2-24-20-S", "A", MarkBlunder}, // B +8, A +2
		{"1-0-1-0-0-0-0-0-0-0-0-1-24-21-S", "C", MarkMistake}, // A +6, C +2
		{"1-0-0-1-0-0-0-0-0-0-0-1-24-21-S", "D", MarkMistake}, // A +6, D +2
		{"0-1-1-0-0-0-0-0-0-0-0-2-21-23-S", "C", MarkBlunder}, // B +2, C -4
		{"0-1-0-0-1-0-0-0-0-0-0-2-20-24-S", "B", MarkBest},    // B 0, E -6
	} {
		p, err := r.ParsePosition(c.start)
		if err != nil {
			t.Fatal(err)
		}
		g := engine.NewGame(r, p)
		first, _ := engine.ParseLabel(c.first)
		moves := []string{c.first}
		type expect struct{ value, loss int }
		var want []expect
		for pit := first; ; {
			best, bestV := -1, -1000
			for _, m := range g.LegalMoves().Pits() {
				v, ok := bruteMove(g, m, 12)
				if !ok {
					t.Fatalf("%s: no brute force", c.start)
				}
				if v > bestV {
					best, bestV = m, v
				}
			}
			if pit < 0 {
				pit = best
				moves = append(moves, engine.Label(pit))
			}
			v, _ := bruteMove(g, pit, 12)
			loss := bestV - v
			if g.LegalMoves().Count() == 1 {
				loss = 0
			}
			want = append(want, expect{v, loss})
			if _, err := g.Play(pit); err != nil {
				t.Fatal(err)
			}
			if g.Over {
				break
			}
			pit = -1
		}
		plies := reviewOfMoves(t, c.start, moves...)
		for i, w := range want {
			pl := plies[i]
			if pl.Value != float64(w.value) || pl.Loss != float64(w.loss) || !pl.Exact || pl.Mark != MarkOf(float64(w.loss)) {
				t.Errorf("%s %v ply %d: %+v, want value %d loss %d", c.start, moves, i+1, pl, w.value, w.loss)
			}
		}
		if plies[0].Mark != c.mark {
			t.Errorf("%s %s: marked %s, want %s", c.start, c.first, plies[0].Mark, c.mark)
		}
	}
}

// TestMarkOf: the documented thresholds (docs/learning.md).
func TestMarkOf(t *testing.T) {
	for _, c := range []struct {
		loss float64
		want Mark
	}{{0, MarkBest}, {0.2, MarkBest}, {0.25, MarkGood}, {0.99, MarkGood}, {1, MarkInaccuracy}, {2.9, MarkInaccuracy},
		{3, MarkMistake}, {5.99, MarkMistake}, {6, MarkBlunder}, {30, MarkBlunder}} {
		if got := MarkOf(c.loss); got != c.want {
			t.Errorf("MarkOf(%v) = %s, want %s", c.loss, got, c.want)
		}
	}
}

// TestReviewPlyTime: the budget shared by the positions (61 for 60 plies),
// at most MaxReviewPlyTime each (short games), at least MinReviewPlyTime.
func TestReviewPlyTime(t *testing.T) {
	if got := ReviewPlyTime(60); got != ReviewBudget/61 {
		t.Errorf("60 plies: %v a position, want %v", got, ReviewBudget/61)
	}
	if got := ReviewPlyTime(10); got != MaxReviewPlyTime {
		t.Errorf("10 plies: %v a position, want %v", got, MaxReviewPlyTime)
	}
	if got := ReviewPlyTime(MaxReviewPlies); got != ReviewBudget/(MaxReviewPlies+1) && got != MinReviewPlyTime {
		t.Errorf("%d plies: %v a position", MaxReviewPlies, got)
	}
	if got := ReviewPlyTime(200); got != ReviewBudget/201 {
		t.Errorf("200 plies: %v a position, want %v", got, ReviewBudget/201)
	}
}

// TestReviewNamNam: a Nam-nam match is reviewed like a game, one ply per
// move, each value from the mover's side within the seeds of the match
// (48 at most either way), the best move one of the legal ones.
func TestReviewNamNam(t *testing.T) {
	r := engine.NamNam{Fours: engine.FoursLast}
	g := engine.NewGame(r, r.Start())
	for range 6 {
		g.Play(g.LegalMoves().Pits()[0])
	}
	s := search.NewSearcher(1, nil)
	find := func(ctx context.Context, g *engine.Game) (search.Result, error) {
		s.NewGame()
		return s.Search(ctx, g, search.Options{Limits: search.Limits{Depth: 2}})
	}
	replay := engine.NewGame(r, r.Start())
	n := 0
	err := reviewMoves(t.Context(), r, r.Start(), g.Moves, nil, 0, find, func(p ReviewPly) error {
		n++
		best, err := engine.ParseLabel(p.Best)
		if p.Ply != n || err != nil || !replay.LegalMoves().Has(best) || p.Value < -48 || p.Value > 48 || p.Loss < 0 {
			t.Errorf("ply %d: %+v", n, p)
		}
		pit, _ := engine.ParseLabel(p.Move)
		replay.Play(pit)
		return nil
	})
	if err != nil || n != 6 {
		t.Fatalf("%d plies, %v", n, err)
	}
}
