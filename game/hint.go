package game

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"oware/engine"
	"oware/engine/search"
)

// Hints: in a game against the computer up to MaxHintLevel, the player
// may ask for the best move, MaxHints times a game. A hint is searched on
// the computer's pool and kept in the game's row with the version it was
// given at, so it stays shown (in any browser) until the game changes.

// MaxHints is how many hints a player gets in one game.
const MaxHints = 3

// MaxHintLevel is the strongest computer against which hints are given.
const MaxHintLevel search.Level = 4

// Hint is a hint given: the move to sow and why (search.Hint).
type Hint struct {
	Label  string
	Reason search.Reason
	// Seeds is the number the reason speaks of (captured or saved), 0 for
	// the others.
	Seeds int
	// Plies is the distance of the forced win the move starts
	// (search.Hint.Plies), 0 when none is proven.
	Plies int
}

// HintsLeft returns how many hints the player in seat may still ask for
// in g; -1 when g gives none (a game between people, or a computer
// stronger than MaxHintLevel).
func (g *Game) HintsLeft(seat engine.Side) int {
	cs := g.ComputerSide()
	if cs == engine.Nobody || seat != cs.Opponent() || g.Seats[cs].Computer > MaxHintLevel {
		return -1
	}
	return max(MaxHints-g.Hints, 0)
}

// LastHint returns the hint given for g as it is now (its version), if
// any.
func (g *Game) LastHint() (Hint, bool) {
	f := strings.Fields(g.hint)
	if len(f) == 4 { // kept before the distance of forced wins
		f = append(f, "0")
	}
	if len(f) != 5 || f[0] != strconv.Itoa(g.Version) {
		return Hint{}, false
	}
	seeds, err1 := strconv.Atoi(f[3])
	plies, err2 := strconv.Atoi(f[4])
	if err1 != nil || err2 != nil {
		return Hint{}, false
	}
	return Hint{Label: f[1], Reason: search.Reason(f[2]), Seeds: seeds, Plies: plies}, true
}

// Hint gives the player in seat the best move of g and the reason for it,
// and records it (one of MaxHints, or the one already given for g as it
// is). Errors: ErrNoHint (g gives no hints, none are left, or it is not
// seat's turn), ErrConflict (g changed meanwhile), ErrBusy and ctx's
// error (the computer's pool is full or the request went away).
func (s *Service) Hint(ctx context.Context, g *Game, seat engine.Side) (Hint, error) {
	if h, ok := g.LastHint(); ok {
		return h, nil
	}
	if g.Status != Playing || g.Position.ToMove != seat || g.HintsLeft(seat) <= 0 || s.pool == nil {
		return Hint{}, ErrNoHint
	}
	found, err := s.pool.Hint(ctx, g.Engine)
	if err != nil {
		return Hint{}, err
	}
	h := Hint{Label: found.Label, Reason: found.Reason, Seeds: found.Seeds, Plies: found.Plies}
	stored := fmt.Sprintf("%d %s %s %d %d", g.Version, h.Label, h.Reason, h.Seeds, h.Plies)
	ok, err := s.db.UseHint(ctx, g.ID, g.Version, MaxHints, stored)
	if err != nil {
		return Hint{}, err
	}
	if ok {
		g.Hints, g.hint = g.Hints+1, stored
		return h, nil
	}
	fresh, err := s.Load(ctx, g.ID)
	if err != nil {
		return Hint{}, err
	}
	asked := g.Version
	*g = *fresh
	if h, ok := g.LastHint(); ok { // a second click got it first
		return h, nil
	}
	if g.Version != asked {
		return Hint{}, ErrConflict
	}
	return Hint{}, ErrNoHint
}

// Hint returns the best move of eg and why, searched on a worker.
// Errors: ErrBusy, ctx's, and those of search.Searcher.Hint.
func (p *Pool) Hint(ctx context.Context, eg *engine.Game) (search.Hint, error) {
	var h search.Hint
	var herr error
	if err := p.Do(ctx, func(ctx context.Context, s *search.Searcher) { h, herr = s.Hint(ctx, eg) }); err != nil {
		return h, err
	}
	return h, herr
}

// Analyze searches eg within search.AnalysisLimits(lim) (at full
// strength, with the endgame tables) on a worker, after the replies and
// hints waiting (a reply in a game never waits for an analysis queued before it, only for one under
// way). Errors: ErrBusy, ctx's, and those of
// search.Searcher.Search (engine.ErrTooMuchWork when a Nam-nam rule set's
// budget ran out).
func (p *Pool) Analyze(ctx context.Context, eg *engine.Game, lim search.Limits) (search.Result, error) {
	var res search.Result
	var serr error
	if err := p.do(ctx, &job{request: true, class: classAnalysis, fn: func(ctx context.Context, s *search.Searcher) {
		res, serr = s.Search(ctx, eg, search.Options{Limits: search.AnalysisLimits(lim)})
	}}); err != nil {
		return res, err
	}
	return res, serr
}
