package engine

import "fmt"

// Game is a game in progress or finished: the rule set, the start position,
// the moves played and the rules that need the history (repetition,
// agreement, resignation; RULES.md 2.6). The moves are the source of truth:
// ReplayGame rebuilds a Game from them.
type Game struct {
	Rules    Rules
	Start    Position
	Position Position // the current position
	Moves    []int    // the pits played, in order
	Over     bool
	Result   Result // when Over
	Reason   Reason // when Over
	// seen holds the positions since the last capture, the start included;
	// an earlier position with other captures can never come back.
	seen []Position
}

// NewGame starts a game from start under rules r. The start counts as the
// first occurrence of its position for the repetition rule (RULES.md 3). A
// start in which the game is already decided (25 captured, no legal move) is
// over at once.
func NewGame(r Rules, start Position) *Game {
	g := &Game{Rules: r, Start: start, Position: start, seen: []Position{start}}
	if r.LegalMoves(start) == 0 {
		g.Over = true
		switch {
		case start.Captured[South] >= WinningCaptures || start.Captured[North] >= WinningCaptures:
			g.Reason = ReasonMajority
			g.Result = resultByCaptures(&start)
		default:
			g.Position = r.Settle(start)
			g.Reason = noMoveReason(&start)
			g.Result = resultByCaptures(&g.Position)
		}
	}
	return g
}

// ReplayGame plays moves from start and returns the game. An illegal move is
// an error naming its ply (1-based) and label, wrapping the engine's error.
func ReplayGame(r Rules, start Position, moves []int) (*Game, error) {
	g := NewGame(r, start)
	for i, pit := range moves {
		if _, err := g.Play(pit); err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, Label(pit), err)
		}
	}
	return g, nil
}

// LegalMoves returns the pits the player to move may sow; empty when over.
func (g *Game) LegalMoves() Moves {
	if g.Over {
		return 0
	}
	return g.Rules.LegalMoves(g.Position)
}

// Play plays pit for the player to move. It returns what happened, with the
// repetition rule applied; on error (wrapping ErrGameOver or an error of
// Rules.Play) the game is unchanged.
func (g *Game) Play(pit int) (Move, error) {
	if g.Over {
		return Move{}, ErrGameOver
	}
	next, mv, err := g.Rules.Play(g.Position, pit)
	if err != nil {
		return Move{}, err
	}
	g.Moves = append(g.Moves, pit)
	if next.Captured != g.Position.Captured || next.Store != g.Position.Store {
		g.seen = g.seen[:0]
	}
	g.Position = next
	if !mv.Over && g.repeated(next) {
		g.Position = g.Rules.Settle(next)
		mv.Over, mv.Reason = true, ReasonRepetition
		mv.Result = resultByCaptures(&g.Position)
		for s := South; s <= North; s++ {
			mv.FinalCaptures[s] = int(g.Position.Captured[s] - next.Captured[s])
		}
	}
	g.seen = append(g.seen, next)
	g.Over, g.Result, g.Reason = mv.Over, mv.Result, mv.Reason
	return mv, nil
}

// repeated reports whether p's pits, owners and player to move occurred before.
func (g *Game) repeated(p Position) bool {
	for i := range g.seen {
		q := &g.seen[i]
		if q.Pits == p.Pits && q.ToMove == p.ToMove && q.Owner == p.Owner {
			return true
		}
	}
	return false
}

// Resign ends the game: side s loses (RULES.md 2.6). The position is
// unchanged. Errors: ErrGameOver.
func (g *Game) Resign(s Side) error {
	if g.Over {
		return ErrGameOver
	}
	g.Over, g.Reason, g.Result = true, ReasonResignation, Winner(s.Opponent())
	return nil
}

// Agree ends the game by agreement: each player captures the seeds in their
// own pits, then more seeds wins (RULES.md 2.6). Errors: ErrGameOver.
func (g *Game) Agree() error {
	if g.Over {
		return ErrGameOver
	}
	g.Position = g.Rules.Settle(g.Position)
	g.Over, g.Reason, g.Result = true, ReasonAgreement, resultByCaptures(&g.Position)
	return nil
}
