package tournament

import (
	"cmp"
	"slices"
)

// The Swiss pairings follow the main rules of the FIDE Dutch system
// (FIDE Handbook C.04.3), with South for White (South moves first):
//
//   - players are ordered by points, then by pairing number (1 for the
//     highest rating); a score group is the players of equal points;
//   - with an odd number of players, the bye goes to the lowest placed
//     player who has had none, provided the others can then be paired;
//   - score groups are paired from the top: the upper half (S1) against
//     the lower half (S2), S1's first with S2's first and so on, S2
//     transposed in order until no pair has met before (absolute) and no
//     two players both need the same seat (absolute: a colour difference
//     above 1, or the same seat twice running); among such pairings the
//     one that grants most seat preferences wins, the first in order at
//     equal grants;
//   - a group that cannot be paired whole sends its lowest placed players
//     down to the next group (floaters), as few as possible; when S1
//     against S2 cannot be paired, any pairing of the group is tried
//     (the system's exchanges, in a simpler order);
//   - a pairing of a group is kept only if the groups below can still be
//     paired (backtracking);
//   - seats: both preferences when they differ; else the stronger one
//     (absolute, strong: a difference of 1, mild: the other seat than
//     last time); else the seats opposite to the last round in which the
//     two had different seats; else the higher placed player's
//     preference; with no preference at all (the first round), the
//     higher placed player of the first board takes South, of the second
//     North, and so on.
//
// The search is bounded (swissBudget steps); past it the rest is paired
// in order, allowing a repeat only when nothing else remains.

// SwissPlayer is a player to be paired in a Swiss round.
type SwissPlayer struct {
	ID uint
	// Number is the pairing number: 1 for the highest rating.
	Number int
	Points float64
	// Opponents are the players met (in games, even forfeited).
	Opponents []uint
	// Seats are the seats of the games played, in order: +1 South, -1
	// North.
	Seats []int
	// HadBye: the player already had a bye (or a point without playing).
	HadBye bool
}

// SwissRound is a round's pairings: pairs as [South, North], and the
// player with the bye (0 for none).
type SwissRound struct {
	Pairs [][2]uint
	Bye   uint
}

// swissBudget bounds the steps of a round's search.
const swissBudget = 200_000

// pref is a seat preference: side +1 South, -1 North, 0 none; strength 3
// absolute, 2 strong, 1 mild.
type pref struct{ side, strength int }

// preference returns the seat preference of a seat history.
func preference(seats []int) pref {
	n, diff := len(seats), 0
	for _, s := range seats {
		diff += s
	}
	twice := n >= 2 && seats[n-1] == seats[n-2]
	switch {
	case n == 0:
		return pref{}
	case diff < -1 || (twice && seats[n-1] < 0):
		return pref{1, 3}
	case diff > 1 || (twice && seats[n-1] > 0):
		return pref{-1, 3}
	case diff == -1:
		return pref{1, 2}
	case diff == 1:
		return pref{-1, 2}
	}
	return pref{-seats[n-1], 1}
}

// sp is a player during the search.
type sp struct {
	*SwissPlayer
	pref pref
	met  map[uint]bool
}

type pair [2]*sp // higher placed first

type swiss struct{ steps int }

// PairSwiss pairs a Swiss round of players (those to be paired: not
// withdrawn, joined in time).
func PairSwiss(players []SwissPlayer) SwissRound {
	ps := make([]*sp, len(players))
	for i := range players {
		p := &players[i]
		ps[i] = &sp{SwissPlayer: p, pref: preference(p.Seats), met: map[uint]bool{}}
		for _, o := range p.Opponents {
			ps[i].met[o] = true
		}
	}
	slices.SortStableFunc(ps, func(a, b *sp) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(a.Number, b.Number))
	})
	var out SwissRound
	s := &swiss{}
	if len(ps)%2 == 1 {
		for pass := range 2 { // who had no bye, then anyone
			for i := len(ps) - 1; i >= 0 && out.Bye == 0; i-- {
				if ps[i].HadBye && pass == 0 {
					continue
				}
				rest := slices.Delete(slices.Clone(ps), i, i+1)
				if pairs, ok := s.pairGroups(groups(rest), nil); ok {
					out.Bye, out.Pairs = ps[i].ID, seat(pairs)
				}
			}
			if out.Bye != 0 {
				return out
			}
		}
		out.Bye = ps[len(ps)-1].ID
		ps = ps[:len(ps)-1]
	} else if pairs, ok := s.pairGroups(groups(ps), nil); ok {
		out.Pairs = seat(pairs)
		return out
	}
	out.Pairs = seat(fallback(ps))
	return out
}

