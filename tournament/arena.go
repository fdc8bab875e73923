package tournament

import (
	"cmp"
	"slices"
)

// ArenaPlayer is an arena player waiting for a game, as PairArena sees
// them.
type ArenaPlayer struct {
	ID uint
	// Points are their points so far (ArenaStandings), Rating their
	// rating in the arena's category (the second key of the order).
	Points, Rating float64
	// Last is the opponent of their last game, 0 for none.
	Last uint
	// Balance is their games seated South minus those seated North.
	Balance int
}

// PairArena pairs the arena players who wait for a game (none of them is
// in a game): in the order of points, then rating, each player still
// waiting is paired with the nearest one below them in that order who was
// not their last opponent; one who finds nobody waits for the next pass.
// An immediate rematch is allowed only when rematch is set (the two are
// the only players left). Of a pair, the player who sat South more often
// (Balance) takes North; at equal balance the higher placed takes South.
// It returns the pairs as [South, North].
func PairArena(waiting []ArenaPlayer, rematch bool) [][2]uint {
	ps := slices.Clone(waiting)
	slices.SortStableFunc(ps, func(a, b ArenaPlayer) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.ID, b.ID))
	})
	used := make([]bool, len(ps))
	var pairs [][2]uint
	for i := range ps {
		if used[i] {
			continue
		}
		for j := i + 1; j < len(ps); j++ {
			if used[j] || (!rematch && (ps[i].Last == ps[j].ID || ps[j].Last == ps[i].ID)) {
				continue
			}
			used[i], used[j] = true, true
			a, b := ps[i], ps[j]
			if b.Balance < a.Balance {
				a, b = b, a
			}
			pairs = append(pairs, [2]uint{a.ID, b.ID})
			break
		}
	}
	return pairs
}
