// Package enginetest holds the tests' oracle of the game's value: a brute
// force over every line, sharing nothing with the search but the rules.
package enginetest

import "oware/engine"

// Value is the value of g for its player to move (the capture difference
// at the end, RULES.md 2.6) by trying every line, when every line ends
// within depth plies; ok is false otherwise.
func Value(g *engine.Game, depth int) (v int, ok bool) {
	if g.Over {
		me := g.Position.ToMove
		return int(g.Position.Captured[me]) - int(g.Position.Captured[me.Opponent()]), true
	}
	if depth == 0 {
		return 0, false
	}
	best := -1000
	for _, pit := range g.LegalMoves().Pits() {
		v, ok := Move(g, pit, depth)
		if !ok {
			return 0, false
		}
		best = max(best, v)
	}
	return best, true
}

// Move is the value of sowing pit in g for its mover (Value), the move
// counted in depth.
func Move(g *engine.Game, pit, depth int) (v int, ok bool) {
	c := g.Clone()
	mv, err := c.Play(pit)
	if err != nil {
		return 0, false
	}
	v, ok = Value(c, depth-1)
	if c.Position.ToMove != mv.Mover {
		v = -v
	}
	return v, ok
}
