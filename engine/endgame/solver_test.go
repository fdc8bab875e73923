package endgame

import (
	"math/rand/v2"
	"testing"

	"oware/engine"
)

// refBounds computes the bounds that the package documentation defines a
// second time, written for plainness rather than speed and sharing no code
// with the builder: real positions with either player to move (nothing
// turned round), moves by Rules.Play, fresh positions in a map, and whole
// sweeps over a level until nothing changes. Captures are kept at zero, so
// the 25-seed end never comes (as in the tables).
type refBounds struct {
	rules  engine.Rules
	lo, hi map[engine.Position]int
}

func newRefBounds(rules engine.Rules, maxSeeds int) *refBounds {
	s := &refBounds{rules: rules, lo: map[engine.Position]int{}, hi: map[engine.Position]int{}}
	for n := 0; n <= maxSeeds; n++ {
		s.level(n)
	}
	return s
}

// refMove is a move of a position in the level being solved: either it
// leaves the level with bounds [lo, hi] for the mover, or it reaches the
// position kid of the level.
type refMove struct {
	leaves bool
	lo, hi int
	kid    int
}

func (s *refBounds) level(n int) {
	var all []engine.Position
	pits := make([]uint8, engine.NumPits)
	var fill func(i, left int)
	fill = func(i, left int) {
		if i == engine.NumPits-1 {
			pits[i] = uint8(left)
			for _, side := range []engine.Side{engine.South, engine.North} {
				p := s.rules.Start()
				copy(p.Pits[:], pits)
				p.ToMove = side
				all = append(all, p)
			}
			return
		}
		for c := 0; c <= left; c++ {
			pits[i] = uint8(c)
			fill(i+1, left-c)
		}
	}
	fill(0, n)
	at := map[engine.Position]int{}
	for i, p := range all {
		at[p] = i
	}
	moves := make([][]refMove, len(all))
	settle := make([]int, len(all))
	for i, p := range all {
		me := p.ToMove
		settle[i] = p.RowSeeds(me) - p.RowSeeds(me.Opponent())
		legal := s.rules.LegalMoves(p)
		if legal == 0 {
			moves[i] = []refMove{{leaves: true, lo: settle[i], hi: settle[i]}}
		}
		for _, pit := range legal.Pits() {
			q, mv, err := s.rules.Play(p, pit)
			if err != nil {
				panic(err)
			}
			taken := int(q.Captured[me]) - int(q.Captured[me.Opponent()])
			switch {
			case mv.Over:
				moves[i] = append(moves[i], refMove{leaves: true, lo: taken, hi: taken})
			case taken > 0:
				fresh := q
				fresh.Captured = [2]uint8{}
				lo, hi := s.lo[fresh], s.hi[fresh]
				if q.ToMove == me {
					moves[i] = append(moves[i], refMove{leaves: true, lo: taken + lo, hi: taken + hi})
				} else {
					moves[i] = append(moves[i], refMove{leaves: true, lo: taken - hi, hi: taken - lo})
				}
			default:
				moves[i] = append(moves[i], refMove{kid: at[q]})
			}
		}
	}
	// The repetition bounds, a greatest fixpoint from the row differences.
	repLo, repHi := append([]int(nil), settle...), append([]int(nil), settle...)
	sweep(len(all), func(i int) (int, int) {
		lo, hi := -100, -100
		for _, m := range moves[i] {
			l, h := m.lo, m.hi
			if !m.leaves {
				l, h = -repHi[m.kid], -repLo[m.kid]
			}
			lo, hi = max(lo, l), max(hi, h)
		}
		return min(settle[i], lo), max(settle[i], hi)
	}, repLo, repHi)
	// The bounds, a least fixpoint over them.
	lo, hi := append([]int(nil), repLo...), append([]int(nil), repHi...)
	sweep(len(all), func(i int) (int, int) {
		l0, h0 := -100, -100
		for _, m := range moves[i] {
			l, h := m.lo, m.hi
			if !m.leaves {
				l, h = -hi[m.kid], -lo[m.kid]
			}
			l0, h0 = max(l0, l), max(h0, h)
		}
		return max(repLo[i], l0), min(repHi[i], h0)
	}, lo, hi)
	for i, p := range all {
		s.lo[p], s.hi[p] = lo[i], hi[i]
	}
}

