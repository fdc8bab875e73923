package game

import (
	"context"

	"oware/models"
)

// The puzzles as the handlers read them (models.Puzzle: its position,
// solution, themes and rating; a solver's rating and attempts).
type (
	Puzzle        = models.Puzzle
	PuzzlePlayer  = models.PuzzlePlayer
	PuzzleAttempt = models.PuzzleAttempt
)

// MaxPuzzleList bounds the puzzles one list returns.
const MaxPuzzleList = models.MaxPuzzleList

// ErrNoPuzzle: no puzzle has the id, or none is left to give (the storage's
// not-found, which DailyPuzzle returns too).
var ErrNoPuzzle = models.ErrNotFound

// Puzzle returns puzzle id, or ErrNoPuzzle.
func (s *Service) Puzzle(ctx context.Context, id string) (*Puzzle, error) {
	return s.db.PuzzleByID(ctx, id)
}

// Puzzles returns at most limit (1..MaxPuzzleList) puzzles of theme (""
// for any) whose number is above after, in number order.
func (s *Service) Puzzles(ctx context.Context, theme string, after, limit int) ([]Puzzle, error) {
	return s.db.Puzzles(ctx, theme, after, limit)
}

// NextPuzzle returns the first puzzle of theme ("" for any) after number
// after that player has not attempted, wrapping round; ErrNoPuzzle when
// the theme has none.
func (s *Service) NextPuzzle(ctx context.Context, player, theme string, after int) (*Puzzle, error) {
	return s.db.NextPuzzle(ctx, player, theme, after)
}

// PuzzleHistory returns player's last limit rated attempts, newest first.
func (s *Service) PuzzleHistory(ctx context.Context, player string, limit int) ([]PuzzleAttempt, error) {
	return s.db.PuzzleHistory(ctx, player, limit)
}
