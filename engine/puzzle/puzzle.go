// Package puzzle builds, stores and proves the site's puzzles: positions
// of Oware (Abapa, Wari, Warri) where exactly one move wins, proven by the
// endgame tables (package endgame), and beyond the tables positions where
// a deep search finds one move clearly best (theme Middlegame, see Deep).
//
// # What makes a puzzle
//
// A puzzle is a position, the player to move being the solver, and a
// solution: the solver's moves with the opponent's replies between them.
// At each of the solver's turns on the solution's line exactly one move is
// proven to win and every other legal move is proven not to win (at best
// a draw), both by endgame.ProbeMovesFrom with the positions seen since
// the last capture (the repetition rule, RULES.md 2.6): the winning move's
// lower bound of the final capture difference is above zero and every
// other move's upper bound is zero or below. Values of a board have the
// parity of its seeds, so the best move then beats every other by at least
// Margin seeds of final capture difference. The puzzle's position counts
// as the start of the game (RULES.md 3: its own first occurrence).
//
// The opponent's reply is their best move by the same bounds (the highest
// lower bound, then upper bound, then the lowest pit); the line goes on
// while the solver's next turn again has exactly one winning move, up to
// MaxSolverMoves of the solver's moves, and stops at the end of the game.
//
// # Themes
//
// Every puzzle has the theme endgame-win. The others are found by these
// rules, on the position and the solution's first move:
//   - capture-chain: the first move captures two or more pits (RULES.md 2.3);
//   - grand-slam: the first move is a grand slam that captures (Wari,
//     Warri; RULES.md 3);
//   - feeding: at one of the solver's turns of the solution the opponent's
//     row is empty, so the solver must sow into it (RULES.md 2.5);
//   - saving: the opponent, were it their turn, could capture at least
//     ThreatSeeds seeds at once; after the first move, which captures
//     nothing, they can capture fewer (a threatened pit saved).
package puzzle

import (
	"errors"
	"fmt"
	"hash/fnv"
	"slices"

	"oware/engine"
	"oware/engine/endgame"
)

// The bounds of a puzzle.
const (
	// Margin is the least difference in seeds of final capture difference
	// between the winning move and any other at each of the solver's turns
	// (it follows from the win/no-win rule and parity, and is checked).
	Margin = 2
	// MaxSolverMoves bounds the solver's moves of a solution.
	MaxSolverMoves = 3
	// ThreatSeeds is the least capture the opponent threatens in a
	// "saving" puzzle.
	ThreatSeeds = 2
)

// The themes, as the file and the API write them.
const (
	EndgameWin   = "endgame-win"
	CaptureChain = "capture-chain"
	GrandSlam    = "grand-slam"
	Feeding      = "feeding"
	Saving       = "saving"
)

// Themes are every theme, in the order pages list them.
var Themes = []string{EndgameWin, Middlegame, CaptureChain, GrandSlam, Feeding, Saving}

// Puzzle is one puzzle.
type Puzzle struct {
	ID       string // eight hex digits of a hash of the rules and the position
	Rules    engine.Oware
	Position engine.Position // the solver to move; valid (48 seeds in all)
	// Solution is the line: the solver's moves at even indexes, the
	// opponent's replies between them; it ends with a solver's move.
	Solution []int
	Themes   []string // EndgameWin (or Middlegame) first, then the others in Themes' order
	Rating   int      // the starting puzzle rating (see InitialRating)
	// First are the proven bounds of every legal first move, as final
	// capture differences from the solver's side (the captures made before
	// counted), best first: why another move is wrong.
	First []endgame.MoveBounds
}

// Deep reports whether p is proven by the deep search margin (its first
// theme Middlegame) rather than by the tables.
func (p *Puzzle) Deep() bool { return len(p.Themes) > 0 && p.Themes[0] == Middlegame }

// SolverMoves returns the number of the solver's moves of the solution.
func (p *Puzzle) SolverMoves() int { return (len(p.Solution) + 1) / 2 }

// Labels returns the solution as move labels.
func (p *Puzzle) Labels() []string {
	out := make([]string, len(p.Solution))
	for i, pit := range p.Solution {
		out[i] = engine.Label(pit)
	}
	return out
}

// IDOf returns the id of the puzzle of position pos under rules.
func IDOf(rules engine.Oware, pos engine.Position) string {
	h := fnv.New32a()
	h.Write([]byte(rules.Name() + " " + rules.FormatPosition(pos)))
	return fmt.Sprintf("%08x", h.Sum32())
}

