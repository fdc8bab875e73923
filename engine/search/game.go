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

// namNamPlay plays Nam-nam with NamNam.Apply, its legality checks bounded
// by n's Budget: once it runs out (the search's time is up), legal lists
// only the moves decided and apply ends the line; the search sees the
// budget's error and stops.
type namNamPlay struct{ n engine.NamNam }

func (w namNamPlay) legal(p *engine.Position) engine.Moves { return w.n.LegalMoves(*p) }

func (w namNamPlay) apply(p *engine.Position, pit int) bool {
	over, err := w.n.Apply(p, pit)
	return over || err != nil
}

// rulesPlay plays any other rule set through Rules.Play.
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

// playFor returns the play of rules r; the Nam-nam one checks legality
// within budget b (replacing r's own budget; its cache is kept).
func playFor(r engine.Rules, b *engine.Budget) play {
	switch r := r.(type) {
	case engine.Oware:
		return owarePlay{r}
	case engine.NamNam:
		r.Budget = b
		return namNamPlay{r}
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
// g's moves and agreements with engine.ReplayMatch under rules (g's, or
// the same with the search's budget); should that fail, it returns the
// current position alone.
func sinceCapture(g *engine.Game, rules engine.Rules) []engine.Position {
	prev := g.Start
	seen := []engine.Position{prev}
	_, err := engine.ReplayMatch(rules, g.Start, g.Moves, g.Agreements, func(r *engine.Game, mv engine.Move, _ bool) {
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
