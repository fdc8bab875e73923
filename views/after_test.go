package views

import (
	"testing"

	"oware/engine"
)

// TestNextLevel: after a win against the computer the next level is one
// up (never past 8); after a loss or a draw the same one; a game between
// people leads to level 1.
func TestNextLevel(t *testing.T) {
	for _, c := range []struct {
		computer int
		result   engine.Result
		want     string
		level    int
	}{
		{2, engine.SouthWins, "/en/computer?level=3&rules=wari", 3},
		{2, engine.NorthWins, "/en/computer?level=2&rules=wari", 2},
		{2, engine.Draw, "/en/computer?level=2&rules=wari", 2},
		{8, engine.SouthWins, "/en/computer?level=8&rules=wari", 8},
		{0, engine.SouthWins, "/en/computer?level=1&rules=wari", 1},
	} {
		v := GameView{Lang: "en", ID: "abcdefghijkl", Rules: "wari", Seat: engine.South, Computer: c.computer, Result: c.result}
		if got, level := v.nextLevelURL(); got != c.want || level != c.level {
			t.Errorf("level %d, %s: %q %d, want %q %d", c.computer, c.result, got, level, c.want, c.level)
		}
	}
}