// InitialRating is a puzzle's starting rating, before anyone solved it:
// 1100, plus 100 for each legal first move beyond two, 250 for each of the
// solver's moves beyond one, 150 when the first move captures nothing (a
// quiet move is harder to see) and 10 a seed on the board.
func InitialRating(legal, solverMoves int, quiet bool, seeds int) int {
	r := 1100 + 100*max(legal-2, 0) + 250*(solverMoves-1) + 10*seeds
	if quiet {
		r += 150
	}
	return r
}

// ErrNotUnique is the error of a puzzle that fails its proof.
var ErrNotUnique = errors.New("puzzle: not proven unique")

// step is the proven choice at one of the solver's turns.
type step struct {
	moves []endgame.MoveBounds // with the captures counted, best first
}

// winner returns the only winning move of s, or false when none or more
// than one move is proven to win, or another move is not proven not to.
func (s step) winner() (int, bool) {
	if len(s.moves) == 0 || s.moves[0].Lo <= 0 {
		return 0, false
	}
	for _, m := range s.moves[1:] {
		if m.Hi > 0 {
			return 0, false
		}
	}
	if len(s.moves) > 1 && s.moves[0].Lo-s.moves[1].Hi < Margin {
		return 0, false
	}
	return s.moves[0].Pit, true
}

// prove returns the bounds of every legal move of pos (the captures made
// counted, from the mover's side) after the positions seen since the last
// capture; false when the table does not cover pos.
func prove(t *endgame.Table, pos engine.Position, seen []engine.Position) (step, bool) {
	ms, ok := t.ProbeMovesFrom(&pos, seen)
	if !ok {
		return step{}, false
	}
	d := int(pos.Captured[pos.ToMove]) - int(pos.Captured[pos.ToMove.Opponent()])
	for i := range ms {
		ms[i].Lo += d
		ms[i].Hi += d
	}
	return step{moves: ms}, true
}

// line is a position of the solution and what the repetition rule needs.
type line struct {
	rules engine.Oware
	pos   engine.Position
	seen  []engine.Position // since the last capture, pos included
	over  bool
}

// play plays pit on the line: false when it is illegal.
func (l *line) play(pit int) bool {
	q, mv, err := l.rules.Play(l.pos, pit)
	if err != nil {
		return false
	}
	switch {
	case mv.Over:
		l.over = true
	case mv.Captured() > 0:
		l.seen = []engine.Position{q}
	case slices.ContainsFunc(l.seen, func(s engine.Position) bool { return s.Pits == q.Pits && s.ToMove == q.ToMove }):
		l.over = true // the position came back: the game ends (RULES.md 2.6)
	default:
		l.seen = append(slices.Clone(l.seen), q)
	}
	l.pos = q
	return true
}

// Solve builds the puzzle of pos under rules with table t, or returns
// false when pos is no puzzle (not exactly one winning move, fewer than
// two legal moves, outside the table, the game over).
func Solve(t *endgame.Table, rules engine.Oware, pos engine.Position) (*Puzzle, bool) {
	legal := rules.LegalMoves(pos)
	if legal.Count() < 2 || pos.Captured[0] > 24 || pos.Captured[1] > 24 {
		return nil, false
	}
	first, ok := prove(t, pos, nil)
	if !ok {
		return nil, false
	}
	pit, ok := first.winner()
	if !ok {
		return nil, false
	}
	p := &Puzzle{ID: IDOf(rules, pos), Rules: rules, Position: pos, First: first.moves}
	l := &line{rules: rules, pos: pos, seen: []engine.Position{pos}}
	for {
		p.Solution = append(p.Solution, pit)
		l.play(pit)
		if l.over || p.SolverMoves() == MaxSolverMoves {
			break
		}
		reply, ok := prove(t, l.pos, l.seen[:len(l.seen)-1])
		if !ok || len(reply.moves) == 0 {
			break
		}
		after := *l
		after.play(reply.moves[0].Pit)
		if after.over {
			break
		}
		next, ok := prove(t, after.pos, after.seen[:len(after.seen)-1])
		if !ok {
			break
		}
		if pit, ok = next.winner(); !ok {
			break
		}
		p.Solution = append(p.Solution, reply.moves[0].Pit)
		*l = after
	}
	p.Themes = themes(rules, pos, p.Solution, EndgameWin)
	_, mv, _ := rules.Play(pos, p.Solution[0])
	p.Rating = InitialRating(legal.Count(), p.SolverMoves(), mv.Captured() == 0, pos.BoardSeeds())
	return p, true
}

