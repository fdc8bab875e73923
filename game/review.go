package game

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"oware/engine"
	"oware/engine/search"
)

// Game review (docs/learning.md): the computer searches every position of
// a finished game or an imported record, gives each move the value it
// keeps (the capture difference in seeds expected at the end of the game,
// from the mover's side, counting the captures already made), the best
// move with its line, and marks the move by the value it lost against the
// best. The search runs in the background on the computer's pool
// (reviewer.go), at most ReviewBudget of one worker for a game.

// Mark classifies a reviewed move by the seeds it lost against the best
// move (Loss).
type Mark string

// The marks, best first.
const (
	MarkBest       Mark = "best"       // the best move, or one as good (loses less than 0.25 seed)
	MarkGood       Mark = "good"       // loses less than InaccuracyLoss
	MarkInaccuracy Mark = "inaccuracy" // loses InaccuracyLoss or more
	MarkMistake    Mark = "mistake"    // loses MistakeLoss or more
	MarkBlunder    Mark = "blunder"    // loses BlunderLoss or more
)

// The thresholds of the marks, in seeds lost (docs/learning.md says why):
// one seed is the smallest difference a game's result can turn on; three
// seeds is an ordinary capture (a pit of 2 and one of 3 is five, a single
// pit is two or three); six seeds is two good captures, an eighth of the
// seeds of a game.
const (
	BestLoss       = 0.25
	InaccuracyLoss = 1.0
	MistakeLoss    = 3.0
	BlunderLoss    = 6.0
)

// MarkOf returns the mark of a move that lost loss seeds.
func MarkOf(loss float64) Mark {
	switch {
	case loss >= BlunderLoss:
		return MarkBlunder
	case loss >= MistakeLoss:
		return MarkMistake
	case loss >= InaccuracyLoss:
		return MarkInaccuracy
	case loss >= BestLoss:
		return MarkGood
	}
	return MarkBest
}

// The cost of a review: ReviewBudget of one worker shared by its
// positions (a game of n plies has n+1), each searched at least
// MinReviewPlyTime and at most MaxReviewPlyTime; games longer than
// MaxReviewPlies are not reviewed. A 60-ply game takes about 45 s; the
// longest, 1000 plies at 45 ms, about 45 s too.
const (
	ReviewBudget     = 45 * time.Second
	MaxReviewPlyTime = 750 * time.Millisecond
	MinReviewPlyTime = 40 * time.Millisecond
	MaxReviewPlies   = 1000
)

// ReviewPlyTime is the search time of each position of a review of plies
// plies.
func ReviewPlyTime(plies int) time.Duration {
	return min(max(ReviewBudget/time.Duration(plies+1), MinReviewPlyTime), MaxReviewPlyTime)
}

// ReviewPly is the review of one move, in the shape of the review API.
type ReviewPly struct {
	Ply  int    `json:"ply"`  // 1 for the first move
	Move string `json:"move"` // its label
	// Mover is the side that played it: "south" or "north".
	Mover string `json:"mover"`
	// Value is the capture difference in seeds the move keeps, from the
	// mover's side: the final one if the game ended with it, else the
	// search's value of the position after it.
	Value float64 `json:"value"`
	// Best is the best move of the position before, BestValue its value,
	// PV the line the search expects after it (Best first).
	Best      string   `json:"best"`
	BestValue float64  `json:"best_value"`
	PV        []string `json:"pv"`
	// Exact: Value is proven (the end of the game, the endgame tables or a
	// search to the end); Result is the proven result of the move for the
	// mover ("win", "draw", "loss"), "" when not proven.
	Exact  bool   `json:"exact"`
	Result string `json:"result,omitempty"`
	// Loss is the seeds the move lost against Best (0 when it is Best), by
	// which Mark classifies it.
	Loss float64 `json:"loss"`
	Mark Mark    `json:"mark"`
	// Refutation is the line the search expects after the move (the
	// opponent's best answer first); empty when the game ended with it.
	Refutation []string `json:"refutation"`
	// Position is the position string before the move.
	Position string `json:"position"`
}

// ReviewSide sums up one player's moves in a review.
type ReviewSide struct {
	Inaccuracy  int     `json:"inaccuracy"`
	Mistake     int     `json:"mistake"`
	Blunder     int     `json:"blunder"`
	AverageLoss float64 `json:"average_loss"` // seeds lost per move, on average
}

// ReviewSummary sums up a review per player.
type ReviewSummary struct {
	South ReviewSide `json:"south"`
	North ReviewSide `json:"north"`
}

