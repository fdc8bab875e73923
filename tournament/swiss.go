package tournament

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// The Swiss pairings follow the FIDE Dutch system, FIDE Handbook C.04.3
// as approved in 2016/2017 (the rules before July 2025), with South for
// White (South moves first). The articles named are that text's.
//
//   - A.2: players are ranked by points, then by pairing number (1 for
//     the highest rating); a score group is the players of equal points.
//   - A.4: in a game between players of different points the higher
//     ranked gets a downfloat, the other an upfloat; a player who scores
//     without playing (a bye, a late joiner's half point)
//     gets a downfloat (SwissPlayer.Floats).
//   - A.6: seat (colour) preferences: absolute (a seat difference beyond
//     +-1 or the same seat in the last two games played), strong (a
//     difference of 1), mild (the other seat than in the last game);
//     none before a first game. Games not played do not count.
//   - B: the brackets are paired from the top; a bracket is a score
//     group (the resident players) and the players moved down from above
//     (MDPs). MaxPairs, the most pairs the bracket can make, and M1, the
//     most MDPs it can pair with MaxPairs pairs, are found first (both
//     under C.1-C.4). A homogeneous bracket (or a remainder) has S1 = its
//     first MaxPairs players and S2 = the others; a heterogeneous one has
//     S1 = its first M1 MDPs, Limbo = the other MDPs (they float on) and
//     S2 = the residents; S1[i] meets S2[i], and the residents not met
//     by an MDP form the remainder, paired as a homogeneous bracket.
//     Players left unpaired float down to the next bracket; the one left
//     in the last bracket gets the bye (pairing-allocated: 1 point).
//   - D: candidates are made in the rules' order: D.1 transpositions of
//     S2 in the lexicographic order of their first N1 bracket sequence
//     numbers (BSNs); D.2 (homogeneous brackets and remainders) exchanges
//     between the original S1 and S2 by the fewest players exchanged,
//     then the smallest difference of the sums of the BSNs exchanged,
//     then the highest different BSN moved from S1, then the lowest
//     different BSN moved from S2, each exchange followed by all
//     transpositions; D.3 (heterogeneous) the same between S1 and Limbo,
//     each followed by all transpositions and all candidates of the
//     remainder. A remainder's BSNs are its players' places in it.
//   - C, absolute: C.1 no two players meet twice (a forfeited game
//     counts as met); C.2 nobody gets a second bye; C.3 two players with
//     the same absolute preference do not meet (so no seat difference
//     beyond +-2 and no seat three times running; the topscorers'
//     exception of the last round is not applied); C.4 a bracket's
//     candidate must leave the players below pairable (under C.1-C.3,
//     a bye allowed when the field is odd).
//   - C, quality, in this order: C.5 most pairs (MaxPairs); C.6 the
//     smallest PSD (the score differences of the pairs, and of each
//     downfloater with one point below the bracket's lowest score, sorted
//     from the highest and compared as a list); C.10 fewest players
//     without their seat preference; C.11 fewest without their strong
//     (or absolute) preference; C.12 fewest residents downfloated who
//     downfloated in the previous round; C.13 fewest upfloated who
//     upfloated in the previous round; C.14 and C.15 the same for two
//     rounds before. The first candidate in D's order that has no fault
//     and the PSD of pairing the highest MDPs is taken (B.4); when none is
//     perfect, the best by these criteria, the first generated at equal
//     quality (B.8). Not implemented: C.7 (the following bracket's
//     pairs and PSD when choosing the downfloaters), C.8-C.9 (topscorers)
//     and C.16-C.19 (the score differences of repeated floaters).
//   - E, seats of a pair: E.1 both preferences when they differ (or one
//     has none); E.2 the stronger; E.3 each the other seat than in the
//     last game in which the two had different seats (each player's
//     games counted back from the last); E.4 the higher ranked player's
//     preference; E.5 with no preference at all, the higher ranked player
//     is South when their pairing number is odd, North when even.
//
// When a bracket has no legal candidate of this form (MDPs that could
// only meet each other) it is paired as a homogeneous bracket of all its
// players. The search is bounded (swissBudget steps): past it each
// bracket keeps the best candidate found so far, or the first legal one
// it finds; past swissHardBudget, or when the bracket search finds nothing,
// the bye goes to the lowest ranked player without one and the rest are
// paired in order, repeating a pairing only when nothing else remains.

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
	// HadBye: the player already had a pairing-allocated bye.
	HadBye bool
	// Floats are the player's floats in the rounds before, one per
	// round, the last round last: -1 a downfloat, +1 an upfloat, 0 none.
	Floats []int
}

