package search

import (
	"context"
	"fmt"
	"time"

	"oware/engine"
)

// Level is a strength of the computer player: 1 (a beginner can beat it)
// to 8 (full search with the endgame tables).
type Level int

// The levels.
const (
	MinLevel Level = 1
	MaxLevel Level = 8
)

// MinThinkTime is the shortest time Move takes when asked to think at
// least a little, so that a reply never feels instant.
const MinThinkTime = 400 * time.Millisecond

// ParseLevel reads a level "1".."8".
func ParseLevel(s string) (Level, error) {
	var l int
	if _, err := fmt.Sscanf(s, "%d", &l); err != nil || fmt.Sprint(l) != s || !Level(l).Valid() {
		return 0, fmt.Errorf("level %q: want 1 to 8", s)
	}
	return Level(l), nil
}

// Valid reports whether l is 1..8.
func (l Level) Valid() bool { return l >= MinLevel && l <= MaxLevel }

// Name returns the suggested English name of the level, for "1 - beginner"
// ... "8 - master" (the site localizes its own).
func (l Level) Name() string {
	names := [...]string{"beginner", "novice", "casual", "intermediate", "club player", "strong", "expert", "master"}
	if !l.Valid() {
		return ""
	}
	return names[l-1]
}

// Options returns the search options of the level with seed (see
// Options.Seed): a depth or time limit, evaluation noise for levels 1-7,
// and the endgame tables from level 7 on.
//
//	level  1    2    3    4    5    6    7       8
//	depth  1    2    3    4    5    7    12      -
//	time   -    -    -    -    -    -    1 s     1 s
//	noise  1500 250  150  50   40   20   5       2  (centi-seeds)
//
// Tuned by self-play with oware-engine match (docs/engine.md, "The
// computer's figures"; levels 1-6 by depth, levels 7-8 at 30 ms a move;
// level 5 went from depth 6 to 5 when the pit table made it too close to
// level 6): each level scores at least
// 65 % against the one below; level 1's noise makes it lose often to a
// player who takes the largest capture each move, and still beat a random
// one (TestLevelFloor). Levels 6 to 8 open from the book (UsesBook).
func (l Level) Options(seed uint64) Options {
	type spec struct {
		depth, noise int
		time         time.Duration
		tables       bool
	}
	specs := [...]spec{
		{1, 1500, 0, false}, {2, 250, 0, false}, {3, 150, 0, false}, {4, 50, 0, false},
		{5, 40, 0, false}, {7, 20, 0, false}, {12, 5, time.Second, true}, {0, 2, time.Second, true},
	}
	s := specs[min(max(l, MinLevel), MaxLevel)-1]
	return Options{Limits: Limits{Depth: s.depth, MoveTime: s.time}, Noise: s.noise, Seed: seed, NoTables: !s.tables}
}

// Move chooses the computer's move in g at level, varied by seed (a new
// seed for each game gives different games), and returns the pit to sow:
// from the opening book for levels 6 to 8 where it has the position
// (BookMove), else by a search.
// With minThink it takes at least MinThinkTime (a reply that does not feel
// instant); without, it answers as soon as the search is done. Level 8
// answers within about 1 s on one core of a small server. Errors:
// ErrGameOver, an invalid level, or ctx's error when ctx ends first.
func (s *Searcher) Move(ctx context.Context, g *engine.Game, level Level, seed uint64, minThink bool) (int, error) {
	start := time.Now()
	pit, err := s.MoveOnClock(ctx, g, level, seed, Clock{})
	if err != nil {
		return -1, err
	}
	if minThink {
		if wait := MinThinkTime - time.Since(start); wait > 0 {
			t := time.NewTimer(wait)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
				return -1, ctx.Err()
			}
		}
	}
	return pit, nil
}

// MoveOnClock is Move without minThink for a player on clock c (the zero
// Clock: none): the level's search within its share of the clock
// (ClockTime), the book's move at once where it has the position.
func (s *Searcher) MoveOnClock(ctx context.Context, g *engine.Game, level Level, seed uint64, c Clock) (int, error) {
	if !level.Valid() {
		return -1, fmt.Errorf("search: level %d: want 1 to 8", level)
	}
	opt := level.Options(seed)
	opt.Clock = c
	if g.LegalMoves().Count() == 1 {
		opt.Depth = 1
	}
	if pit, ok := s.BookMove(g, level, seed); ok {
		return pit, nil
	}
	res, err := s.Search(ctx, g, opt)
	if err != nil {
		return -1, err
	}
	return res.Best, nil
}

// Analysis is a search's answer in the shape of the analysis API:
// {"best":"C","value":N,"depth":D,"pv":["C","d",...],"exact":bool}.
type Analysis struct {
	Best  string   `json:"best"`  // the best move's label
	Value float64  `json:"value"` // seeds, from the mover's side (Result.Score / 100)
	Depth int      `json:"depth"` // plies searched
	PV    []string `json:"pv"`    // the principal variation's labels
	Exact bool     `json:"exact"` // the value is proven (Result.Exact)
	// Result is the proven result for the mover ("win", "draw", "loss"),
	// also when the value is not exact; left out when not proven.
	Result string `json:"result,omitempty"`
}

// MaxAnalysisTime bounds every analysis (Analyze, AnalysisLimits): the
// analysis API's cap.
const MaxAnalysisTime = 5 * time.Second

// AnalysisLimits returns lim bounded as an analysis is: a time of at most
// MaxAnalysisTime (MaxAnalysisTime when lim sets none), so that a depth
// or node count asked for cannot hold a worker longer.
func AnalysisLimits(lim Limits) Limits {
	if lim.MoveTime <= 0 || lim.MoveTime > MaxAnalysisTime {
		lim.MoveTime = MaxAnalysisTime
	}
	return lim
}

// Analyze searches g at full strength (endgame tables included) within
// AnalysisLimits(lim) and returns the answer of the analysis API. Its time
// is bounded in every rule set (see Search) and its memory is the
// searcher's transposition table and a few kilobytes: nothing grows with
// the nodes searched. Errors as Search.
func (s *Searcher) Analyze(ctx context.Context, g *engine.Game, lim Limits) (Analysis, error) {
	res, err := s.Search(ctx, g, Options{Limits: AnalysisLimits(lim)})
	if err != nil {
		return Analysis{}, err
	}
	return res.Analysis(), nil
}

// Analysis returns r in the shape of the analysis API.
func (r Result) Analysis() Analysis {
	a := Analysis{Best: engine.Label(r.Best), Value: float64(r.Score) / 100, Depth: r.Depth, PV: []string{}, Exact: r.Exact, Result: r.Proven}
	for _, pit := range r.PV {
		a.PV = append(a.PV, engine.Label(pit))
	}
	return a
}
