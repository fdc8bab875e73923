package puzzle

import (
	"slices"
	"testing"

	"oware/engine"
	"oware/engine/endgame"
)

// TestMine: puzzles from played games. The Warri game from the hand-made
// puzzle's position (TestSolveGrandSlam: F alone wins) in which South
// played E gives that puzzle first, with F its solution and the grand
// slam its theme; the Abapa game E d F from 0-0-0-0-1-1-1-0-0-1-0-0-23-21-S
// gives its first position, where F (a capture of 2, South's 25th seed)
// alone wins and E loses (North's d leaves South only F, which hands North
// the last seeds); every puzzle mined passes Verify; a game whose board
// stays above the table's seeds gives none.
func TestMine(t *testing.T) {
	ts := endgame.Tables{warri.GrandSlam: table(t, warri, 6), abapa.GrandSlam: table(t, abapa, 6)}
	for _, c := range []struct {
		rules    engine.Oware
		start    string
		moves    string
		solution []int
		themes   []string
	}{
		{warri, "0-0-0-0-1-1-1-0-0-0-0-0-22-23-S", "E a", []int{5}, []string{EndgameWin, GrandSlam}},
		{abapa, "0-0-0-0-1-1-1-0-0-1-0-0-23-21-S", "E d F", []int{5}, []string{EndgameWin}},
	} {
		pos := parse(t, c.rules, c.start)
		var moves []int
		for _, l := range []rune(c.moves) {
			if l != ' ' {
				pit, _ := engine.ParseLabel(string(l))
				moves = append(moves, pit)
			}
		}
		ps := Mine(ts, c.rules, pos, moves)
		if len(ps) == 0 || ps[0].ID != IDOf(c.rules, pos) || !slices.Equal(ps[0].Solution, c.solution) || !slices.Equal(ps[0].Themes, c.themes) {
			t.Errorf("%s %s: %+v, want first the start with solution %v, themes %v", c.rules.Name(), c.start, ps, c.solution, c.themes)
		}
		for _, p := range ps {
			if err := Verify(ts.Table(p.Rules), p); err != nil {
				t.Error(err)
			}
		}
	}
	opening := []int{2, 8, 3, 9} // C d D e from the start: 48 seeds on the board
	if ps := Mine(ts, abapa, abapa.Start(), opening); len(ps) != 0 {
		t.Errorf("an opening: %d puzzles, want none", len(ps))
	}
}