// groups splits players (in order) into score groups.
func groups(ps []*sp) [][]*sp {
	var gs [][]*sp
	for i, p := range ps {
		if i == 0 || p.Points != ps[i-1].Points {
			gs = append(gs, nil)
		}
		gs[len(gs)-1] = append(gs[len(gs)-1], p)
	}
	return gs
}

// pairGroups pairs the floaters and the score groups gs, top down.
func (s *swiss) pairGroups(gs [][]*sp, floaters []*sp) ([]pair, bool) {
	var g []*sp
	g = append(g, floaters...)
	var rest [][]*sp
	if len(gs) > 0 {
		g, rest = append(g, gs[0]...), gs[1:]
	}
	if len(g) == 0 {
		return nil, true
	}
	last := len(rest) == 0
	for n := len(g) % 2; n <= len(g); n += 2 {
		if last && n > 0 {
			return nil, false
		}
		var found []pair
		ok := false
		eachFloat(len(g), n, func(down []int) bool {
			stay, float := split(g, down)
			for v := 0; v <= len(stay)/2 && !ok; v++ {
				try := func(pairs []pair) bool {
					below, good := s.pairGroups(rest, float)
					if good {
						found, ok = append(slices.Clone(pairs), below...), true
					}
					return good
				}
				if !s.halves(stay, v, try) {
					s.any(stay, v, try)
				}
			}
			return ok || s.steps > swissBudget
		})
		if ok {
			return found, true
		}
		if s.steps > swissBudget {
			return nil, false
		}
	}
	return nil, false
}

// eachFloat calls f with the indexes of n players of a group of size to
// send down, the lowest placed first, until f returns true.
func eachFloat(size, n int, f func(down []int) bool) {
	down := make([]int, 0, n)
	var rec func(below int) bool
	rec = func(below int) bool {
		if len(down) == n {
			return f(slices.Clone(down))
		}
		for i := below - 1; i >= n-len(down)-1; i-- {
			down = append(down, i)
			if rec(i) {
				return true
			}
			down = down[:len(down)-1]
		}
		return false
	}
	rec(size)
}

// split returns the players of g that stay and those (down) that float.
func split(g []*sp, down []int) (stay, float []*sp) {
	for i, p := range g {
		if slices.Contains(down, i) {
			float = append(float, p)
		} else {
			stay = append(stay, p)
		}
	}
	slices.SortStableFunc(float, func(a, b *sp) int { // the higher placed first
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(a.Number, b.Number))
	})
	return stay, float
}

// compatible reports whether a and b may meet: not met before, and not
// both needing the same seat.
func compatible(a, b *sp) bool {
	return !a.met[b.ID] && !(a.pref.strength == 3 && b.pref.strength == 3 && a.pref.side == b.pref.side)
}

// clash is 1 when a and b prefer the same seat (one of them will not get
// it).
func clash(a, b *sp) int {
	if a.pref.side != 0 && a.pref.side == b.pref.side {
		return 1
	}
	return 0
}

