package search

import (
	"context"
	"time"

	"oware/engine"
)

// Reason says why a hinted move is good, for a sentence the site localizes
// ("sow C: captures 5 seeds"). The values are stable words for message
// catalogs and the API.
type Reason string

// The reasons, from the most to the least telling; a hint gives the first
// that holds.
const (
	ReasonWins       Reason = "wins"        // the move wins the game at once (25 seeds or the end of the game)
	ReasonOnlyMove   Reason = "only-move"   // it is the only legal move
	ReasonOnlyFeed   Reason = "only-feed"   // the opponent's row is empty and it is the only move that sows into it (RULES.md 2.5)
	ReasonGrandSlam  Reason = "grand-slam"  // it captures the opponent's whole row, Seeds seeds (wari, warri; RULES.md 3)
	ReasonCaptures   Reason = "captures"    // it captures Seeds seeds
	ReasonAvoidsLoss Reason = "avoids-loss" // the opponent could capture Seeds more seeds if another move were played
	ReasonBest       Reason = "best"        // the strongest move the search found
)

// Hint is the best move of a position and why.
type Hint struct {
	Pit    int    // 0..11
	Label  string // "A".."F", "a".."f"
	Reason Reason
	// Seeds is the number the reason speaks of: captured (grand-slam,
	// captures) or saved (avoids-loss); 0 for the others.
	Seeds int
	// Score is the search's value of the move in centi-seeds (Result.Score).
	Score int
}

// HintTime is how long Hint searches.
const HintTime = 300 * time.Millisecond

// Hint finds the best move of g (a search of HintTime at full strength)
// and the reason to give for it. Errors as Search.
func (s *Searcher) Hint(ctx context.Context, g *engine.Game) (Hint, error) {
	res, err := s.Search(ctx, g, Options{Limits: Limits{MoveTime: HintTime}})
	if err != nil {
		return Hint{}, err
	}
	h := Hint{Pit: res.Best, Label: engine.Label(res.Best), Reason: ReasonBest, Score: res.Score}
	h.Reason, h.Seeds = reasonFor(g, res.Best)
	return h, nil
}

// reasonFor tells why pit is worth playing in g (see Reason).
func reasonFor(g *engine.Game, pit int) (Reason, int) {
	p := g.Position
	me := p.ToMove
	legal := g.LegalMoves()
	next, mv, err := g.Rules.Play(p, pit)
	if err != nil {
		return ReasonBest, 0
	}
	taken := int(next.Captured[me]) - int(p.Captured[me])
	switch {
	case mv.Over && mv.Result == engine.Winner(me):
		return ReasonWins, 0
	case legal.Count() == 1 && p.RowSeeds(me.Opponent()) == 0:
		return ReasonOnlyFeed, 0
	case legal.Count() == 1:
		return ReasonOnlyMove, 0
	case mv.GrandSlam && taken > 0:
		return ReasonGrandSlam, taken
	case taken > 0:
		return ReasonCaptures, taken
	}
	if saved := threat(g.Rules, p) - bestCapture(g.Rules, next); saved > 0 {
		return ReasonAvoidsLoss, saved
	}
	return ReasonBest, 0
}

// threat is the most seeds the opponent of p's mover could capture with
// one move if it were their turn now.
func threat(r engine.Rules, p engine.Position) int {
	p.ToMove = p.ToMove.Opponent()
	return bestCapture(r, p)
}

// bestCapture is the most seeds p's mover can capture with one move.
func bestCapture(r engine.Rules, p engine.Position) int {
	most := 0
	for _, pit := range r.LegalMoves(p).Pits() {
		if q, _, err := r.Play(p, pit); err == nil {
			most = max(most, int(q.Captured[p.ToMove])-int(p.Captured[p.ToMove]))
		}
	}
	return most
}
