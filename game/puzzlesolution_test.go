package game_test

import (
	"slices"
	"testing"

	"oware/game"
	"oware/models"
)

// TestPuzzleSolutionOnceCounted: the solution of a puzzle is shown only
// after an attempt that counts (issue 30: an attempt without a cookie gave
// the whole line, which an account then sent as a first-try win, 1500 ->
// 1884 in 7 puzzles). The line is F, a, B (the solver's F and B, the
// reply a). Nobody's right first move gets the reply only (F, a); nobody's
// wrong move and nobody's whole solution get no line. A guest's first
// attempt, wrong, is rated and shows the line; their second, right, is not
// rated and shows it again.
func TestPuzzleSolutionOnceCounted(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *models.DB, s *game.Service) {
		ctx := t.Context()
		p := models.Puzzle{ID: "line", Number: 100001, Rules: "abapa", Position: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
			Solution: "F,a,B", Themes: ",opening,", Rating: 1500, Deviation: 300, Volatility: 0.06}
		if _, err := db.LoadPuzzles(ctx, []models.Puzzle{p}); err != nil {
			t.Fatal(err)
		}
		line := []string{"F", "a", "B"}
		for _, c := range []struct {
			player string
			moves  []string
			want   []string
			rated  bool
		}{
			{"", []string{"F"}, []string{"F", "a"}, false},
			{"", []string{"E"}, nil, false},
			{"", []string{"F", "B"}, nil, false},
			{game.PuzzleGuest("visitor-1"), []string{"E"}, line, true},
			{game.PuzzleGuest("visitor-1"), []string{"F", "B"}, line, false},
		} {
			v, err := s.AttemptPuzzle(ctx, c.player, &p, c.moves)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(v.Solution, c.want) || v.Rated != c.rated {
				t.Errorf("%q %v: solution %v, rated %v; want %v, %v", c.player, c.moves, v.Solution, v.Rated, c.want, c.rated)
			}
		}
	})
}