// halves tries S1 (the upper half of g) against the transpositions of S2
// in order, with at most v seat preferences not granted; try gets each
// pairing and returns true to stop. It reports whether try accepted one.
func (s *swiss) halves(g []*sp, v int, try func([]pair) bool) bool {
	h := len(g) / 2
	s1, s2 := g[:h], g[h:]
	used := make([]bool, len(s2))
	pairs := make([]pair, 0, h)
	var rec func(i, clashes int) bool
	rec = func(i, clashes int) bool {
		s.steps++
		if s.steps > swissBudget {
			return false
		}
		if i == h {
			return try(pairs)
		}
		for j := range s2 {
			if used[j] || !compatible(s1[i], s2[j]) || clashes+clash(s1[i], s2[j]) > v {
				continue
			}
			used[j] = true
			pairs = append(pairs, pair{s1[i], s2[j]})
			if rec(i+1, clashes+clash(s1[i], s2[j])) {
				return true
			}
			pairs, used[j] = pairs[:len(pairs)-1], false
		}
		return false
	}
	return rec(0, 0)
}

// any tries every pairing of g (the first unpaired player with each of
// the others in order), with at most v preferences not granted.
func (s *swiss) any(g []*sp, v int, try func([]pair) bool) bool {
	used := make([]bool, len(g))
	var pairs []pair
	var rec func(clashes int) bool
	rec = func(clashes int) bool {
		s.steps++
		if s.steps > swissBudget {
			return false
		}
		i := slices.Index(used, false)
		if i < 0 {
			return try(pairs)
		}
		used[i] = true
		for j := i + 1; j < len(g); j++ {
			if used[j] || !compatible(g[i], g[j]) || clashes+clash(g[i], g[j]) > v {
				continue
			}
			used[j] = true
			pairs = append(pairs, pair{g[i], g[j]})
			if rec(clashes + clash(g[i], g[j])) {
				return true
			}
			pairs, used[j] = pairs[:len(pairs)-1], false
		}
		used[i] = false
		return false
	}
	return rec(0)
}

// fallback pairs ps in order when the search found nothing within its
// budget: each with the next one not met, else the next one.
func fallback(ps []*sp) []pair {
	used := make([]bool, len(ps))
	var pairs []pair
	for i := range ps {
		if used[i] {
			continue
		}
		best := -1
		for j := i + 1; j < len(ps); j++ {
			if !used[j] && (best < 0 || (!ps[i].met[ps[j].ID] && ps[i].met[ps[best].ID])) {
				best = j
			}
		}
		if best >= 0 {
			used[i], used[best] = true, true
			pairs = append(pairs, pair{ps[i], ps[best]})
		}
	}
	return pairs
}

// seat gives the seats of each pair (the boards in order) and returns
// them as [South, North].
func seat(pairs []pair) [][2]uint {
	out := make([][2]uint, len(pairs))
	for i, p := range pairs {
		hi, lo := p[0], p[1]
		if placed(lo, hi) {
			hi, lo = lo, hi
		}
		side := seatOf(hi, lo, i)
		if side > 0 {
			out[i] = [2]uint{hi.ID, lo.ID}
		} else {
			out[i] = [2]uint{lo.ID, hi.ID}
		}
	}
	return out
}

// placed reports whether a is placed above b.
func placed(a, b *sp) bool {
	return a.Points > b.Points || (a.Points == b.Points && a.Number < b.Number)
}

// seatOf returns the seat of hi (+1 South, -1 North), the higher placed
// of a pair on board (0-based), against lo.
func seatOf(hi, lo *sp, board int) int {
	a, b := hi.pref, lo.pref
	switch {
	case a.side == 0 && b.side == 0:
		if board%2 == 0 {
			return 1
		}
		return -1
	case a.side == 0:
		return -b.side
	case b.side == 0 || a.side != b.side:
		return a.side
	case a.strength != b.strength:
		if a.strength > b.strength {
			return a.side
		}
		return -b.side
	}
	for i, j := len(hi.Seats)-1, len(lo.Seats)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if hi.Seats[i] != lo.Seats[j] {
			return -hi.Seats[i]
		}
	}
	return a.side
}
