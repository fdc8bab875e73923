package engine

import (
	"fmt"
	"slices"
)

// Game is a game in progress or finished: the rule set, the start position,
// the moves played and the rules that need the history (repetition,
// agreement, resignation; RULES.md 2.6), and for Nam-nam the match of rounds
// (RULES.md 4.5-4.7). The moves are the source of truth: ReplayGame rebuilds
// a Game from them.
type Game struct {
	Rules    Rules
	Start    Position
	Position Position // the current position
	Moves    []int    // the pits played, in order, across all rounds
	Over     bool
	Result   Result // when Over
	Reason   Reason // when Over
	// Round is the current round, from 1 (Oware games have one round);
	// Starter moved first in it and RoundMoves moves have been played in it.
	Round      int
	Starter    Side
	RoundMoves int
	// Agreements holds, for each agreement to end (Agree), the number of
	// moves played before it; game records write them as "=".
	Agreements []int
	// seen holds the positions since the last capture, the round's start
	// included, the latest first; an earlier position with other captures
	// can never come back. Its entries are never changed, so a Clone
	// shares them: a copy costs the same however long the history.
	seen *seenPosition
	// roundStarts holds the start of every round of a match so far, the
	// first included (RULES.md 4.8).
	roundStarts []Position
	// historyUnknown: the game was resumed in the middle of a round (Resume)
	// and seen holds only the resume point, until a step forgets the
	// history before it (a capture, the end of a round, an agreement).
	historyUnknown bool
}