// SwissRound is a round's pairings: pairs as [South, North], and the
// player with the bye (0 for none).
type SwissRound struct {
	Pairs [][2]uint
	Bye   uint
}

// swissBudget bounds the steps of a round's search: past it each bracket
// takes the first legal candidate it finds; past swissHardBudget the
// search stops.
const swissBudget, swissHardBudget = 200_000, 1_000_000

// maxExchanges bounds the exchanges of one size generated for a bracket.
const maxExchanges = 100_000

// pref is a seat preference: side +1 South, -1 North, 0 none; strength 3
// absolute, 2 strong, 1 mild.
type pref struct{ side, strength int }

// preference returns the seat preference of a seat history (A.6).
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
	rank int // place in the round's order (A.2), 0 first
}

// float returns the player's float k rounds ago (1 the last round).
func (p *sp) float(k int) int {
	if len(p.Floats) < k {
		return 0
	}
	return p.Floats[len(p.Floats)-k]
}

type pair [2]*sp // the higher ranked first

// cand is a candidate pairing of a bracket: its pairs, its downfloaters
// and its quality.
type cand struct {
	pairs  []pair
	floats []*sp
	q      quality
}

// quality is what the quality criteria measure of a candidate: psd
// (C.6, sorted from the highest) and faults, the counts of C.10, C.11,
// C.12, C.13, C.14 and C.15 in that order.
type quality struct {
	psd    []float64
	faults [6]int
}

// compare orders qualities, the better first.
func (q quality) compare(o quality) int {
	return cmp.Or(slices.Compare(q.psd, o.psd), slices.Compare(q.faults[:], o.faults[:]))
}

type swiss struct {
	steps int
	// completes memoizes C.4 by the downfloaters and the bracket below.
	completes map[string]bool
}

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
	slices.SortStableFunc(ps, byRank)
	for i, p := range ps {
		p.rank = i
	}
	s := &swiss{completes: map[string]bool{}}
	if s.pairable(ps) {
		if pairs, left, ok := s.brackets(groups(ps), nil); ok {
			out := SwissRound{Pairs: seat(pairs)}
			if len(left) == 1 {
				out.Bye = left[0].ID
			}
			return out
		}
	}
	var out SwissRound
	if len(ps)%2 == 1 {
		i := len(ps) - 1
		for j := len(ps) - 1; j >= 0; j-- {
			if !ps[j].HadBye {
				i = j
				break
			}
		}
		out.Bye = ps[i].ID
		ps = slices.Delete(slices.Clone(ps), i, i+1)
	}
	out.Pairs = seat(fallback(ps))
	return out
}

// byRank orders players as A.2 ranks them: by points, then by pairing
// number.
func byRank(a, b *sp) int {
	return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(a.Number, b.Number))
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

// brackets pairs the score groups gs from the top, mdps moved down into
// the first; it returns the pairs and the player left (the bye), and
// false when it found no pairing.
func (s *swiss) brackets(gs [][]*sp, mdps []*sp) ([]pair, []*sp, bool) {
	if len(gs) == 0 {
		return nil, mdps, len(mdps) == 0 || (len(mdps) == 1 && !mdps[0].HadBye)
	}
	var below []*sp
	for _, g := range gs[1:] {
		below = append(below, g...)
	}
	c, ok := s.bracket(mdps, gs[0], below)
	if !ok {
		return nil, nil, false
	}
	pairs, left, ok := s.brackets(gs[1:], c.floats)
	return append(c.pairs, pairs...), left, ok
}

