package puzzle

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"oware/engine"
	"oware/engine/endgame"
)

var (
	abapa = engine.Oware{GrandSlam: engine.Abapa}
	warri = engine.Oware{GrandSlam: engine.Warri}
)

func parse(t *testing.T, rules engine.Oware, s string) engine.Position {
	t.Helper()
	p, err := rules.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func table(t *testing.T, rules engine.Oware, seeds int) *endgame.Table {
	t.Helper()
	tab, err := endgame.Build(t.Context(), rules, seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestSolveGrandSlam: Warri, South (22) to move with E and F of one seed,
// North (23) with a of one. F makes a 2, the whole of North's row: a
// grand slam that takes it; South moves again and must feed, which E
// cannot, so the game ends and South takes E: 25 to 23, +2. E instead
// sows into F; North's only move a sows into b; F takes b's 2 (a keeps
// one seed: no grand slam); North's a sows into b and South, without
// seeds, cannot move: North takes b, 24 to 24, a draw. So F is the only
// win, by 2 seeds of final capture difference.
func TestSolveGrandSlam(t *testing.T) {
	pos := parse(t, warri, "0-0-0-0-1-1-1-0-0-0-0-0-22-23-S")
	p, ok := Solve(table(t, warri, 6), warri, pos)
	if !ok {
		t.Fatal("no puzzle")
	}
	if !slices.Equal(p.Solution, []int{5}) {
		t.Errorf("solution %v, want [F]", p.Labels())
	}
	want := []endgame.MoveBounds{{Pit: 5, Lo: 2, Hi: 2}, {Pit: 4, Lo: 0, Hi: 0}}
	if !slices.Equal(p.First, want) {
		t.Errorf("first moves %v, want %v", p.First, want)
	}
	if !slices.Equal(p.Themes, []string{EndgameWin, GrandSlam}) {
		t.Errorf("themes %v", p.Themes)
	}
	if p.Rating != 1100+10*3 {
		t.Errorf("rating %d, want 1130 (two legal moves, one solver move, a capture, 3 seeds)", p.Rating)
	}
	if p.ID != IDOf(warri, pos) || len(p.ID) != 8 {
		t.Errorf("id %q", p.ID)
	}
}

// TestThemes: each theme's rule on a position worked by hand.
func TestThemes(t *testing.T) {
	cases := []struct {
		name  string
		rules engine.Oware
		pos   string
		line  []int
		want  []string
	}{
		// F's two seeds make a and b 2 each: both taken, f keeps its seed.
		{"chain", abapa, "0-0-0-0-0-2-1-1-0-0-0-1-21-22-S", []int{5}, []string{EndgameWin, CaptureChain}},
		// North's row is empty: South must feed.
		{"feeding", abapa, "0-0-0-0-1-1-0-0-0-0-0-0-23-23-S", []int{4}, []string{EndgameWin, Feeding}},
		// North's f would make A 2 and take it; after A, f makes A 1.
		{"saving", abapa, "1-1-0-0-0-0-0-0-0-0-0-1-22-23-S", []int{0}, []string{EndgameWin, Saving}},
		// B instead leaves A to be taken (North's f makes A 2).
		{"not saving", abapa, "1-1-0-0-0-0-0-0-0-0-0-1-22-23-S", []int{1}, []string{EndgameWin}},
		// Warri: F takes North's whole row.
		{"grand slam", warri, "0-0-0-0-1-1-1-0-0-0-0-0-22-23-S", []int{5}, []string{EndgameWin, GrandSlam}},
	}
	for _, c := range cases {
		if got := themes(c.rules, parse(t, c.rules, c.pos), c.line, EndgameWin); !slices.Equal(got, c.want) {
			t.Errorf("%s: themes %v, want %v", c.name, got, c.want)
		}
	}
}

// TestGenerateVerifyAndFile: generated puzzles verify, survive the file
// and back, and a changed solution, first move or theme fails the proof.
func TestGenerateVerifyAndFile(t *testing.T) {
	ts := endgame.Tables{engine.Abapa: table(t, abapa, 7), engine.Warri: table(t, warri, 7)}
	ps := Generate(ts, Options{Rules: []engine.Oware{abapa, warri}, MinSeeds: 4, MaxSeeds: 7, Count: 40, Tries: 200000, Seed: 3})
	if len(ps) != 40 {
		t.Fatalf("%d puzzles, want 40", len(ps))
	}
	if errs := VerifyAll(ts, ps); len(errs) > 0 {
		t.Fatal(errs)
	}
	var buf bytes.Buffer
	if err := Write(&buf, ps); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(ps) {
		t.Fatalf("%d puzzles read back, want %d", len(back), len(ps))
	}
	for i := range ps {
		a, b := ps[i], back[i]
		if a.ID != b.ID || a.Rules != b.Rules || a.Position != b.Position || !slices.Equal(a.Solution, b.Solution) ||
			!slices.Equal(a.Themes, b.Themes) || a.Rating != b.Rating || !slices.Equal(a.First, b.First) {
			t.Fatalf("puzzle %d: %+v read back as %+v", i, a, b)
		}
	}

	p := back[0]
	wrong := *p
	wrong.Solution = slices.Clone(p.Solution)
	wrong.Solution[0] = p.First[1].Pit // the second best move
	if err := Verify(ts.Table(p.Rules), &wrong); !errors.Is(err, ErrNotUnique) {
		t.Errorf("the second best move as solution: %v", err)
	}
	wrong = *p
	wrong.First = slices.Clone(p.First)
	wrong.First[1].Hi += 2
	if err := Verify(ts.Table(p.Rules), &wrong); !errors.Is(err, ErrNotUnique) {
		t.Errorf("changed bounds: %v", err)
	}
	wrong = *p
	wrong.Themes = append(slices.Clone(p.Themes), Feeding)
	if err := Verify(ts.Table(p.Rules), &wrong); !errors.Is(err, ErrNotUnique) {
		t.Errorf("an added theme: %v", err)
	}
}

// TestReadRefuses: a file without its header, or with a bad line, is
// refused with the line's number.
func TestReadRefuses(t *testing.T) {
	for _, text := range []string{
		"",
		"oware-puzzles 2\n",
		FileHeader + "\nabc abapa 0-0-0-0-1-1-1-0-0-0-0-0-22-23-S F endgame-win 1130\n",
		FileHeader + "\nabc abapa 0-0-0-0-1-1-1-0-0-0-0-0-22-23-X F endgame-win 1130 F:2:2\n",
		FileHeader + "\nabc abapa 0-0-0-0-1-1-1-0-0-0-0-0-22-23-S Z endgame-win 1130 F:2:2\n",
		FileHeader + "\nabc abapa 0-0-0-0-1-1-1-0-0-0-0-0-22-23-S F chess 1130 F:2:2\n",
		FileHeader + "\nabc abapa 0-0-0-0-1-1-1-0-0-0-0-0-22-23-S F endgame-win 1130 F:4:2\n",
	} {
		if _, err := Read(bytes.NewReader([]byte(text))); err == nil {
			t.Errorf("%q: no error", text)
		}
	}
}
