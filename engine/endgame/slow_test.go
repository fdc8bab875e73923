//go:build slow

package endgame

import "testing"

// The comparisons of the issue at full size (.ci/run runs them): 10,000
// random positions of up to 10 seeds for each grand slam setting against
// the reference computation, and the brute force on up to 10 seeds.

func TestSlowTablesAgreeWithReference(t *testing.T) { compareWithReference(t, 10, 10000) }

func TestSlowBoundsHoldTheTrueValue(t *testing.T) { checkTrueValues(t, 10, 3, 600, 50000) }

func TestSlowMovesHoldTheTrueValue(t *testing.T) { checkMoves(t, 3, 8, 600, 8000) }

func TestSlowParentsUndoMoves(t *testing.T) { checkParents(t, 8) }

// TestSlowKnownEndgames: the tutorial's endgame needs a table of 11
// seeds. (Its warri endgame of 16 seeds, "F takes 7 by a grand slam, then
// South takes its own 9", needs a 16-seed table: 2 minutes of CI for one
// position, so the search's tests check it instead.)
func TestSlowKnownEndgames(t *testing.T) {
	checkKnown(t, []knownEndgame{{"wari", "0-0-0-0-4-3-1-2-1-0-0-0-15-22-S", 11, 11,
		"tutorial 2: E and F are both grand slams and South's only moves; either takes a, b and c (7 seeds) and ends the game, South also taking the 4 seeds left on its row: 11 of the 11"}})
}