// bracket pairs the bracket of mdps and residents (each in order) with
// the players below it: the most pairs (C.5), then the most MDPs paired,
// then the best candidate of that form.
func (s *swiss) bracket(mdps, residents, below []*sp) (cand, bool) {
	all := append(slices.Clone(mdps), residents...)
	low := residents[len(residents)-1].Points
	for n := len(all) / 2; n >= 0; n-- {
		for m1 := min(len(mdps), len(residents), n); m1 >= 0; m1-- {
			if 2*(n-m1) > len(residents)-m1 {
				continue
			}
			if c, ok := s.best(mdps, residents, m1, n-m1, low, below); ok {
				return c, true
			}
		}
	}
	for n := len(all) / 2; n >= 0; n-- { // MDPs that can only meet each other
		if c, ok := s.best(nil, all, 0, n, low, below); ok {
			return c, true
		}
	}
	return cand{}, false
}

// best returns the candidate of a bracket whose S1 is m1 of its mdps,
// with n pairs in the remainder: the first perfect one in the order of
// D, else the best (B.8). It reports false when none is legal.
func (s *swiss) best(mdps, residents []*sp, m1, n int, low float64, below []*sp) (cand, bool) {
	all := append(slices.Clone(mdps), residents...)
	perfect := quality{psd: shapePSD(mdps[:m1], mdps[m1:], residents, n, low), faults: colourBound(all, m1+n)}
	uniform := residents[0].Points == low // else the PSD of each candidate is counted
	var found cand
	ok := false
	var exPSD []float64 // the PSD of the candidates of the MDP exchange made
	leaf := func(pairs []pair, floats []*sp) bool {
		s.steps++
		if !s.complete(floats, below) {
			return s.steps > swissHardBudget
		}
		q := quality{psd: exPSD, faults: faults(pairs, floats, low)}
		if !uniform {
			q.psd = psd(pairs, floats, low)
		}
		if !ok || q.compare(found.q) < 0 {
			found, ok = cand{pairs: slices.Clone(pairs), floats: slices.Clone(floats), q: q}, true
		}
		return q.compare(perfect) == 0 || s.steps > swissBudget
	}
	s.exchange(mdps[:m1], mdps[m1:], func(s1, limbo []*sp) bool {
		exPSD = shapePSD(s1, limbo, residents, n, low)
		return s.transpose(s1, residents, func(mdpPairs []pair, remainder []*sp) bool {
			return s.homogeneous(remainder, n, func(pairs []pair, floats []*sp) bool {
				return leaf(append(slices.Clone(mdpPairs), pairs...), append(slices.Clone(limbo), floats...))
			})
		})
	})
	return found, ok
}

// shapePSD returns the PSD of the candidates of a bracket whose residents
// all have low points, whose MDPs s1 meet residents, MDPs limbo float and
// whose remainder makes n pairs.
func shapePSD(s1, limbo, residents []*sp, n int, low float64) []float64 {
	var pairs []pair
	for _, p := range s1 {
		pairs = append(pairs, pair{p, residents[0]})
	}
	for range n {
		pairs = append(pairs, pair{residents[0], residents[0]})
	}
	return psd(pairs, append(slices.Clone(limbo), residents[len(s1)+2*n:]...), low)
}

// colourBound returns the least C.10 and C.11 faults of a bracket of
// players with n pairs: each pair grants at most one South and one North
// preference, and the players left over grant none.
func colourBound(players []*sp, n int) [6]int {
	var f [6]int
	floats := len(players) - 2*n
	for _, side := range []int{1, -1} {
		wants, strong := 0, 0
		for _, p := range players {
			if p.pref.side == side {
				wants++
				strong += boolInt(p.pref.strength >= 2)
			}
		}
		f[0] += max(0, wants-n-floats)
		f[1] += max(0, strong-n-floats)
	}
	return f
}

// homogeneous makes the candidates of a homogeneous bracket or remainder
// g with n pairs (S1 = g[:n]) in the order of D.2 and D.1, calling f
// with each until f returns true; it reports whether f did.
func (s *swiss) homogeneous(g []*sp, n int, f func(pairs []pair, floats []*sp) bool) bool {
	return s.exchange(g[:n], g[n:], func(s1, s2 []*sp) bool { return s.transpose(s1, s2, f) })
}

