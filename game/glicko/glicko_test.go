package glicko

import (
	"math"
	"testing"
)

// TestPaperExample is the worked example of Glickman's "Example of the
// Glicko-2 system": a player rated 1500 (deviation 200, volatility 0.06)
// beats a 1400 (30) and loses to a 1550 (100) and a 1700 (300), with
// τ = 0.5. The paper gets σ' = 0.05999, r' = 1464.06 and RD' = 151.52.
func TestPaperExample(t *testing.T) {
	got := Update(Rating{1500, 200, 0.06}, []Result{
		{Rating{1400, 30, 0.06}, 1},
		{Rating{1550, 100, 0.06}, 0},
		{Rating{1700, 300, 0.06}, 0},
	}, 0.5)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"rating", got.Rating, 1464.06, 0.01},
		{"deviation", got.Deviation, 151.52, 0.01},
		{"volatility", got.Volatility, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.5f, want %.5f ± %g", c.name, c.got, c.want, c.tol)
		}
	}
}

// TestNoGames: a period without games only widens the deviation (step 6):
// √(200² + (0.06·173.7178)²) = 200.27 on the Glicko scale.
func TestNoGames(t *testing.T) {
	got := Update(Rating{1500, 200, 0.06}, nil, Tau)
	if got.Rating != 1500 || math.Abs(got.Deviation-200.2714) > 0.001 || got.Volatility != 0.06 {
		t.Errorf("Update without games = %+v, want 1500, 200.27, 0.06", got)
	}
	if got := Update(New(), nil, Tau); got.Deviation != MaxDeviation {
		t.Errorf("a new player's deviation grows to %v, want at most %v", got.Deviation, MaxDeviation)
	}
}

// TestSymmetry: two new players, one game: the winner gains what the loser
// loses, and a draw changes neither rating.
func TestSymmetry(t *testing.T) {
	w := Update(New(), []Result{{New(), 1}}, Tau)
	l := Update(New(), []Result{{New(), 0}}, Tau)
	if math.Abs((w.Rating-1500)+(l.Rating-1500)) > 1e-9 || w.Rating <= 1500 {
		t.Errorf("win %v, loss %v: want gains equal to losses", w.Rating, l.Rating)
	}
	d := Update(New(), []Result{{New(), 0.5}}, Tau)
	if math.Abs(d.Rating-1500) > 1e-9 || d.Deviation >= MaxDeviation {
		t.Errorf("draw: %+v, want 1500 with a smaller deviation", d)
	}
}
