package puzzle

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"oware/engine"
	"oware/engine/endgame"
	"oware/engine/search"
)

// Puzzles beyond the tables (theme Middlegame). A position with more seeds
// on the board than the endgame tables hold cannot be proven by them; its
// puzzle is proven by a deep search margin instead: every legal first move
// is played and the position after it searched to DeepDepth plies (one
// thread, a fresh DeepHashMB transposition table, no tables, seed 0: the
// same search gives the same values on every machine), its value rounded
// to whole seeds of final capture difference from the solver's side (the
// captures made counted; a move that ends the game, the game's final
// difference). The position is a puzzle when the best move's value beats
// every other move's by at least DeepMargin seeds. Its solution is that one
// move; its first moves carry the values (lo = hi = the search's value,
// which is not a proof of the outcome, only of the margin at that depth).
// Verify searches again the same way.

// The deep search margin.
const (
	// DeepDepth is the depth, in plies, each first move's position is
	// searched to (after the move).
	DeepDepth = 16
	// DeepMargin is the least difference in whole seeds between the best
	// first move's value and every other's: more than a mistake of the
	// game review (3 seeds).
	DeepMargin = 4
	// DeepHashMB is the size of the transposition table of the deep
	// search, part of what makes it reproducible.
	DeepHashMB = 16
	// MaxDeepSeeds bounds the seeds on the board of a deep search puzzle
	// (the search's cost grows with them).
	MaxDeepSeeds = 24
)

// Middlegame is the theme of the puzzles proven by the deep search margin
// (the first theme of theirs, in place of EndgameWin).
const Middlegame = "middlegame"

// Deep is the searcher of the deep search margin. It is not safe for
// concurrent use.
type Deep struct{ s *search.Searcher }

// NewDeep returns a searcher of the deep search margin.
func NewDeep() *Deep { return &Deep{s: search.NewSearcher(DeepHashMB, nil)} }

// values returns every legal move of pos under rules with its deep search
// value (MoveBounds with Lo = Hi), best first, then the lower pit first.
func (d *Deep) values(ctx context.Context, rules engine.Oware, pos engine.Position) ([]endgame.MoveBounds, error) {
	g := engine.NewGame(rules, pos)
	var out []endgame.MoveBounds
	for _, pit := range g.LegalMoves().Pits() {
		after := g.Clone()
		mv, err := after.Play(pit)
		if err != nil {
			return nil, err
		}
		var v int
		if after.Over || after.LegalMoves() == 0 {
			p := after.Position
			v = int(p.Captured[mv.Mover]) - int(p.Captured[mv.Mover.Opponent()])
		} else {
			d.s.NewGame()
			res, err := d.s.Search(ctx, after, search.Options{Limits: search.Limits{Depth: DeepDepth}, NoTables: true})
			if err != nil {
				return nil, err
			}
			v = int(math.Round(float64(res.Score) / 100))
			if after.Position.ToMove != mv.Mover {
				v = -v
			}
		}
		out = append(out, endgame.MoveBounds{Pit: pit, Lo: v, Hi: v})
	}
	slices.SortStableFunc(out, func(a, b endgame.MoveBounds) int { return b.Lo - a.Lo })
	return out, nil
}

// SolveDeep builds the deep search puzzle of pos under rules (see Deep's
// margin above), or returns false when pos is none: fewer than two legal
// moves, the game over, no move DeepMargin seeds better than every other.
// Only ctx's error is returned.
func (d *Deep) SolveDeep(ctx context.Context, rules engine.Oware, pos engine.Position) (*Puzzle, bool, error) {
	legal := rules.LegalMoves(pos)
	if legal.Count() < 2 || pos.Captured[0] > 24 || pos.Captured[1] > 24 {
		return nil, false, nil
	}
	ms, err := d.values(ctx, rules, pos)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, err
		}
		return nil, false, nil
	}
	if len(ms) < 2 || ms[0].Lo-ms[1].Lo < DeepMargin {
		return nil, false, nil
	}
	p := &Puzzle{ID: IDOf(rules, pos), Rules: rules, Position: pos, First: ms, Solution: []int{ms[0].Pit}}
	p.Themes = themes(rules, pos, p.Solution, Middlegame)
	_, mv, _ := rules.Play(pos, p.Solution[0])
	p.Rating = InitialRating(legal.Count(), 1, mv.Captured() == 0, pos.BoardSeeds())
	return p, true, nil
}