// transpose pairs s1[i] with the i-th player of each transposition of
// s2 in lexicographic order (D.1), skipping those that break C.1 or C.3;
// f gets the pairs and the players of s2 left, until it returns true.
func (s *swiss) transpose(s1, s2 []*sp, f func(pairs []pair, rest []*sp) bool) bool {
	used := make([]bool, len(s2))
	pairs := make([]pair, 0, len(s1))
	var rec func(i int) bool
	rec = func(i int) bool {
		s.steps++
		if s.steps > swissHardBudget {
			return true
		}
		if i == len(s1) {
			var rest []*sp
			for j, p := range s2 {
				if !used[j] {
					rest = append(rest, p)
				}
			}
			return f(pairs, rest)
		}
		for j, p := range s2 {
			if used[j] || !compatible(s1[i], p) {
				continue
			}
			used[j] = true
			pairs = append(pairs, pair{s1[i], p})
			if rec(i + 1) {
				return true
			}
			pairs, used[j] = pairs[:len(pairs)-1], false
		}
		return false
	}
	return rec(0)
}

// exchange calls f with s1 and s2 as they are, then after each exchange
// of equally many players between them in the order of D.2 (and D.3):
// the fewest players exchanged, the smallest difference of the sums of
// the BSNs moved (BSN i+1 for s1[i], len(s1)+j+1 for s2[j]), the highest
// different BSN moved out of s1, the lowest different BSN moved out of
// s2; both kept in order. It stops when f returns true and reports
// whether f did.
func (s *swiss) exchange(s1, s2 []*sp, f func(s1, s2 []*sp) bool) bool {
	if f(s1, s2) {
		return true
	}
	type swap struct {
		out, in []int // BSNs leaving s1, leaving s2, in increasing order
		diff    int   // the sum of in less the sum of out
	}
	for k := 1; k <= min(len(s1), len(s2)); k++ {
		outs, ins := subsets(1, len(s1), k), subsets(len(s1)+1, len(s1)+len(s2), k)
		if len(outs)*len(ins) > maxExchanges {
			return false
		}
		swaps := make([]swap, 0, len(outs)*len(ins))
		for _, o := range outs {
			for _, i := range ins {
				d := 0
				for x := range o {
					d += i[x] - o[x]
				}
				swaps = append(swaps, swap{o, i, d})
			}
		}
		slices.SortStableFunc(swaps, func(a, b swap) int {
			if c := cmp.Compare(a.diff, b.diff); c != 0 {
				return c
			}
			for x := k - 1; x >= 0; x-- { // the highest different BSN out of s1 first
				if a.out[x] != b.out[x] {
					return cmp.Compare(b.out[x], a.out[x])
				}
			}
			return slices.Compare(a.in, b.in) // the lowest different BSN out of s2 first
		})
		for _, sw := range swaps {
			n1, n2 := slices.Clone(s1), slices.Clone(s2)
			for x := range sw.out {
				n1[sw.out[x]-1], n2[sw.in[x]-len(s1)-1] = s2[sw.in[x]-len(s1)-1], s1[sw.out[x]-1]
			}
			slices.SortStableFunc(n1, byRank)
			slices.SortStableFunc(n2, byRank)
			if f(n1, n2) || s.steps > swissHardBudget {
				return true
			}
		}
	}
	return false
}

// subsets returns the k-element subsets of lo..hi, each in increasing
// order.
func subsets(lo, hi, k int) [][]int {
	var out [][]int
	var cur []int
	var rec func(from int)
	rec = func(from int) {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for x := from; x <= hi-(k-len(cur)-1); x++ {
			cur = append(cur, x)
			rec(x + 1)
			cur = cur[:len(cur)-1]
		}
	}
	rec(lo)
	return out
}

// psd returns the pairing score difference of a candidate (A.8): the
// score difference of each pair, and of each downfloater with one point
// below the bracket's lowest score (low), the highest first.
func psd(pairs []pair, floats []*sp, low float64) []float64 {
	out := make([]float64, 0, len(pairs)+len(floats))
	for _, p := range pairs {
		out = append(out, max(p[0].Points-p[1].Points, p[1].Points-p[0].Points))
	}
	for _, p := range floats {
		out = append(out, p.Points-(low-1))
	}
	slices.SortFunc(out, func(a, b float64) int { return cmp.Compare(b, a) })
	return out
}

