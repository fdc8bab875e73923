package puzzle

import (
	"errors"
	"slices"
	"testing"

	"oware/engine"
	"oware/engine/endgame"
	"oware/engine/enginetest"
)

// TestSolveDeepAgreesWithBruteForce: positions of 11 and 13 seeds, beyond
// the 10-seed tables, whose every line ends within 10 plies, so that the
// deep search's values are the true ones, worked out here by playing
// every line to its end. Warri 0-0-0-0-4-2-1-2-2-0-0-0-19-18-S: E keeps
// +9, F 0, so E is the puzzle (9 seeds better than F, at least
// DeepMargin), themes middlegame and grand slam (E's last seed makes c 3,
// b 3, a 2: North's whole row); Abapa 2-2-1-1-0-0-0-0-0-0-4-2-18-18-N: e
// +8, f 0, a capture chain (C 2, B 3, A 3). Abapa 2-2-0-2-0-0-0-0-0-0-3-2-18-19-N, whose two moves both
// keep +7, is no puzzle. A changed solution or value fails Verify.
func TestSolveDeepAgreesWithBruteForce(t *testing.T) {
	d := NewDeep()
	for _, c := range []struct {
		rules  engine.Oware
		pos    string
		best   int
		values map[int]int
		theme  string
	}{
		{warri, "0-0-0-0-4-2-1-2-2-0-0-0-19-18-S", 4, map[int]int{4: 9, 5: 0}, GrandSlam},
		{abapa, "2-2-1-1-0-0-0-0-0-0-4-2-18-18-N", 10, map[int]int{10: 8, 11: 0}, CaptureChain},
	} {
		pos := parse(t, c.rules, c.pos)
		g := engine.NewGame(c.rules, pos)
		for pit, want := range c.values {
			if v, ok := enginetest.Move(g, pit, 10); !ok || v != want {
				t.Fatalf("%s: brute force of %s: %d %v, want %d", c.pos, engine.Label(pit), v, ok, want)
			}
		}
		p, ok, err := d.SolveDeep(t.Context(), c.rules, pos)
		if err != nil || !ok {
			t.Fatalf("%s: no puzzle (%v)", c.pos, err)
		}
		if !slices.Equal(p.Solution, []int{c.best}) || !slices.Equal(p.Themes, []string{Middlegame, c.theme}) || !p.Deep() {
			t.Errorf("%s: solution %v, themes %v", c.pos, p.Labels(), p.Themes)
		}
		for i, m := range p.First {
			if m.Lo != c.values[m.Pit] || m.Hi != m.Lo || i == 0 && m.Pit != c.best {
				t.Errorf("%s: first moves %v, want %v, %s first", c.pos, p.First, c.values, engine.Label(c.best))
			}
		}
		if err := Verify(nil, p); err != nil {
			t.Error(err)
		}
		wrong := *p
		wrong.Solution = []int{p.First[1].Pit}
		if err := Verify(nil, &wrong); !errors.Is(err, ErrNotUnique) {
			t.Errorf("%s: the second move as solution: %v", c.pos, err)
		}
		wrong = *p
		wrong.First = slices.Clone(p.First)
		wrong.First[1] = endgame.MoveBounds{Pit: wrong.First[1].Pit, Lo: 6, Hi: 6}
		if err := Verify(nil, &wrong); !errors.Is(err, ErrNotUnique) {
			t.Errorf("%s: a changed value: %v", c.pos, err)
		}
	}
	tie := parse(t, abapa, "2-2-0-2-0-0-0-0-0-0-3-2-18-19-N")
	g := engine.NewGame(abapa, tie)
	for _, pit := range []int{10, 11} {
		if v, ok := enginetest.Move(g, pit, 10); !ok || v != 7 {
			t.Fatalf("the tie: brute force of %s: %d %v, want 7", engine.Label(pit), v, ok)
		}
	}
	if p, ok, err := d.SolveDeep(t.Context(), abapa, tie); ok || err != nil {
		t.Errorf("two moves of +7: puzzle %+v (%v)", p, err)
	}
}

// TestGenerateDeep: drawn deep search puzzles have more seeds than asked
// for at least, verify, and survive the file.
func TestGenerateDeep(t *testing.T) {
	d := NewDeep()
	ps, err := d.GenerateDeep(t.Context(), DeepOptions{Rules: []engine.Oware{abapa, warri}, MinSeeds: 11, MaxSeeds: 14, Count: 3, Tries: 400, Seed: 2})
	if err != nil || len(ps) != 3 {
		t.Fatalf("%d puzzles (%v), want 3", len(ps), err)
	}
	for _, p := range ps {
		if n := p.Position.BoardSeeds(); n < 11 || n > 14 || !p.Deep() || p.First[0].Lo-p.First[1].Lo < DeepMargin {
			t.Errorf("puzzle %+v: %d seeds", p, n)
		}
	}
	if errs := VerifyAll(endgame.Tables{}, ps); len(errs) > 0 {
		t.Fatal(errs)
	}
}
