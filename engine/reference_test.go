package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// This file holds a second, deliberately plain implementation of RULES.md
// sections 2 and 3, written without the engine's code, seed by seed. The
// perft and random-game tests compare the two.

type refState struct {
	pits [12]int
	cap  [2]int
	turn int // 0 South, 1 North
}

func refOwn(pit, player int) bool { return pit/6 == player }

// refSow plays the seeds one at a time and returns the board and last pit.
func refSow(s refState, pit int) (refState, int) {
	seeds := s.pits[pit]
	s.pits[pit] = 0
	at := pit
	for seeds > 0 {
		at = (at + 1) % 12
		if at == pit {
			continue
		}
		s.pits[at]++
		seeds--
	}
	return s, at
}

// refCapture returns the pits the capture would take and whether that is
// every seed on the opponent's row.
func refCapture(s refState, last int) (taken []int, slam bool) {
	opp := 1 - s.turn
	for at := last; refOwn(at, opp) && (s.pits[at] == 2 || s.pits[at] == 3); at-- {
		taken = append(taken, at)
		if at%6 == 0 {
			break
		}
	}
	if len(taken) == 0 {
		return nil, false
	}
	left := 0
	for at := 6 * opp; at < 6*opp+6; at++ {
		left += s.pits[at]
	}
	for _, at := range taken {
		left -= s.pits[at]
	}
	return taken, left == 0
}

func refRowSum(s refState, player int) int {
	n := 0
	for at := 6 * player; at < 6*player+6; at++ {
		n += s.pits[at]
	}
	return n
}

func refLegal(s refState, rule GrandSlamRule) []int {
	if s.cap[0] >= 25 || s.cap[1] >= 25 {
		return nil
	}
	var moves []int
	for pit := 6 * s.turn; pit < 6*s.turn+6; pit++ {
		if s.pits[pit] == 0 {
			continue
		}
		if refRowSum(s, 1-s.turn) == 0 {
			after, _ := refSow(s, pit)
			if refRowSum(after, 1-s.turn) == 0 {
				continue
			}
		}
		moves = append(moves, pit)
	}
	if rule != Wari {
		return moves
	}
	var quiet []int
	for _, pit := range moves {
		after, last := refSow(s, pit)
		if _, slam := refCapture(after, last); !slam {
			quiet = append(quiet, pit)
		}
	}
	if len(quiet) == 0 {
		return moves
	}
	return quiet
}

// refPlay plays a legal move and reports whether the game ended (without
// the repetition rule, which the callers apply).
func refPlay(s refState, pit int, rule GrandSlamRule) (refState, bool) {
	mover := s.turn
	s, last := refSow(s, pit)
	taken, slam := refCapture(s, last)
	if !slam || rule != Abapa {
		for _, at := range taken {
			s.cap[mover] += s.pits[at]
			s.pits[at] = 0
		}
	}
	if !(slam && rule == Warri) {
		s.turn = 1 - mover
	}
	if s.cap[mover] >= 25 {
		return s, true
	}
	if (slam && rule == Wari) || len(refLegal(s, rule)) == 0 {
		for at := range s.pits {
			s.cap[at/6] += s.pits[at]
			s.pits[at] = 0
		}
		return s, true
	}
	return s, false
}

// refPerft counts the positions exactly depth plies on; a line that ends
// earlier (over, or a position of the path comes back) counts nothing.
func refPerft(s refState, depth int, rule GrandSlamRule, path []refState) uint64 {
	if depth == 0 {
		return 1
	}
	moves := refLegal(s, rule)
	path = append(path, s)
	var n uint64
	for _, pit := range moves {
		next, over := refPlay(s, pit, rule)
		repeated := false
		for _, q := range path {
			repeated = repeated || (q == next)
		}
		switch {
		case depth == 1:
			n++
		case !over && !repeated:
			n += refPerft(next, depth-1, rule, path)
		}
	}
	return n
}

func refStart() refState {
	var s refState
	for i := range s.pits {
		s.pits[i] = 4
	}
	return s
}

