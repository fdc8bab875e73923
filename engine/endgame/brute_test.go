package endgame

import (
	"math/rand/v2"
	"testing"

	"oware/engine"
)

// bruteForce computes the true value V(P | {P}) of the package
// documentation: a full alpha-beta search over every line of play, with
// the repetition rule of RULES.md 2.6 applied along the path (the first
// position to come back ends the game, each side taking its own row), by
// Rules.Play, and the 25-seed end left out (captures kept at zero). A
// capture starts a fresh history, so the value of the position it leaves
// is remembered. Searches that would take more than budget nodes give up.
type bruteForce struct {
	rules  engine.Rules
	fresh  map[engine.Position]int
	nodes  int
	budget int
}

type outOfBudget struct{}

// value returns V(p | {p}) for the player to move in p, or false when the
// search ran out of budget.
func (s *bruteForce) value(p engine.Position) (v int, ok bool) {
	s.nodes = 0
	defer func() {
		if r := recover(); r != nil {
			if _, over := r.(outOfBudget); !over {
				panic(r)
			}
			ok = false
		}
	}()
	return s.freshValue(p), true
}

func (s *bruteForce) freshValue(p engine.Position) int {
	if v, ok := s.fresh[p]; ok {
		return v
	}
	v := s.search(p, []engine.Position{p}, -engine.TotalSeeds-1, engine.TotalSeeds+1)
	s.fresh[p] = v
	return v
}

func (s *bruteForce) search(p engine.Position, path []engine.Position, alpha, beta int) int {
	if s.nodes++; s.nodes > s.budget {
		panic(outOfBudget{})
	}
	me := p.ToMove
	legal := s.rules.LegalMoves(p)
	if legal == 0 {
		return p.RowSeeds(me) - p.RowSeeds(me.Opponent())
	}
	best := -engine.TotalSeeds - 1
	for _, pit := range legal.Pits() {
		q, mv, _ := s.rules.Play(p, pit)
		taken := int(q.Captured[me]) - int(q.Captured[me.Opponent()])
		var v int
		switch {
		case mv.Over:
			v = taken
		case taken > 0:
			fresh := q
			fresh.Captured = [2]uint8{}
			if q.ToMove == me {
				v = taken + s.freshValue(fresh)
			} else {
				v = taken - s.freshValue(fresh)
			}
		case repeats(path, &q):
			v = q.RowSeeds(me) - q.RowSeeds(me.Opponent())
		default:
			v = -s.search(q, append(path, q), -beta, -max(alpha, best))
		}
		if v > best {
			if best = v; best >= beta {
				break
			}
		}
	}
	return best
}

func repeats(path []engine.Position, q *engine.Position) bool {
	for i := range path {
		if path[i].Pits == q.Pits && path[i].ToMove == q.ToMove {
			return true
		}
	}
	return false
}

// TestBoundsHoldTheTrueValue: for every position of up to 2 seeds (3 with
// -tags slow), and for the random positions of up to 6 seeds (10) that the
// brute force solves within its budget, the true value lies within the
// table's bounds, and equals them where they meet.
func TestBoundsHoldTheTrueValue(t *testing.T) {
	checkTrueValues(t, 6, 2, 100, 3000)
}

func checkTrueValues(t *testing.T, maxSeeds, allSeeds, tries, budget int) {
	for _, rules := range allOware() {
		t.Run(rules.Name(), func(t *testing.T) {
			tab := builtTable(t, rules, maxSeeds)
			bf := &bruteForce{rules: rules, fresh: map[engine.Position]int{}, budget: budget}
			check := func(p engine.Position) bool {
				v, ok := bf.value(p)
				if !ok {
					return false
				}
				lo, hi, _ := tab.Probe(&p)
				if v < lo || v > hi {
					t.Fatalf("%s: true value %d outside the table's [%d, %d]", rules.FormatPosition(p), v, lo, hi)
				}
				return true
			}
			all := 0
			for n := 0; n <= allSeeds; n++ {
				bd := first(n)
				for more := true; more; more = next(&bd) {
					for _, side := range []engine.Side{engine.South, engine.North} {
						p := rules.Start()
						p.Pits, p.ToMove = bd, side
						bf.budget = 1 << 30
						check(p)
						all++
					}
				}
			}
			bf.budget = budget
			rng := rand.New(rand.NewPCG(uint64(rules.GrandSlam), 5))
			solved := 0
			for range tries {
				if check(randomPosition(rng, rules, maxSeeds)) {
					solved++
				}
			}
			t.Logf("all %d positions of up to %d seeds, and %d of %d random ones of up to %d seeds", all, allSeeds, solved, tries, maxSeeds)
			if solved < tries/4 {
				t.Errorf("only %d of %d random positions solved", solved, tries)
			}
		})
	}
}
