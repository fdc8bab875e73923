package endgame

import (
	"math/rand/v2"
	"testing"

	"oware/engine"
)

// TestMovesHoldTheTrueValue: on every position of up to 3 seeds and on
// random positions of up to 6 seeds (8 with -tags slow) of every
// grand slam setting, ProbeMoves gives every legal move once, best first,
// and the true value of each move, by the brute force with the repetition
// rule along the path (the position counts as seen, RULES.md 2.6 and 3),
// lies within its bounds.
func TestMovesHoldTheTrueValue(t *testing.T) { checkMoves(t, 3, 6, 400, 5000) }

func checkMoves(t *testing.T, allSeeds, maxSeeds, tries, budget int) {
	for _, rules := range allOware() {
		t.Run(rules.Name(), func(t *testing.T) {
			tab := builtTable(t, rules, maxSeeds)
			bf := &bruteForce{rules: rules, fresh: map[engine.Position]int{}, budget: budget}
			solved, moves, exact := 0, 0, 0
			check := func(p engine.Position) {
				if rules.LegalMoves(p) == 0 {
					return
				}
				truth, ok := trueMoveValues(bf, rules, p)
				if !ok {
					return
				}
				solved++
				got, _ := tab.ProbeMoves(&p)
				if len(got) != len(truth) {
					t.Fatalf("%s: %d moves, want %d", rules.FormatPosition(p), len(got), len(truth))
				}
				for i, m := range got {
					v, legal := truth[m.Pit]
					if !legal {
						t.Fatalf("%s: move %s is not legal", rules.FormatPosition(p), engine.Label(m.Pit))
					}
					if v < m.Lo || v > m.Hi {
						t.Fatalf("%s: move %s: true value %d outside [%d, %d]", rules.FormatPosition(p), engine.Label(m.Pit), v, m.Lo, m.Hi)
					}
					if i > 0 && (m.Lo > got[i-1].Lo || m.Lo == got[i-1].Lo && m.Hi > got[i-1].Hi) {
						t.Fatalf("%s: moves not best first: %v", rules.FormatPosition(p), got)
					}
					moves++
					if m.Lo == m.Hi {
						exact++
					}
				}
			}
			for n := 0; n <= allSeeds; n++ {
				bd := first(n)
				for more := true; more; more = next(&bd) {
					for _, side := range []engine.Side{engine.South, engine.North} {
						p := rules.Start()
						p.Pits, p.ToMove = bd, side
						check(p)
					}
				}
			}
			all := solved
			rng := rand.New(rand.NewPCG(uint64(rules.GrandSlam), 23))
			for range tries {
				check(randomPosition(rng, rules, maxSeeds))
			}
			t.Logf("%d positions of up to %d seeds with a move, %d of %d random ones of up to %d seeds solved: %d moves, %d exact",
				all, allSeeds, solved-all, tries, maxSeeds, moves, exact)
			if solved-all < tries/8 {
				t.Errorf("only %d of %d random positions solved", solved-all, tries)
			}
		})
	}
}

// trueMoveValues returns the true value of each legal move of p for its
// mover, p the start of the game, by the brute force; false when it ran
// out of budget.
func trueMoveValues(bf *bruteForce, rules engine.Oware, p engine.Position) (vals map[int]int, ok bool) {
	bf.nodes = 0
	defer func() {
		if r := recover(); r != nil {
			if _, over := r.(outOfBudget); !over {
				panic(r)
			}
			ok = false
		}
	}()
	me := p.ToMove
	vals = map[int]int{}
	for _, pit := range rules.LegalMoves(p).Pits() {
		q, mv, _ := rules.Play(p, pit)
		taken := int(q.Captured[me]) - int(q.Captured[me.Opponent()])
		switch {
		case mv.Over:
			vals[pit] = taken
		case taken > 0:
			fresh := q
			fresh.Captured = [2]uint8{}
			if q.ToMove == me {
				vals[pit] = taken + bf.freshValue(fresh)
			} else {
				vals[pit] = taken - bf.freshValue(fresh)
			}
		case repeats([]engine.Position{p}, &q):
			vals[pit] = q.RowSeeds(me) - q.RowSeeds(me.Opponent())
		case q.ToMove == me:
			vals[pit] = bf.search(q, []engine.Position{p, q}, -engine.TotalSeeds-1, engine.TotalSeeds+1)
		default:
			vals[pit] = -bf.search(q, []engine.Position{p, q}, -engine.TotalSeeds-1, engine.TotalSeeds+1)
		}
	}
	return vals, true
}