// themes returns the themes of the puzzle of pos whose solution is line
// (see the package documentation), first the theme of its proof
// (EndgameWin or Middlegame).
func themes(rules engine.Oware, pos engine.Position, line []int, proof string) []string {
	out := []string{proof}
	pit := line[0]
	_, mv, _ := rules.Play(pos, pit)
	me := pos.ToMove
	if len(mv.Captures) >= 2 && !mv.GrandSlam {
		out = append(out, CaptureChain)
	}
	if mv.GrandSlam && mv.Captured() > 0 {
		out = append(out, GrandSlam)
	}
	if mustFeed(rules, pos, line) {
		out = append(out, Feeding)
	}
	if mv.Captured() == 0 && !mv.Over {
		before := pos
		before.ToMove = me.Opponent()
		after, _, _ := rules.Play(pos, pit)
		if threat := bestCapture(rules, before); threat >= ThreatSeeds && bestCapture(rules, after) < threat {
			out = append(out, Saving)
		}
	}
	return out
}

// mustFeed reports whether the opponent's row is empty at one of the
// solver's turns of line, played from pos.
func mustFeed(rules engine.Oware, pos engine.Position, line []int) bool {
	me := pos.ToMove
	for _, pit := range line {
		if pos.ToMove == me && pos.RowSeeds(me.Opponent()) == 0 {
			return true
		}
		var err error
		if pos, _, err = rules.Play(pos, pit); err != nil {
			return false
		}
	}
	return false
}

// bestCapture returns the most seeds the player to move in p captures
// with one move.
func bestCapture(rules engine.Oware, p engine.Position) int {
	best := 0
	for _, pit := range rules.LegalMoves(p).Pits() {
		_, mv, _ := rules.Play(p, pit)
		best = max(best, mv.Captured())
	}
	return best
}

// Verify proves p again with table t (which must cover its position): the
// same solution, each of the solver's moves the only winning one with the
// opponent's replies legal, the same first-move bounds, themes and id. A
// puzzle of the theme Middlegame is proven by the deep search margin
// instead (t unused; see Deep). It returns an error wrapping ErrNotUnique
// that says what differs.
func Verify(t *endgame.Table, p *Puzzle) error { return verify(t, nil, p) }

// verify is Verify with the deep searcher d (nil: a new one when needed).
func verify(t *endgame.Table, d *Deep, p *Puzzle) error {
	fail := func(why string, args ...any) error {
		return fmt.Errorf("%w: puzzle %s (%s %s): %s", ErrNotUnique, p.ID, p.Rules.Name(),
			p.Rules.FormatPosition(p.Position), fmt.Sprintf(why, args...))
	}
	if p.ID != IDOf(p.Rules, p.Position) {
		return fail("id is not the position's")
	}
	if p.Deep() {
		if d == nil {
			d = NewDeep()
		}
		return d.verifyDeep(p, fail)
	}
	if t == nil || t.MaxSeeds() < p.Position.BoardSeeds() {
		return fail("no %s table of %d seeds", p.Rules.Name(), p.Position.BoardSeeds())
	}
	if len(p.Solution)%2 != 1 || p.SolverMoves() > MaxSolverMoves {
		return fail("a solution of %d moves", len(p.Solution))
	}
	l := &line{rules: p.Rules, pos: p.Position, seen: []engine.Position{p.Position}}
	for i, pit := range p.Solution {
		if l.over {
			return fail("the game is over before move %d", i+1)
		}
		if i%2 == 0 {
			s, ok := prove(t, l.pos, l.seen[:len(l.seen)-1])
			if !ok {
				return fail("move %d: outside the table", i+1)
			}
			w, ok := s.winner()
			if !ok || w != pit {
				return fail("move %d: %s is not the only winning move (%v)", i+1, engine.Label(pit), s.moves)
			}
			if i == 0 && !slices.Equal(s.moves, p.First) {
				return fail("first moves %v, the file says %v", s.moves, p.First)
			}
		}
		if !l.play(pit) {
			return fail("move %d: %s is not legal", i+1, engine.Label(pit))
		}
	}
	if got := themes(p.Rules, p.Position, p.Solution, EndgameWin); !slices.Equal(got, p.Themes) {
		return fail("themes %v, the file says %v", got, p.Themes)
	}
	return nil
}