// verifyDeep proves the deep search puzzle p again (Verify's part for
// the theme Middlegame).
func (d *Deep) verifyDeep(p *Puzzle, fail func(string, ...any) error) error {
	if len(p.Solution) != 1 {
		return fail("a deep search puzzle of %d moves, want 1", len(p.Solution))
	}
	ms, err := d.values(context.Background(), p.Rules, p.Position)
	if err != nil {
		return fail("%v", err)
	}
	if len(ms) < 2 || ms[0].Pit != p.Solution[0] || ms[0].Lo-ms[1].Lo < DeepMargin {
		return fail("%s is not %d seeds better than every other move at depth %d (%v)", engine.Label(p.Solution[0]), DeepMargin, DeepDepth, ms)
	}
	if !slices.Equal(ms, p.First) {
		return fail("first moves %v, the file says %v", ms, p.First)
	}
	if got := themes(p.Rules, p.Position, p.Solution, Middlegame); !slices.Equal(got, p.Themes) {
		return fail("themes %v, the file says %v", got, p.Themes)
	}
	return nil
}

// DeepOptions say which deep search puzzles GenerateDeep draws.
type DeepOptions struct {
	Rules              []engine.Oware // drawn in turn
	MinSeeds, MaxSeeds int            // seeds on the board
	Count, Tries       int            // puzzles wanted, positions drawn at most
	Seed               uint64
}

// GenerateDeep draws random positions of o.MinSeeds..MaxSeeds seeds on the
// board in Generate's shapes, the captured seeds shared out at random
// (neither side 25 or more), and keeps those SolveDeep makes a puzzle of,
// without repeats, until o.Count, in the order found. Only ctx's error is
// returned, with the puzzles so far.
func (d *Deep) GenerateDeep(ctx context.Context, o DeepOptions) ([]*Puzzle, error) {
	rng := rand.New(rand.NewPCG(o.Seed, 29))
	seen := map[string]bool{}
	var out []*Puzzle
	for try := 0; try < o.Tries && len(out) < o.Count; try++ {
		rules := o.Rules[try%len(o.Rules)]
		n := o.MinSeeds + rng.IntN(o.MaxSeeds-o.MinSeeds+1)
		pos := draw(rng, rules, n, rng.IntN(4))
		if pos.BoardSeeds() != n {
			continue
		}
		rest := engine.TotalSeeds - n
		lo := max(rest-24, 0)
		a := lo + rng.IntN(min(rest, 24)-lo+1)
		pos.Captured[pos.ToMove], pos.Captured[pos.ToMove.Opponent()] = uint8(a), uint8(rest-a)
		p, ok, err := d.SolveDeep(ctx, rules, pos)
		if err != nil {
			return out, err
		}
		if ok && !seen[p.ID] {
			seen[p.ID] = true
			out = append(out, p)
		}
	}
	return out, nil
}

// MineDeep returns the deep search puzzles of the game played from start
// by moves under rules (Mine's way): every position with minSeeds to
// maxSeeds seeds on the board, the game not over, tried with SolveDeep, in
// the order of the positions, each once. Only ctx's error is returned,
// with the puzzles so far.
func (d *Deep) MineDeep(ctx context.Context, rules engine.Oware, start engine.Position, moves []int, minSeeds, maxSeeds int) ([]*Puzzle, error) {
	var out []*Puzzle
	seen := map[string]bool{}
	g := engine.NewGame(rules, start)
	for i := 0; ; i++ {
		if n := g.Position.BoardSeeds(); n >= minSeeds && n <= maxSeeds && !g.Over {
			p, ok, err := d.SolveDeep(ctx, rules, g.Position)
			if err != nil {
				return out, err
			}
			if ok && !seen[p.ID] {
				seen[p.ID] = true
				out = append(out, p)
			}
		}
		if i == len(moves) || g.Over {
			return out, nil
		}
		if _, err := g.Play(moves[i]); err != nil {
			return out, nil
		}
	}
}

// Values returns every legal move of pos under rules with its deep search
// value (see Deep: DeepDepth plies after it, whole seeds of final capture
// difference from the mover's side, the captures made counted; Lo = Hi),
// best first, then the lower pit first. Only ctx's error is returned.
func (d *Deep) Values(ctx context.Context, rules engine.Oware, pos engine.Position) ([]endgame.MoveBounds, error) {
	return d.values(ctx, rules, pos)
}
