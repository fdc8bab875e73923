package game

import (
	"context"
	"slices"
	"time"

	"oware/engine"
	"oware/engine/search"
)

// Line is one legal move of a position with the value the computer gives
// it (the analysis board's lines).
type Line struct {
	Move string // its label
	// Value is the capture difference in seeds at the end of the game the
	// move keeps, from the mover's side, counting the captures made.
	Value float64
	// Exact: Value is proven; Result is the proven result for the mover
	// ("win", "draw", "loss"), "" when not proven.
	Exact  bool
	Result string
	// PV is the line after the move, the move first.
	PV []string
}

// Lines values every legal move of g, best first: the position after each
// is searched on a worker (after the replies and hints waiting) for an
// equal share of total, at least MinReviewPlyTime. Errors: ErrBusy, ctx's,
// and those of search.Searcher.Search.
func (p *Pool) Lines(ctx context.Context, g *engine.Game, total time.Duration) ([]Line, error) {
	pits := g.LegalMoves().Pits()
	each := max(total/time.Duration(max(len(pits), 1)), MinReviewPlyTime)
	lines := make([]Line, 0, len(pits))
	for _, pit := range pits {
		after := g.Clone()
		mv, err := after.Play(pit)
		if err != nil {
			return nil, err
		}
		l := Line{Move: engine.Label(pit), PV: []string{engine.Label(pit)}}
		if after.Over || after.LegalMoves() == 0 {
			l.Value, l.Exact = FinalValue(g.Rules, after.Position, mv.Mover), true
			l.Result = resultOfValue(l.Value)
		} else {
			res, err := p.Analyze(ctx, after, search.Limits{MoveTime: each})
			if err != nil {
				return nil, err
			}
			l.Value, l.Exact, l.Result = seedsOf(res.Score), res.Exact, provenResult(res)
			l.PV = append(l.PV, labels(res.PV)...)
			if after.Position.ToMove != mv.Mover {
				l.Value, l.Result = -l.Value, flipResult(l.Result)
			}
		}
		lines = append(lines, l)
	}
	slices.SortStableFunc(lines, func(a, b Line) int {
		switch {
		case a.Value > b.Value:
			return -1
		case a.Value < b.Value:
			return 1
		}
		return 0
	})
	return lines, nil
}
