package content

import (
	"context"
	"sync"

	"oware/engine"
	"oware/engine/search"
)

// EngineGoals are the goals of the studies' tasks as the engine finds
// them (Goals), until package tutor has the course's goal checker (issue
// 32), which replaces it. Its searches ("best") run one at a time, on one
// searcher, each bounded by bestDepth and bestNodes.
type EngineGoals struct {
	mu sync.Mutex
	s  *search.Searcher
}

// The bounds of a "best" goal's search of each move.
const (
	bestDepth  = 10
	bestNodes  = 200_000
	bestMargin = 50 // centi-seeds: moves within half a seed of the best are best
	bestHashMB = 8
)

// NewEngineGoals returns the engine's goals.
func NewEngineGoals() *EngineGoals {
	return &EngineGoals{s: search.NewSearcher(bestHashMB, nil)}
}

// Accepted returns the legal moves of pos under r that meet goal
// (GoalBest, GoalCapture with n seeds, GoalFeed, GoalSave of pit), or a
// *StudyError saying why none can.
func (g *EngineGoals) Accepted(ctx context.Context, r engine.Rules, pos engine.Position, goal string, n, pit int) (engine.Moves, error) {
	legal := r.LegalMoves(pos)
	if legal == 0 {
		return 0, &StudyError{ID: "st_err_no_move"}
	}
	mover := pos.ToMove
	var ok engine.Moves
	switch goal {
	case GoalBest:
		return g.best(ctx, r, pos)
	case GoalFeed:
		if seedsOn(pos, mover.Opponent()) > 0 {
			return 0, &StudyError{ID: "st_err_feed_not_empty"}
		}
		ok = movesWhere(r, pos, func(after engine.Position, _ engine.Move) bool { return seedsOn(after, mover.Opponent()) > 0 })
	case GoalCapture:
		ok = movesWhere(r, pos, func(_ engine.Position, mv engine.Move) bool { return captured(mv, mover) >= n })
	case GoalSave:
		if engine.RowOf(pit) != mover || pos.Pits[pit] == 0 {
			return 0, &StudyError{ID: "st_err_save_not_own", Data: []any{"Label", engine.Label(pit)}}
		}
		ok = movesWhere(r, pos, func(after engine.Position, mv engine.Move) bool {
			return !mv.Over && !capturable(r, after, pit)
		})
	}
	if ok == 0 {
		return 0, &StudyError{ID: "st_err_goal_unmet", Task: &Task{Goal: goal, N: n, Pit: labelOrNone(pit)}}
	}
	return ok, nil
}

// movesWhere returns the legal moves of pos under r whose position after
// and move meet test.
func movesWhere(r engine.Rules, pos engine.Position, test func(engine.Position, engine.Move) bool) engine.Moves {
	var ok engine.Moves
	for _, pit := range r.LegalMoves(pos).Pits() {
		after, mv, err := r.Play(pos, pit)
		if err == nil && test(after, mv) {
			ok |= 1 << pit
		}
	}
	return ok
}

// capturable reports whether a reply of the player to move in pos
// captures from pit.
func capturable(r engine.Rules, pos engine.Position, pit int) bool {
	return movesWhere(r, pos, func(_ engine.Position, mv engine.Move) bool {
		for _, c := range mv.Captures {
			if c.Pit == pit {
				return true
			}
		}
		return false
	}) != 0
}

// best returns the moves whose value by the search is within bestMargin
// of the best move's: each move is played and the position after it
// searched (the game's end valued by its captures).
func (g *EngineGoals) best(ctx context.Context, r engine.Rules, pos engine.Position) (engine.Moves, error) {
	if _, oware := r.(engine.Oware); !oware {
		return 0, &StudyError{ID: "st_err_best_namnam"}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	mover := pos.ToMove
	values := map[int]int{}
	top := -1 << 30
	for _, pit := range r.LegalMoves(pos).Pits() {
		after, mv, err := r.Play(pos, pit)
		if err != nil {
			continue
		}
		v := 100 * (int(after.Captured[mover]) - int(after.Captured[mover.Opponent()]))
		if !mv.Over {
			g.s.NewGame()
			res, err := g.s.Search(ctx, engine.NewGame(r, after), search.Options{Limits: search.Limits{Depth: bestDepth, Nodes: bestNodes}})
			if err != nil {
				return 0, err
			}
			v = res.Score
			if after.ToMove != mover {
				v = -v
			}
		}
		values[pit] = v
		top = max(top, v)
	}
	var ok engine.Moves
	for pit, v := range values {
		if v >= top-bestMargin {
			ok |= 1 << pit
		}
	}
	return ok, nil
}

// seedsOn counts the seeds on side's row.
func seedsOn(pos engine.Position, side engine.Side) int {
	n := 0
	for pit := range engine.NumPits {
		if engine.RowOf(pit) == side {
			n += int(pos.Pits[pit])
		}
	}
	return n
}

// captured counts the seeds mv captured for side.
func captured(mv engine.Move, side engine.Side) int {
	n := 0
	for _, c := range mv.Captures {
		if c.By == side {
			n += c.Seeds
		}
	}
	return n
}

// labelOrNone is pit's label, or "" for -1.
func labelOrNone(pit int) string {
	if pit < 0 {
		return ""
	}
	return engine.Label(pit)
}
