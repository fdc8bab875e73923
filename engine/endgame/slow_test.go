//go:build slow

package endgame

import "testing"

// The comparisons of the issue at full size (.ci/run runs them): 10,000
// random positions of up to 10 seeds for each grand slam setting against
// the reference computation, and the brute force on up to 10 seeds.

func TestSlowTablesAgreeWithReference(t *testing.T) { compareWithReference(t, 10, 10000) }

func TestSlowBoundsHoldTheTrueValue(t *testing.T) { checkTrueValues(t, 10, 3, 600, 50000) }

func TestSlowParentsUndoMoves(t *testing.T) { checkParents(t, 8) }

// TestSlowKnownEndgames: the tutorial's endgames need tables of 11 and 16
// seeds.
func TestSlowKnownEndgames(t *testing.T) {
	checkKnown(t, []knownEndgame{{"wari", "0-0-0-0-4-3-1-2-1-0-0-0-15-22-S", 11, 11,
		"tutorial 2: E and F are both grand slams and South's only moves; either takes a, b and c (7 seeds) and ends the game, South also taking the 4 seeds left on its row: 11 of the 11"},
		{"warri", "3-2-2-1-1-3-1-2-1-0-0-0-14-18-S", 16, 16,
			"tutorial 2, 'when the extra move cannot feed': F takes 7 by a grand slam; no pit of South can then reach North's row, so the game ends and South takes its own 9: all 16 seeds"}})
}
