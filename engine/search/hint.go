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
	ReasonForcedWin  Reason = "forced-win"  // the search proves it wins (to the end of every line or the endgame tables); Seeds is the final margin when proven exactly, else 0
	ReasonThreatens  Reason = "threatens"   // the mover's next move could capture Seeds seeds
	ReasonFeeds      Reason = "feeds"       // the opponent's row is empty and it sows into it (RULES.md 2.5), one of several such moves
	ReasonBest       Reason = "best"        // the strongest move the search found
)

// Hint is the best move of a position and why.
type Hint struct {
	Pit    int    // 0..11
	Label  string // "A".."F", "a".."f"
	Reason Reason
	// Seeds is the number the reason speaks of: captured (grand-slam,
	// captures), saved (avoids-loss), threatened (threatens), or the
	// proven final margin (forced-win); 0 for the others.
	Seeds int
	// Score is the search's value of the move in centi-seeds (Result.Score).
	Score int
	// Plies, when the search proves the move wins (Oware rule sets), is
	// the fewest plies, the move's included, within which it wins by
	// force (MoveWins within WinPlies and WinNodes); 0 when the win or its
	// distance is not proven within those bounds.
	Plies int
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
	h.Reason, h.Seeds = reasonFor(g, res.Best, &res)
	h.Plies = s.winPlies(ctx, g, &res)
	return h, nil
}

// winPlies is the distance of the forced win that res proves for its
// best move in g (Hint.Plies), 0 for none.
func (s *Searcher) winPlies(ctx context.Context, g *engine.Game, res *Result) int {
	rules, ok := g.Rules.(engine.Oware)
	if !ok || !(res.Proven == "win" || res.Exact && res.Score > 0) {
		return 0
	}
	seen := sinceCapture(g, g.Rules)
	plies, ok := MoveWins(ctx, rules, g.Position, seen[:len(seen)-1], res.Best, WinPlies, WinNodes, s.tables)
	if !ok {
		return 0
	}
	return plies
}

// reasonFor tells why pit is worth playing in g (see Reason); res, when
// not nil, is the search that chose it.
func reasonFor(g *engine.Game, pit int, res *Result) (Reason, int) {
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
	switch {
	case res != nil && res.Best == pit && res.Exact && res.Score > 0:
		return ReasonForcedWin, res.Score / 100
	case res != nil && res.Best == pit && res.Proven == "win":
		return ReasonForcedWin, 0
	case isOware(g.Rules) && p.RowSeeds(me.Opponent()) == 0:
		return ReasonFeeds, 0
	}
	if next.ToMove != me && !mv.Over {
		if n := threat(g.Rules, next); n > 0 {
			return ReasonThreatens, n
		}
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

// isOware reports whether r is a rule set of RULES.md 2-3 (feeding applies).
func isOware(r engine.Rules) bool {
	_, ok := r.(engine.Oware)
	return ok
}