// NewGame starts a game from start under rules r. The start counts as the
// first occurrence of its position for the repetition rule (RULES.md 3). An
// Oware start in which the game is already decided (25 captured, no legal
// move) is over at once.
func NewGame(r Rules, start Position) *Game {
	g := &Game{Rules: r, Start: start, Position: start, Round: 1, Starter: start.ToMove, seen: &seenPosition{p: start}}
	_, rounds := r.(Rounds)
	if rounds {
		g.roundStarts = []Position{start}
	}
	if !rounds && r.LegalMoves(start) == 0 {
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

// Clone returns a copy of g that shares nothing with it: playing on one
// never changes the other. It copies the history the repetition rules need
// (RULES.md 2.6, 4.8), so the copy goes on exactly as g would.
func (g *Game) Clone() *Game {
	c := *g
	c.Moves = slices.Clone(g.Moves)
	c.Agreements = slices.Clone(g.Agreements)
	c.roundStarts = slices.Clone(g.roundStarts)
	return &c
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

// ReplayMatch is ReplayGame with agreements: before move i (0-based) it
// applies Agree for each entry i of agreements (an entry len(moves) agrees
// after the last move). agreements must be in increasing order. each, when
// not nil, is called after every move and every agreement with the game as
// it then stands and what happened (for an agreement, what Agree returned).
func ReplayMatch(r Rules, start Position, moves, agreements []int, each func(g *Game, mv Move, agreed bool)) (*Game, error) {
	g := NewGame(r, start)
	if each == nil {
		each = func(*Game, Move, bool) {}
	}
	agree := func(ply int) error {
		for len(agreements) > 0 && agreements[0] <= ply {
			if agreements[0] < ply {
				return fmt.Errorf("agreement after move %d is out of order", agreements[0])
			}
			agreements = agreements[1:]
			mv, err := g.Agree()
			if err != nil {
				return fmt.Errorf("agreement after move %d: %w", ply, err)
			}
			each(g, mv, true)
		}
		return nil
	}
	for i, pit := range moves {
		if err := agree(i); err != nil {
			return nil, err
		}
		mv, err := g.Play(pit)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, Label(pit), err)
		}
		each(g, mv, false)
	}
	if err := agree(len(moves)); err != nil {
		return nil, err
	}
	if len(agreements) > 0 {
		return nil, fmt.Errorf("agreement after move %d: there are only %d moves", agreements[0], len(moves))
	}
	return g, nil
}

// EndedRound returns the round that mv, just played or agreed in g, ended
// (Move.RoundOver): the round before the current one, or the current one
// when the match is over.
func (g *Game) EndedRound(mv Move) int {
	if mv.Over {
		return g.Round
	}
	return g.Round - 1
}

// LegalMoves returns the pits the player to move may sow; empty when over.
func (g *Game) LegalMoves() Moves {
	if g.Over {
		return 0
	}
	return g.Rules.LegalMoves(g.Position)
}

// BetweenRounds reports whether a Nam-nam match is at the start of a round
// after the first, where the players may agree to end the match.
func (g *Game) BetweenRounds() bool {
	_, rounds := g.Rules.(Rounds)
	return rounds && !g.Over && g.Round > 1 && g.RoundMoves == 0
}

// Play plays pit for the player to move. It returns what happened, with the
// repetition rule and, in Nam-nam, the move to the next round applied; on
// error (wrapping ErrGameOver, ErrNoHistory or an error of Rules.Play) the
// game is unchanged.
func (g *Game) Play(pit int) (Move, error) {
	if g.Over {
		return Move{}, ErrGameOver
	}
	next, mv, err := g.Rules.Play(g.Position, pit)
	if err != nil {
		return Move{}, err
	}
	if g.historyUnknown && next.Captured == g.Position.Captured && !mv.Over && !mv.RoundOver {
		return Move{}, ErrNoHistory
	}
	g.historyUnknown = false
	mv.Number = g.NextNumber()
	g.Moves = append(g.Moves, pit)
	g.RoundMoves++
	if next.Captured != g.Position.Captured {
		g.seen = nil
	}
	g.Position = next
	if !mv.Over && !mv.RoundOver && g.repeated(next) {
		g.Position = g.Rules.Settle(next)
		for s := South; s <= North; s++ {
			mv.FinalCaptures[s] = int(g.Position.Captured[s] - next.Captured[s])
		}
		if _, rounds := g.Rules.(Rounds); rounds {
			mv.RoundOver, mv.RoundReason = true, ReasonRepetition
		} else {
			mv.Over, mv.Reason = true, ReasonRepetition
			mv.Result = resultByCaptures(&g.Position)
		}
	}
	g.seen = &seenPosition{p: next, before: g.seen}
	if mv.RoundOver {
		g.endRound(&mv)
	}
	g.Over, g.Result, g.Reason = mv.Over, mv.Result, mv.Reason
	return mv, nil
}

// endRound moves a Nam-nam match from the settled end of a round in
// g.Position to the next round, or ends the match: a player cannot fill a
// pit, or the next round would start as an earlier one did (RULES.md
// 4.6-4.8). When the match ends, g.Position stays the settled end.
func (g *Game) endRound(mv *Move) {
	r := g.Rules.(Rounds)
	mv.End, mv.Totals = g.Position, r.Totals(g.Position)
	next, over, result := r.NextRound(g.Position, g.Starter)
	switch {
	case over:
		mv.Over, mv.Result, mv.Reason = true, result, ReasonCannotFill
		return
	case slices.Contains(g.roundStarts, next):
		mv.Over, mv.Result, mv.Reason = true, resultByTotals(mv.Totals), ReasonMatchRepetition
		return
	}
	mv.Next = &next
	g.roundStarts = append(g.roundStarts, next)
	g.Position, g.Starter = next, next.ToMove
	g.Round, g.RoundMoves = g.Round+1, 0
	g.seen = &seenPosition{p: next}
}

// repeated reports whether p's pits, owners and player to move occurred before.
func (g *Game) repeated(p Position) bool {
	for s := g.seen; s != nil; s = s.before {
		if s.p.Pits == p.Pits && s.p.ToMove == p.ToMove && s.p.Owner == p.Owner {
			return true
		}
	}
	return false
}

// seenPosition is an entry of Game.seen: a position and the entries
// before it.
type seenPosition struct {
	p      Position
	before *seenPosition
}

// Resign ends the game (or Nam-nam match): side s loses (RULES.md 2.6, 4.7).
// The position is unchanged. Errors: ErrGameOver.
func (g *Game) Resign(s Side) error {
	if g.Over {
		return ErrGameOver
	}
	g.Over, g.Reason, g.Result = true, ReasonResignation, Winner(s.Opponent())
	return nil
}

// Agree ends the game by agreement: each player captures the seeds in their
// own pits, then more seeds wins (RULES.md 2.6). In Nam-nam it ends the
// round, and the match goes on to the next round; between rounds (see
// BetweenRounds) it ends the match, more seeds winning (RULES.md 4.5, 4.7).
// The returned Move tells what happened as Play's does. Errors: ErrGameOver.
func (g *Game) Agree() (Move, error) {
	if g.Over {
		return Move{}, ErrGameOver
	}
	g.Agreements = append(g.Agreements, len(g.Moves))
	g.historyUnknown = false
	rounds, isRounds := g.Rules.(Rounds)
	var mv Move
	switch {
	case g.BetweenRounds():
		mv.Totals = rounds.Totals(g.Position)
		mv.Over, mv.Reason = true, ReasonAgreement
		mv.Result = resultByTotals(mv.Totals)
	case isRounds:
		before := g.Position
		g.Position = g.Rules.Settle(before)
		mv.RoundOver, mv.RoundReason = true, ReasonAgreement
		for s := South; s <= North; s++ {
			mv.FinalCaptures[s] = int(g.Position.Captured[s] - before.Captured[s])
		}
		g.endRound(&mv)
	default:
		g.Position = g.Rules.Settle(g.Position)
		mv.Over, mv.Reason = true, ReasonAgreement
		mv.Result = resultByCaptures(&g.Position)
	}
	g.Over, g.Result, g.Reason = mv.Over, mv.Result, mv.Reason
	return mv, nil
}

func resultByTotals(t [2]int) Result {
	switch {
	case t[South] > t[North]:
		return SouthWins
	case t[North] > t[South]:
		return NorthWins
	}
	return Draw
}
