package engine

import (
	"fmt"
	"slices"
)

// State is what a store keeps of a game in progress to go on with it
// (Resume) without replaying every move: the current position and round,
// and the moves and agreements played before.
type State struct {
	Position   Position // the current position
	Round      int      // the current round, from 1 (Oware games have one)
	Starter    Side     // who moved first in Round
	RoundMoves int      // moves played in Round
	Moves      []int    // the pits played, in order, across all rounds
	Agreements []int    // as Game.Agreements: the moves played before each
	// RoundStarts holds the starts of the rounds after the first, up to
	// Round (Nam-nam, RULES.md 4.8): Round-1 positions.
	RoundStarts []Position
}

// Resume returns the game of rules r begun at start that stands at s. Its
// repetition history (RULES.md 2.6, 4.5) is s.Position alone, which is the
// whole history at the start of a round; in the middle of one the game
// refuses (ErrNoHistory) every move whose outcome depends on the positions
// before, until a step forgets them: a capture, the end of a round or an
// agreement. So resume from the state just before such a step, and the
// game goes on exactly as the game replayed from the start would.
//
// A state no game can reach is an error wrapping ErrBadState saying why: a
// bad position, round, starter or count of moves, a match that would have
// ended (no legal move, a round starting as an earlier one did), an
// agreement after which an Oware game would be over.
func Resume(r Rules, start Position, s State) (*Game, error) {
	_, rounds := r.(Rounds)
	if s.Round == 1 && s.RoundMoves == 0 && len(s.Moves) == 0 && len(s.Agreements) == 0 && s.Position == start {
		return NewGame(r, start), nil
	}
	if err := checkState(r, start, s, rounds); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadState, err)
	}
	g := &Game{Rules: r, Start: start, Position: s.Position, Moves: slices.Clone(s.Moves),
		Round: s.Round, Starter: s.Starter, RoundMoves: s.RoundMoves, Agreements: slices.Clone(s.Agreements),
		seen: &seenPosition{p: s.Position}, historyUnknown: s.RoundMoves > 0}
	if rounds {
		g.roundStarts = append([]Position{start}, s.RoundStarts...)
	}
	return g, nil
}

// checkState returns what makes s a state no game of r begun at start can
// be in, or nil.
func checkState(r Rules, start Position, s State, rounds bool) error {
	for _, p := range []Position{start, s.Position} {
		if q, err := r.ParsePosition(r.FormatPosition(p)); err != nil || q != p {
			return fmt.Errorf("position %s", r.FormatPosition(p))
		}
	}
	roundStart, err := checkRounds(start, s, rounds)
	if err != nil {
		return err
	}
	toMove := s.Starter
	if s.RoundMoves%2 == 1 {
		toMove = toMove.Opponent()
	}
	switch {
	case s.RoundMoves < 0 || s.RoundMoves > len(s.Moves) || s.Round == 1 && s.RoundMoves != len(s.Moves):
		return fmt.Errorf("%d moves in round %d of %d moves", s.RoundMoves, s.Round, len(s.Moves))
	case s.Starter != roundStart.ToMove || s.Position.ToMove != toMove:
		return fmt.Errorf("%s to move after %d moves of a round %s started", s.Position.ToMove, s.RoundMoves, s.Starter)
	case s.RoundMoves == 0 && s.Position != roundStart:
		return fmt.Errorf("round %d starts elsewhere", s.Round)
	case r.LegalMoves(s.Position) == 0:
		return fmt.Errorf("no legal move: the game is over")
	case !rounds && len(s.Agreements) > 0:
		return fmt.Errorf("an agreement ends an Oware game")
	}
	for _, pit := range s.Moves {
		if pit < 0 || pit >= NumPits {
			return fmt.Errorf("pit %d", pit)
		}
	}
	for i, a := range s.Agreements {
		if a < 0 || a > len(s.Moves) || i > 0 && a < s.Agreements[i-1] {
			return fmt.Errorf("agreement after move %d", a)
		}
	}
	return nil
}

// checkRounds checks the round of s and the starts of the rounds before
// it, and returns the start of the current round.
func checkRounds(start Position, s State, rounds bool) (Position, error) {
	switch {
	case s.Round < 1 || !rounds && s.Round != 1:
		return Position{}, fmt.Errorf("round %d", s.Round)
	case len(s.RoundStarts) != s.Round-1:
		return Position{}, fmt.Errorf("%d round starts for round %d", len(s.RoundStarts), s.Round)
	}
	starts := append([]Position{start}, s.RoundStarts...)
	for i, p := range starts[1:] {
		if slices.Contains(starts[:i+1], p) {
			return Position{}, fmt.Errorf("round %d starts as an earlier one", i+2)
		}
	}
	return starts[len(starts)-1], nil
}
