package game

import (
	"context"
	"errors"
	"strings"
	"time"

	"oware/engine"
	"oware/engine/search"
	"oware/game/glicko"
	"oware/models"
)

// Puzzles (engine/puzzle, loaded by content): checking a solver's moves
// against the solution, the puzzle ratings of players and puzzles, the
// streak and the daily puzzle.
//
// A puzzle is rated like Lichess rates its puzzles: a player's first
// attempt at a puzzle is a Glicko-2 game of one rating period between the
// player and the puzzle, won by the player when they found the whole
// solution, lost at their first wrong move; later attempts at the same
// puzzle change nothing. The streak counts the puzzles a player solved in
// a row at their first attempt. A player is an account (PuzzleAccount) or
// a visitor without one (PuzzleGuest): deleting an account deletes its
// puzzle rows, and a guest's go when it attempted no puzzle for the
// visitors' lifetime (the sweeper).

// PuzzleAccount is the puzzle player of account id.
func PuzzleAccount(id uint) string { return models.AccountPuzzlePlayer(id) }

// PuzzleGuest is the puzzle player of the visitor without an account whose
// session cookie holds visitor id.
func PuzzleGuest(visitor string) string { return models.GuestPuzzlePlayer(visitor) }

// PuzzleVerdict is the answer to a solver's moves.
type PuzzleVerdict struct {
	// Correct: the moves are the whole solution.
	Correct bool
	// Pending: the moves are right so far, but the solution goes on
	// (the opponent's reply is Solution[2*len(moves)-1]); nothing is
	// recorded yet.
	Pending bool
	// Wrong is the index among the solver's moves of the first wrong one,
	// -1 when none.
	Wrong int
	// Solution is the whole line (the solver's moves and the replies)
	// once an attempt that counts is over: recorded as the player's first,
	// or the player attempted the puzzle before. While Pending it is the
	// line up to the reply to the last move; for an attempt of nobody (no
	// player) nothing.
	Solution []string
	// Rated: this attempt was the player's first at the puzzle and
	// changed the ratings; Player is then the player after it.
	Rated  bool
	Player models.PuzzlePlayer
}

// SolverMoves returns the solver's moves of a solution: its even plies.
func SolverMoves(solution []string) []string {
	var out []string
	for i := 0; i < len(solution); i += 2 {
		out = append(out, solution[i])
	}
	return out
}

// judge compares the solver's moves with the solution (without rating).
func judge(solution, moves []string) PuzzleVerdict {
	v := PuzzleVerdict{Wrong: -1, Solution: solution}
	want := SolverMoves(solution)
	for i, m := range moves {
		if i >= len(want) || m != want[i] {
			v.Wrong = i
			return v
		}
	}
	v.Correct = len(moves) == len(want)
	v.Pending = !v.Correct
	return v
}

// ErrNoMoves is an attempt without moves.
var ErrNoMoves = errors.New("game: an attempt needs at least one move")

// AttemptPuzzle judges the solver's moves (labels) at puzzle p and, when
// the attempt is over (solved or wrong) and player is not "", records it
// and rates it if it is the player's first at p. Only such an attempt
// shows the solution (PuzzleVerdict.Solution): an attempt of nobody
// cannot give an account the line to submit as its first.
func (s *Service) AttemptPuzzle(ctx context.Context, player string, p *models.Puzzle, moves []string) (PuzzleVerdict, error) {
	if len(moves) == 0 {
		return PuzzleVerdict{}, ErrNoMoves
	}
	v := judge(strings.Split(p.Solution, ","), moves)
	if v.Pending {
		v.Solution = v.Solution[:2*len(moves)]
		return v, nil
	}
	if player == "" {
		v.Solution = nil
		return v, nil
	}
	pl, rated, err := s.db.RatePuzzleAttempt(ctx, player, p.ID, v.Correct, freshPuzzlePlayer(),
		func(pl models.PuzzlePlayer, pz models.Puzzle) (models.PuzzlePlayer, models.Puzzle) {
			return ratePuzzle(pl, pz, v.Correct)
		})
	if err != nil {
		return v, err
	}
	v.Rated, v.Player = rated, pl
	return v, nil
}

// freshPuzzlePlayer is a new solver's puzzle rating.
func freshPuzzlePlayer() models.PuzzlePlayer {
	n := glicko.New()
	return models.PuzzlePlayer{Rating: n.Rating, Deviation: n.Deviation, Volatility: n.Volatility}
}

