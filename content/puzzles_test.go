package content_test

import (
	"log/slog"
	"testing"

	"oware/content"
	"oware/engine/puzzle"
	"oware/models"
	"oware/models/modelstest"
)

// shipped returns the shipped puzzles.
func shipped(t *testing.T) []*puzzle.Puzzle {
	t.Helper()
	ps, err := content.Puzzles()
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestShippedPuzzles: the shipped file holds at least 500 puzzles, each
// id once, every theme among them; a sample (those of up to 7 seeds, one
// in three of them, and one in ten of the deep search ones, by their
// search) is proven again with tables built here (all of them with -tags
// slow, .ci/run).
func TestShippedPuzzles(t *testing.T) {
	ps := shipped(t)
	if len(ps) < 500 {
		t.Fatalf("%d puzzles shipped, want at least 500", len(ps))
	}
	ids := map[string]bool{}
	themes := map[string]int{}
	for _, p := range ps {
		if ids[p.ID] {
			t.Errorf("puzzle %s twice", p.ID)
		}
		ids[p.ID] = true
		for _, th := range p.Themes {
			themes[th]++
		}
	}
	for _, th := range puzzle.Themes {
		if themes[th] == 0 {
			t.Errorf("no puzzle of theme %s", th)
		}
	}
	var sample []*puzzle.Puzzle
	small, deep := 0, 0
	for _, p := range ps {
		if p.Deep() {
			if deep%10 == 0 {
				sample = append(sample, p)
			}
			deep++
			continue
		}
		if p.Position.BoardSeeds() <= 7 {
			if small%3 == 0 {
				sample = append(sample, p)
			}
			small++
		}
	}
	verifyPuzzles(t, sample)
}

// verifyPuzzles proves ps again with tables built for them.
func verifyPuzzles(t *testing.T, ps []*puzzle.Puzzle) {
	t.Helper()
	ts, err := puzzle.BuildTables(t.Context(), puzzle.Needs(ps))
	if err != nil {
		t.Fatal(err)
	}
	if errs := puzzle.VerifyAll(ts, ps); len(errs) > 0 {
		t.Fatalf("%d of %d puzzles fail: %v", len(errs), len(ps), errs[0])
	}
	deep := 0
	for _, p := range ps {
		if p.Deep() {
			deep++
		}
	}
	t.Logf("%d puzzles proven unique, %d of them by the deep search margin", len(ps), deep)
}

// TestLoadPuzzlesOnce: loading the content twice adds the shipped puzzles
// once and keeps a rating changed in between.
func TestLoadPuzzlesOnce(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			db := modelstest.Open(t, d)
			log := slog.New(slog.DiscardHandler)
			if err := content.Load(t.Context(), db, log); err != nil {
				t.Fatal(err)
			}
			first := shipped(t)[0]
			if err := db.Gorm.Model(&models.Puzzle{}).Where("id = ?", first.ID).Update("rating", 2345).Error; err != nil {
				t.Fatal(err)
			}
			if err := content.Load(t.Context(), db, log); err != nil {
				t.Fatal(err)
			}
			n, err := db.PuzzleCount(t.Context())
			if err != nil || n != len(shipped(t)) {
				t.Errorf("%d puzzles stored (%v), want %d", n, err, len(shipped(t)))
			}
			p, err := db.PuzzleByID(t.Context(), first.ID)
			if err != nil || p.Rating != 2345 || p.Number != 1 {
				t.Errorf("first puzzle %+v (%v): its rating 2345 lost", p, err)
			}
		})
	}
}