// faults counts the faults of a candidate against C.10 to C.15 (quality).
func faults(pairs []pair, floats []*sp, low float64) [6]int {
	var f [6]int
	for _, p := range pairs {
		a, b := p[0].pref, p[1].pref
		if a.side != 0 && a.side == b.side {
			f[0]++
			if min(a.strength, b.strength) >= 2 {
				f[1]++
			}
		}
		if up := p[1]; up.Points != p[0].Points {
			if up.Points > p[0].Points {
				up = p[0]
			}
			f[3] += boolInt(up.float(1) > 0)
			f[5] += boolInt(up.float(2) > 0)
		}
	}
	for _, p := range floats {
		if p.Points == low {
			f[2] += boolInt(p.float(1) < 0)
			f[4] += boolInt(p.float(2) < 0)
		}
	}
	return f
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// complete reports whether the downfloaters of a candidate and the
// players below can all be paired (C.4; one of them left for the bye
// when they are odd).
func (s *swiss) complete(floats, below []*sp) bool {
	var key strings.Builder
	fmt.Fprint(&key, len(below))
	for _, p := range floats {
		fmt.Fprint(&key, ",", p.ID)
	}
	ok, seen := s.completes[key.String()]
	if !seen {
		ok = s.pairable(append(slices.Clone(floats), below...))
		s.completes[key.String()] = ok
	}
	return ok
}

// pairable reports whether ps can all be paired under C.1 and C.3, one
// player who has had no bye left out when they are odd (C.2). Past the
// budget it answers true.
func (s *swiss) pairable(ps []*sp) bool {
	used := make([]bool, len(ps))
	bye := len(ps)%2 == 1
	var rec func() bool
	rec = func() bool {
		s.steps++
		if s.steps > swissHardBudget {
			return true
		}
		i := slices.Index(used, false)
		if i < 0 {
			return true
		}
		used[i] = true
		for j := i + 1; j < len(ps); j++ {
			if !used[j] && compatible(ps[i], ps[j]) {
				used[j] = true
				if rec() {
					return true
				}
				used[j] = false
			}
		}
		if bye && !ps[i].HadBye {
			bye = false
			if rec() {
				return true
			}
			bye = true
		}
		used[i] = false
		return false
	}
	return rec()
}

// compatible reports whether a and b may meet: not met before (C.1), and
// not both with the same absolute preference (C.3).
func compatible(a, b *sp) bool {
	return !a.met[b.ID] && !(a.pref.strength == 3 && b.pref.strength == 3 && a.pref.side == b.pref.side)
}

// fallback pairs ps in order when the search found nothing: each with
// the next one not met, else the next one.
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

// seat orders the pairs into boards (the higher score of the pair, then
// the sum of the scores, then the rank of the higher ranked player) and
// gives their seats (E), returning them as [South, North].
func seat(pairs []pair) [][2]uint {
	ps := slices.Clone(pairs)
	for i, p := range ps {
		if p[1].rank < p[0].rank {
			ps[i] = pair{p[1], p[0]}
		}
	}
	slices.SortStableFunc(ps, func(a, b pair) int {
		return cmp.Or(cmp.Compare(b[0].Points, a[0].Points),
			cmp.Compare(b[0].Points+b[1].Points, a[0].Points+a[1].Points), cmp.Compare(a[0].rank, b[0].rank))
	})
	out := make([][2]uint, len(ps))
	for i, p := range ps {
		if seatOf(p[0], p[1]) > 0 {
			out[i] = [2]uint{p[0].ID, p[1].ID}
		} else {
			out[i] = [2]uint{p[1].ID, p[0].ID}
		}
	}
	return out
}

// seatOf returns the seat of hi (+1 South, -1 North), the higher ranked
// of a pair, against lo (E.1-E.5).
func seatOf(hi, lo *sp) int {
	a, b := hi.pref, lo.pref
	switch {
	case a.side == 0 && b.side == 0: // E.5
		if hi.Number%2 == 1 {
			return 1
		}
		return -1
	case a.side == 0: // E.1
		return -b.side
	case b.side == 0 || a.side != b.side:
		return a.side
	case a.strength != b.strength: // E.2
		if a.strength > b.strength {
			return a.side
		}
		return -b.side
	}
	for i, j := len(hi.Seats)-1, len(lo.Seats)-1; i >= 0 && j >= 0; i, j = i-1, j-1 { // E.3
		if hi.Seats[i] != lo.Seats[j] {
			return -hi.Seats[i]
		}
	}
	return a.side // E.4
}
