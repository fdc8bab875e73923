package search

import (
	"oware/engine"
)

// play is the part of a rule set the search needs: the legal moves and a
// move played in place. ended reports the end of the game, or in Nam-nam
// the end of the round; p is then settled as Rules.Play returns it.
type play interface {
	legal(p *engine.Position) engine.Moves
	apply(p *engine.Position, pit int) (ended bool)
}

// owarePlay plays Oware with the engine's allocation-free Apply.
type owarePlay struct{ o engine.Oware }

func (w owarePlay) legal(p *engine.Position) engine.Moves { return w.o.LegalMoves(*p) }

func (w owarePlay) apply(p *engine.Position, pit int) bool { return w.o.Apply(p, pit) }

// rulesPlay plays any rule set (Nam-nam) through Rules.Play.
type rulesPlay struct{ r engine.Rules }

func (w rulesPlay) legal(p *engine.Position) engine.Moves { return w.r.LegalMoves(*p) }

func (w rulesPlay) apply(p *engine.Position, pit int) bool {
	q, mv, err := w.r.Play(*p, pit)
	if err != nil {
		return true // cannot happen for a legal move; end the line
	}
	*p = q
	return mv.Over || mv.RoundOver
}

func playFor(r engine.Rules) play {
	if o, ok := r.(engine.Oware); ok {
		return owarePlay{o}
	}
	return rulesPlay{r}
}

// finalDiff is the result of a settled position for side me, in seeds: its
// captures (and Nam-nam store) minus the opponent's.
func finalDiff(p *engine.Position, me engine.Side) int {
	op := me.Opponent()
	return int(p.Captured[me]) + int(p.Store[me]) - int(p.Captured[op]) - int(p.Store[op])
}

// sinceCapture returns the positions of g since its last capture (or the
// start of its round), in order, the current position last: what the
// repetition rule compares a new position with (RULES.md 2.6). It replays
// g's moves and agreements with engine.ReplayMatch; should that fail, it
// returns the current position alone.
func sinceCapture(g *engine.Game) []engine.Position {
	prev := g.Start
	seen := []engine.Position{prev}
	_, err := engine.ReplayMatch(g.Rules, g.Start, g.Moves, g.Agreements, func(r *engine.Game, mv engine.Move, _ bool) {
		q := r.Position
		if mv.RoundOver || q.Captured != prev.Captured {
			seen = seen[:0]
		}
		seen = append(seen, q)
		prev = q
	})
	if err != nil || prev != g.Position {
		return []engine.Position{g.Position}
	}
	return seen
}
