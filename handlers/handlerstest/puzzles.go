package handlerstest

import (
	"testing"

	"oware/models"
)

// Handmade is the Warri puzzle worked by hand in engine/puzzle's
// TestSolveGrandSlam: F, a grand slam, wins 25 to 23 (+2); E only draws.
var Handmade = models.Puzzle{
	ID: "handmade", Number: 100000, Rules: "warri", Position: "0-0-0-0-1-1-1-0-0-0-0-0-22-23-S",
	Solution: "F", Themes: ",endgame-win,grand-slam,", FirstMoves: "F:2:2,E:0:0",
	Rating: 1500, Deviation: 300, Volatility: 0.06,
}

// NewPuzzleSite serves the site with the shipped puzzles and handmade.
func NewPuzzleSite(t *testing.T, db *models.DB) *Site {
	t.Helper()
	s := NewSite(t, db)
	if _, err := db.LoadPuzzles(t.Context(), []models.Puzzle{Handmade}); err != nil {
		t.Fatal(err)
	}
	return s
}
