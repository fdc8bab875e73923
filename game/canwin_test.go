package game

import (
	"testing"

	"oware/engine"
)

// TestFlagFallDraw: a flag fall loses, unless the opponent cannot reach 25
// seeds any more (RULES.md 2.6): then it is a draw. In Nam-nam the
// opponent can always still win the match.
func TestFlagFallDraw(t *testing.T) {
	abapa, _ := engine.NewRules("abapa", "")
	namnam, _ := engine.NewRules("namnam", "")
	for _, c := range []struct {
		rules    engine.Rules
		position string
		want     engine.Result // South, to move, runs out of time
	}{
		// North 20 + 4 on the board = 24 at best: a draw.
		{abapa, "1-1-0-0-0-0-1-1-0-0-0-0-24-20-S", engine.Draw},
		// North 21 + 4 = 25: North can still win.
		{abapa, "1-1-0-0-0-0-1-1-0-0-0-0-23-21-S", engine.NorthWins},
		// Nam-nam: North always may.
		{namnam, "0-0-0-0-0-0-0-0-0-0-0-4-40-4-S-SSSSSSNNNNNN-0-0", engine.NorthWins},
	} {
		pos, err := c.rules.ParsePosition(c.position)
		if err != nil {
			t.Fatal(err)
		}
		g := newGame(c.rules)
		g.Position, g.Status = pos, Playing
		g.Engine.Moves = []int{2, 9, 1} // past the first moves
		g.flagFall()
		if g.Result != c.want || g.Reason != ReasonTimeout || g.Status != Over {
			t.Errorf("%s: South's flag falls: %v %q, want %v on time", c.position, g.Result, g.Reason, c.want)
		}
	}
}