// Summarize sums up plies per player.
func Summarize(plies []ReviewPly) ReviewSummary {
	var sum ReviewSummary
	var loss [2]float64
	var moves [2]int
	for _, p := range plies {
		side, i := &sum.South, 0
		if p.Mover == engine.North.String() {
			side, i = &sum.North, 1
		}
		switch p.Mark {
		case MarkInaccuracy:
			side.Inaccuracy++
		case MarkMistake:
			side.Mistake++
		case MarkBlunder:
			side.Blunder++
		}
		loss[i] += p.Loss
		moves[i]++
	}
	if moves[0] > 0 {
		sum.South.AverageLoss = round2(loss[0] / float64(moves[0]))
	}
	if moves[1] > 0 {
		sum.North.AverageLoss = round2(loss[1] / float64(moves[1]))
	}
	return sum
}

// round2 rounds v to hundredths.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// seedsOf turns a search score (centi-seeds) into seeds.
func seedsOf(score int) float64 { return round2(float64(score) / 100) }

// searchFunc searches one position of a review.
type searchFunc func(ctx context.Context, g *engine.Game) (search.Result, error)

// ErrReviewTooLong refuses the review of a game of more than
// MaxReviewPlies plies.
var ErrReviewTooLong = errors.New("game: too many moves to review")

// reviewMoves reviews the moves of a game under r from start (agreed as
// in engine.ReplayMatch), searching each position with find, and calls
// each with every ply reviewed, from the ply after the first from ones
// (reviewed before) on. Errors: the replay's (a move that is not legal),
// find's, and each's.
func reviewMoves(ctx context.Context, r engine.Rules, start engine.Position, moves, agreed []int, from int, find searchFunc, each func(ReviewPly) error) error {
	if len(moves) > MaxReviewPlies {
		return ErrReviewTooLong
	}
	g := engine.NewGame(r, start)
	var cur *search.Result // the search of g's position, when done
	for i, pit := range moves {
		for len(agreed) > 0 && agreed[0] <= i {
			if _, err := g.Agree(); err != nil {
				return fmt.Errorf("agreement after move %d: %w", i, err)
			}
			agreed, cur = agreed[1:], nil
		}
		if i < from {
			if _, err := g.Play(pit); err != nil {
				return fmt.Errorf("move %d (%s): %w", i+1, engine.Label(pit), err)
			}
			continue
		}
		before := g.Clone()
		if cur == nil {
			res, err := find(ctx, before)
			if err != nil {
				return err
			}
			cur = &res
		}
		mv, err := g.Play(pit)
		if err != nil {
			return fmt.Errorf("move %d (%s): %w", i+1, engine.Label(pit), err)
		}
		p := ReviewPly{Ply: i + 1, Move: engine.Label(pit), Mover: mv.Mover.String(), Best: engine.Label(cur.Best),
			BestValue: seedsOf(cur.Score), PV: labels(cur.PV), Position: r.FormatPosition(before.Position), Refutation: []string{}}
		var next *search.Result
		if g.Over || g.LegalMoves() == 0 {
			p.Value, p.Exact = FinalValue(r, g.Position, mv.Mover), true
		} else {
			res, err := find(ctx, g.Clone())
			if err != nil {
				return err
			}
			next = &res
			p.Value, p.Exact, p.Refutation = seedsOf(res.Score), res.Exact, labels(res.PV)
			p.Result = provenResult(res)
			if g.Position.ToMove != mv.Mover {
				p.Value, p.Result = -p.Value, flipResult(p.Result)
			}
		}
		if p.Exact && p.Result == "" {
			p.Result = resultOfValue(p.Value)
		}
		if pit != cur.Best && before.LegalMoves().Count() > 1 {
			p.Loss = round2(max(p.BestValue-p.Value, 0))
		}
		p.Mark = MarkOf(p.Loss)
		if err := each(p); err != nil {
			return err
		}
		cur = next
	}
	return nil
}

// labels are the labels of pits.
func labels(pits []int) []string {
	out := make([]string, len(pits))
	for i, p := range pits {
		out[i] = engine.Label(p)
	}
	return out
}

// finalValue is the capture difference of the finished game at p from
// side's view (the totals of a Nam-nam match).
func FinalValue(r engine.Rules, p engine.Position, side engine.Side) float64 {
	if rounds, ok := r.(engine.Rounds); ok {
		t := rounds.Totals(p)
		return float64(t[side] - t[side.Opponent()])
	}
	return float64(int(p.Captured[side]) - int(p.Captured[side.Opponent()]))
}

// provenResult is the result res proves for the player to move, or "".
func provenResult(res search.Result) string {
	if res.Exact {
		return resultOfValue(seedsOf(res.Score))
	}
	return res.Proven
}

// resultOfValue is the result a proven value gives.
func resultOfValue(v float64) string {
	switch {
	case v > 0:
		return "win"
	case v < 0:
		return "loss"
	}
	return "draw"
}

// flipResult is the result for the other player.
func flipResult(r string) string {
	switch r {
	case "win":
		return "loss"
	case "loss":
		return "win"
	}
	return r
}