// TestPerftFromStart checks perft 1..8 against RULES.md section 6 and
// against the plain implementation above, for each grand slam setting.
func TestPerftFromStart(t *testing.T) {
	want := []uint64{6, 36, 190, 1014, 5219, 27332, 139157, 711414}
	maxDepth := 8
	if testing.Short() {
		maxDepth = 6
	}
	for _, rule := range []GrandSlamRule{Abapa, Wari, Warri} {
		r := Oware{GrandSlam: rule}
		for d := 1; d <= maxDepth; d++ {
			if got := r.Perft(r.Start(), d); got != want[d-1] {
				t.Errorf("%s perft %d = %d, want %d (RULES.md 6)", rule, d, got, want[d-1])
			}
			if rule == Abapa || d <= 6 {
				if ref := refPerft(refStart(), d, rule, nil); ref != want[d-1] {
					t.Errorf("%s reference perft %d = %d, want %d", rule, d, ref, want[d-1])
				}
			}
			if played := r.perft(r.Start(), d, false); played != want[d-1] {
				t.Errorf("%s perft %d playing every leaf = %d, want %d", rule, d, played, want[d-1])
			}
		}
	}
}

// TestPerftLateGame compares the engine with the plain implementation from
// positions where grand slams, feeding and game ends happen.
func TestPerftLateGame(t *testing.T) {
	for _, pos := range []string{
		"5-5-5-5-5-3-1-2-1-0-0-0-8-8-S",
		"1-0-0-0-2-17-0-0-0-0-0-0-4-24-S",
		"8-0-0-0-0-3-1-2-1-0-0-0-10-23-S",
		"0-1-1-0-0-0-0-0-0-0-0-1-21-24-N",
		"0-0-0-0-0-1-0-0-0-0-0-1-23-23-S",
		"2-0-1-3-0-1-1-2-0-3-1-2-15-17-N",
	} {
		for _, rule := range []GrandSlamRule{Abapa, Wari, Warri} {
			r := Oware{GrandSlam: rule}
			p := mustParse(t, r, pos)
			s := toRef(p)
			for d := 1; d <= 7; d++ {
				if got, want := r.Perft(p, d), refPerft(s, d, rule, nil); got != want {
					t.Errorf("%s %s perft %d = %d, reference %d", rule, pos, d, got, want)
				}
			}
		}
	}
}

func toRef(p Position) refState {
	var s refState
	for i, n := range p.Pits {
		s.pits[i] = int(n)
	}
	s.cap = [2]int{int(p.Captured[0]), int(p.Captured[1])}
	s.turn = int(p.ToMove)
	return s
}

// TestRandomGames plays whole random games under each setting and checks,
// after every move: the seeds sum to 48, the engine agrees with the plain
// implementation, every legal move plays, every other pit is refused, and a
// finished game has no legal move.
func TestRandomGames(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 50
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, rule := range []GrandSlamRule{Abapa, Wari, Warri} {
		r := Oware{GrandSlam: rule}
		for n := 0; n < games; n++ {
			g := NewGame(r, r.Start())
			ref := refStart()
			for !g.Over {
				legal := g.LegalMoves()
				checkLegality(t, r, g.Position, legal, refLegal(ref, rule))
				pits := legal.Pits()
				pit := pits[rng.IntN(len(pits))]
				if _, err := g.Play(pit); err != nil {
					t.Fatalf("%s: legal move %s refused: %v", rule, Label(pit), err)
				}
				var over bool
				ref, over = refPlay(ref, pit, rule)
				if g.Reason == ReasonRepetition {
					break // the reference does not keep the history
				}
				if got := toRef(g.Position); !over && got != ref {
					t.Fatalf("%s: after %v engine %+v, reference %+v", rule, g.Moves, got, ref)
				}
				if sum := g.Position.BoardSeeds() + int(g.Position.Captured[0]) + int(g.Position.Captured[1]); sum != TotalSeeds {
					t.Fatalf("%s: %d seeds after %v", rule, sum, g.Moves)
				}
				if over && !g.Over {
					t.Fatalf("%s: reference ended the game after %v, engine did not", rule, g.Moves)
				}
			}
			if r.LegalMoves(g.Position) != 0 {
				t.Fatalf("%s: finished game (%s) still has moves in %s", rule, g.Reason, r.FormatPosition(g.Position))
			}
		}
	}
}

func checkLegality(t *testing.T, r Oware, p Position, legal Moves, ref []int) {
	t.Helper()
	if got := legal.Pits(); !slices.Equal(got, ref) {
		t.Fatalf("%s %s: legal %v, reference %v", r.Name(), r.FormatPosition(p), got, ref)
	}
	for pit := -1; pit <= NumPits; pit++ {
		_, _, err := r.Play(p, pit)
		if legal.Has(pit) != (err == nil) {
			t.Fatalf("%s %s: pit %d legal=%v but Play says %v", r.Name(), r.FormatPosition(p), pit, legal.Has(pit), err)
		}
	}
}