// ratePuzzle returns the player and the puzzle after a rated attempt:
// one Glicko-2 game between them, and the player's streak and counts.
func ratePuzzle(pl models.PuzzlePlayer, pz models.Puzzle, solved bool) (models.PuzzlePlayer, models.Puzzle) {
	me := glicko.Rating{Rating: pl.Rating, Deviation: pl.Deviation, Volatility: pl.Volatility}
	it := glicko.Rating{Rating: pz.Rating, Deviation: pz.Deviation, Volatility: pz.Volatility}
	score := 0.0
	if solved {
		score = 1
	}
	me2 := glicko.Update(me, []glicko.Result{{Opponent: it, Score: score}}, glicko.Tau)
	it2 := glicko.Update(it, []glicko.Result{{Opponent: me, Score: 1 - score}}, glicko.Tau)
	pl.Rating, pl.Deviation, pl.Volatility = me2.Rating, me2.Deviation, me2.Volatility
	pz.Rating, pz.Deviation, pz.Volatility = it2.Rating, it2.Deviation, it2.Volatility
	pz.Plays++
	if solved {
		pl.Solved++
		pl.Streak++
		pl.BestStreak = max(pl.BestStreak, pl.Streak)
	} else {
		pl.Failed++
		pl.Streak = 0
	}
	return pl, pz
}

// PuzzlePlayer returns player's puzzle rating and streak (a new solver's
// when they have none, or when player is "").
func (s *Service) PuzzlePlayer(ctx context.Context, player string) (models.PuzzlePlayer, error) {
	if player == "" {
		return freshPuzzlePlayer(), nil
	}
	return s.db.PuzzlePlayerOf(ctx, player, freshPuzzlePlayer())
}

// dailyStep spreads the daily puzzles over the file: day d has the
// puzzle at place d*dailyStep mod the count (a prime, so that every
// puzzle comes round whatever the count that is not its multiple).
const dailyStep = 7919

// DailyPuzzle returns the puzzle of the day of t (its UTC date): the same
// for everyone, all day; ErrNotFound when there are no puzzles.
func (s *Service) DailyPuzzle(ctx context.Context, t time.Time) (*models.Puzzle, error) {
	n, err := s.db.PuzzleCount(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, ErrNotFound
	}
	day := t.UTC().Unix() / 86400
	p, err := s.db.PuzzleAt(ctx, int(day*dailyStep%int64(n)))
	return p, notFound(err)
}

// WinPlies returns the fewest plies, pit's included, within which pit
// wins by force at pos under rules (search.MoveWins within search.WinPlies
// and search.WinNodes, with the computer's endgame tables cutting lines
// short); seen are the positions since the last capture before pos. 0
// when no such win is proven within those bounds, or rules are Nam-nam's.
func (s *Service) WinPlies(ctx context.Context, rules engine.Rules, pos engine.Position, seen []engine.Position, pit int) int {
	o, ok := rules.(engine.Oware)
	if !ok {
		return 0
	}
	var tables search.Tables
	if s.pool != nil {
		tables = s.pool.Tables()
	}
	plies, ok := search.MoveWins(ctx, o, pos, seen, pit, search.WinPlies, search.WinNodes, tables)
	if !ok {
		return 0
	}
	return plies
}

// The puzzles' stored shapes, for the handlers (models' rows).
type (
	// Puzzle is a stored puzzle with its rating.
	Puzzle = models.Puzzle
	// PuzzlePlayer is a solver's rating, streak and counts.
	PuzzlePlayer = models.PuzzlePlayer
	// PuzzleAttempt is a solver's rated attempt.
	PuzzleAttempt = models.PuzzleAttempt
)

// MaxPuzzleList bounds the puzzles one list returns.
const MaxPuzzleList = models.MaxPuzzleList

// notFound turns the storage's not found into ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, models.ErrNotFound) {
		return ErrNotFound
	}
	return err
}

// Puzzles returns at most limit puzzles of theme ("" for any) after the
// number after, in their order.
func (s *Service) Puzzles(ctx context.Context, theme string, after, limit int) ([]Puzzle, error) {
	return s.db.Puzzles(ctx, theme, after, limit)
}

// PuzzleByID returns the puzzle id, or ErrNotFound.
func (s *Service) PuzzleByID(ctx context.Context, id string) (*Puzzle, error) {
	p, err := s.db.PuzzleByID(ctx, id)
	return p, notFound(err)
}

// NextPuzzle returns the first puzzle of theme ("" for any) after the
// number after that player has not attempted, wrapping round; ErrNotFound
// when none is left.
func (s *Service) NextPuzzle(ctx context.Context, player, theme string, after int) (*Puzzle, error) {
	p, err := s.db.NextPuzzle(ctx, player, theme, after)
	return p, notFound(err)
}

// PuzzleHistory returns player's last limit rated attempts, newest first.
func (s *Service) PuzzleHistory(ctx context.Context, player string, limit int) ([]PuzzleAttempt, error) {
	return s.db.PuzzleHistory(ctx, player, limit)
}
