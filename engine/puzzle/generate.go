package puzzle

import (
	"context"
	"fmt"
	"math/rand/v2"

	"oware/engine"
	"oware/engine/endgame"
)

// Tables gives the endgame table of a rule set, or nil.
type Tables interface {
	Table(rules engine.Oware) *endgame.Table
}

// Options say which puzzles Generate draws.
type Options struct {
	Rules              []engine.Oware // drawn in turn; those without a table are skipped
	MinSeeds, MaxSeeds int            // seeds on the board
	Count              int            // puzzles wanted
	Tries              int            // positions drawn at most
	Seed               uint64         // of the random numbers: the same options give the same puzzles
	// Plain bounds the share, in percent, of puzzles with no theme but
	// endgame-win, so that the others get their room; 0 is 40.
	Plain int
	// ThemeMax bounds the share, in percent, of each other theme but
	// where the puzzle counts as plain; 0 is 30.
	ThemeMax int
}

// fresh reports whether themes has a theme but endgame-win that has not
// reached max puzzles.
func fresh(themes []string, byTheme map[string]int, max int) bool {
	for _, th := range themes[1:] {
		if byTheme[th] < max {
			return true
		}
	}
	return false
}

// Generate draws random positions of Options.MinSeeds..MaxSeeds seeds in
// three shapes (seeds anywhere; all on the solver's row, for feeding; the
// opponent's pits given one or two seeds, for captures), picks for each
// the captures before it that make the best move the only winning one when
// the table allows (the other moves' highest upper bound brought to a draw),
// and keeps those Solve makes a puzzle of, without repeats, until Count.
// Puzzles come in the order found.
func Generate(ts Tables, o Options) []*Puzzle {
	rng := rand.New(rand.NewPCG(o.Seed, 23))
	plainMax := o.Count * cmpOr(o.Plain, 40) / 100
	seen := map[string]bool{}
	var out []*Puzzle
	themeMax := o.Count * cmpOr(o.ThemeMax, 30) / 100
	byTheme := map[string]int{}
	plain := 0
	for try := 0; try < o.Tries && len(out) < o.Count; try++ {
		rules := o.Rules[try%len(o.Rules)]
		t := ts.Table(rules)
		if t == nil {
			continue
		}
		n := o.MinSeeds + rng.IntN(o.MaxSeeds-o.MinSeeds+1)
		if n > t.MaxSeeds() {
			continue
		}
		pos, ok := withCaptures(t, rules, draw(rng, rules, n, rng.IntN(4)))
		if !ok {
			continue
		}
		p, ok := Solve(t, rules, pos)
		if !ok || seen[p.ID] {
			continue
		}
		if !fresh(p.Themes, byTheme, themeMax) {
			if plain >= plainMax {
				continue
			}
			plain++
		}
		for _, th := range p.Themes {
			byTheme[th]++
		}
		seen[p.ID] = true
		out = append(out, p)
	}
	return out
}

// cmpOr returns a, or b when a is zero.
func cmpOr(a, b int) int {
	if a == 0 {
		return b
	}
	return a
}

// draw returns a board of n seeds in shape 0 (anywhere), 1 (the mover's
// row only), 2 (each of the opponent's pits one or two seeds while they
// last, the rest anywhere) or 3 (a grand slam in reach: the opponent's
// first pits one or two seeds, the others empty, and a pit of the mover's
// whose last seed lands on the last of them), either player to move, no
// captures yet.
func draw(rng *rand.Rand, rules engine.Oware, n, shape int) engine.Position {
	p := rules.Start()
	p.Pits = [engine.NumPits]uint8{}
	p.ToMove = engine.Side(rng.IntN(2))
	own, opp := engine.RowStart(p.ToMove), engine.RowStart(p.ToMove.Opponent())
	left := n
	if shape == 3 {
		k := 1 + rng.IntN(3)
		i := rng.IntN(engine.PitsPerRow)
		sow := engine.PitsPerRow - i + k - 1
		if k*2+sow > n {
			return p
		}
		for j := range k {
			p.Pits[opp+j] = uint8(1 + rng.IntN(2))
			left -= int(p.Pits[opp+j])
		}
		p.Pits[own+i] = uint8(sow)
		left -= sow
		for range max(left, 0) {
			p.Pits[own+rng.IntN(engine.PitsPerRow)]++
		}
		return p
	}
	if shape == 2 {
		for i := range engine.PitsPerRow {
			if k := min(1+rng.IntN(2), left); rng.IntN(3) > 0 && k > 0 {
				p.Pits[opp+i] += uint8(k)
				left -= k
			}
		}
	}
	for range left {
		if shape == 1 {
			p.Pits[own+rng.IntN(engine.PitsPerRow)]++
		} else {
			p.Pits[rng.IntN(engine.NumPits)]++
		}
	}
	return p
}

// withCaptures gives the board p the captures (adding up to the 48 seeds,
// neither 25 or more) that bring the highest upper bound of the moves but
// the best to a draw, when the best move then wins; false when no
// captures do.
func withCaptures(t *endgame.Table, rules engine.Oware, p engine.Position) (engine.Position, bool) {
	ms, ok := t.ProbeMoves(&p)
	if !ok || len(ms) < 2 {
		return p, false
	}
	n := p.BoardSeeds()
	other := ms[1].Hi
	for _, m := range ms[2:] {
		other = max(other, m.Hi)
	}
	d := -other // the parity of n, as every value of the board
	if d+ms[0].Lo <= 0 || d < -n || d > n {
		return p, false
	}
	me := p.ToMove
	p.Captured[me] = uint8((engine.TotalSeeds - n + d) / 2)
	p.Captured[me.Opponent()] = uint8((engine.TotalSeeds - n - d) / 2)
	return p, true
}

// Needs returns, for each rule set of puzzles, the most seeds on the board
// of its puzzles but the deep search ones: the tables Verify needs.
func Needs(puzzles []*Puzzle) map[engine.Oware]int {
	need := map[engine.Oware]int{}
	for _, p := range puzzles {
		if p.Deep() {
			continue
		}
		need[p.Rules] = max(need[p.Rules], p.Position.BoardSeeds())
	}
	return need
}

// BuildTables builds the table of each rule set of need up to its seeds
// (at most endgame.MaxSeedsLimit), in the calling goroutine.
func BuildTables(ctx context.Context, need map[engine.Oware]int) (endgame.Tables, error) {
	ts := endgame.Tables{}
	for rules, seeds := range need {
		if seeds > endgame.MaxSeedsLimit {
			return nil, fmt.Errorf("puzzle: %s puzzles of %d seeds: the tables go up to %d", rules.Name(), seeds, endgame.MaxSeedsLimit)
		}
		t, err := endgame.Build(ctx, rules, seeds, nil)
		if err != nil {
			return nil, err
		}
		ts[rules.GrandSlam] = t
	}
	return ts, nil
}

// VerifyAll verifies every puzzle with the tables ts (the deep search ones
// by their margin) and returns the failures (an error for a puzzle whose
// rule set has no table, or one too small).
func VerifyAll(ts Tables, puzzles []*Puzzle) []error {
	var errs []error
	var d *Deep
	for _, p := range puzzles {
		if p.Deep() && d == nil {
			d = NewDeep()
		}
		if err := verify(ts.Table(p.Rules), d, p); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}