// sweep recomputes every lo[i], hi[i] from the values of the last sweep
// until a sweep changes nothing.
func sweep(size int, f func(i int) (int, int), lo, hi []int) {
	nlo, nhi := make([]int, size), make([]int, size)
	for changed := true; changed; {
		changed = false
		for i := range size {
			nlo[i], nhi[i] = f(i)
			changed = changed || nlo[i] != lo[i] || nhi[i] != hi[i]
		}
		copy(lo, nlo)
		copy(hi, nhi)
	}
}

// randomPosition returns a position of 0..maxSeeds seeds (the number drawn
// first, then each seed's pit), either player to move, captures zero.
func randomPosition(rng *rand.Rand, rules engine.Rules, maxSeeds int) engine.Position {
	p := rules.Start()
	p.Pits = [engine.NumPits]uint8{}
	for range rng.IntN(maxSeeds + 1) {
		p.Pits[rng.IntN(engine.NumPits)]++
	}
	p.ToMove = engine.Side(rng.IntN(2))
	return p
}

func allOware() []engine.Oware {
	return []engine.Oware{{GrandSlam: engine.Abapa}, {GrandSlam: engine.Wari}, {GrandSlam: engine.Warri}}
}

// compareWithReference checks the table against refBounds on count random
// positions of up to maxSeeds seeds, and verifies every board of it.
func compareWithReference(t *testing.T, maxSeeds, count int) {
	for _, rules := range allOware() {
		t.Run(rules.Name(), func(t *testing.T) {
			tab := builtTable(t, rules, maxSeeds)
			if err := tab.Verify(nil); err != nil {
				t.Fatal(err)
			}
			ref := newRefBounds(rules, maxSeeds)
			rng := rand.New(rand.NewPCG(uint64(rules.GrandSlam), 11))
			exact := 0
			for range count {
				p := randomPosition(rng, rules, maxSeeds)
				lo, hi, ok := tab.Probe(&p)
				if !ok || lo != ref.lo[p] || hi != ref.hi[p] {
					t.Fatalf("%s: table [%d, %d] (ok %v), reference [%d, %d]", rules.FormatPosition(p), lo, hi, ok, ref.lo[p], ref.hi[p])
				}
				if lo == hi {
					exact++
				}
			}
			t.Logf("%d random positions of up to %d seeds agree; %d of them exact", count, maxSeeds, exact)
		})
	}
}

// TestTablesAgreeWithReference compares 10,000 random positions of up to 6
// seeds for each grand slam setting (up to 10 seeds with -tags slow).
func TestTablesAgreeWithReference(t *testing.T) {
	compareWithReference(t, 6, 10000)
}

// TestParentsUndoMoves: the parents the builder finds by undoing sowings
// are exactly the boards whose moves lead to the board without leaving the
// level, for every board of up to 6 seeds (8 with -tags slow).
func TestParentsUndoMoves(t *testing.T) { checkParents(t, 6) }

func checkParents(t *testing.T, maxSeeds int) {
	for _, rules := range allOware() {
		tab := newTable(rules, maxSeeds, nil)
		tab.codes = make([]byte, tab.x.levelStart(maxSeeds+1))
		b := &builder{t: tab, rules: rules}
		for n := 0; n <= maxSeeds; n++ {
			b.n = n
			size := tab.x.levelSize(n)
			want := make([]map[uint64]bool, size)
			for r := range want {
				want[r] = map[uint64]bool{}
			}
			bd := first(n)
			for r := uint64(0); r < size; r++ {
				for _, k := range b.children(&bd, nil) {
					want[k][r] = true
				}
				next(&bd)
			}
			for r := uint64(0); r < size; r++ {
				bd := tab.x.unrank(r, n)
				got := map[uint64]bool{}
				b.parents(&bd, func(p uint64) { got[p] = true })
				if len(got) != len(want[r]) {
					t.Fatalf("%s board %v: parents %v, want %v", rules.Name(), bd, got, want[r])
				}
				for p := range want[r] {
					if !got[p] {
						t.Fatalf("%s board %v: parent %d missing", rules.Name(), bd, p)
					}
				}
			}
		}
	}
}
