package search

import (
	"context"

	"oware/engine"
)

// The distance of a forced win (hints, puzzles, docs/learning.md).
//
// The endgame tables prove the value of a position (bounds of the final
// capture difference), not how long the win takes: they hold no distance.
// So "wins by force in N plies" comes from a bounded search of its own:
// ForcedWin proves, by an AND/OR search deepened a ply at a time, the
// fewest plies N within which the player to move makes the game end with
// more seeds than the opponent whatever the opponent plays (25 seeds
// captured, the opponent unable to move, a grand slam that ends a Wari
// game, or a repetition that leaves them ahead: RULES.md 2.4-2.6, 3), with
// the repetition rule along the line. The tables only cut lines short:
// after a capture (the only place their value holds, their package
// documentation says why) a position whose bounds prove the player cannot
// win is not searched further. N is exact: no shorter forced win exists,
// every line of the proof ends within N plies. When the search runs out of
// its plies or nodes, nothing is proven about the distance (the tables or
// the main search may still prove the win; the hint then says so without
// a number).

// The bounds of ForcedWin as hints and puzzles use it.
const (
	// WinPlies is the longest forced win looked for, in plies.
	WinPlies = 15
	// WinNodes bounds the positions one ForcedWin visits (about 30 ms of
	// one core).
	WinNodes = 200_000
)

// ForcedWin returns the fewest plies (at most maxPlies) within which the
// player to move in pos wins by force under rules, the first move of such
// a win, and true; false when no forced win of at most maxPlies is found
// within nodes positions or before ctx ends. seen are the positions since
// the last capture before pos (the repetition rule; nil when pos starts
// the game or follows a capture). tables may be nil.
func ForcedWin(ctx context.Context, rules engine.Oware, pos engine.Position, seen []engine.Position, maxPlies int, nodes uint64, tables Tables) (pit, plies int, ok bool) {
	return forcedWin(ctx, rules, pos, seen, rules.LegalMoves(pos), maxPlies, nodes, tables)
}

// MoveWins is ForcedWin for the wins that start with pit: the fewest
// plies, pit's included, within which it wins by force.
func MoveWins(ctx context.Context, rules engine.Oware, pos engine.Position, seen []engine.Position, pit, maxPlies int, nodes uint64, tables Tables) (plies int, ok bool) {
	only := rules.LegalMoves(pos) & (1 << pit)
	_, plies, ok = forcedWin(ctx, rules, pos, seen, only, maxPlies, nodes, tables)
	return plies, ok
}

// forcedWin is ForcedWin with the first moves tried.
func forcedWin(ctx context.Context, rules engine.Oware, pos engine.Position, seen []engine.Position, first engine.Moves, maxPlies int, nodes uint64, tables Tables) (pit, plies int, ok bool) {
	w := &winSearch{ctx: ctx, rules: rules, me: pos.ToMove, left: nodes}
	if tables != nil {
		if t := tables.Table(rules); t != nil {
			w.table = t
		}
	}
	path := append(append(make([]engine.Position, 0, len(seen)+maxPlies+1), seen...), pos)
	for n := 1; n <= maxPlies; n++ {
		w.path = path
		if pit, won := w.attack(pos, first, n); won {
			return pit, n, true
		}
		if w.out {
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// winSearch is one ForcedWin.
type winSearch struct {
	ctx   context.Context
	rules engine.Oware
	table tableProbe
	me    engine.Side       // the player who is to win
	path  []engine.Position // since the last capture, the current position last
	left  uint64            // nodes left
	out   bool              // out of nodes or cancelled
}

// tableProbe is the part of an endgame table the search needs.
type tableProbe interface {
	Probe(p *engine.Position) (lo, hi int, ok bool)
}

// attack reports whether the winner, to move at p, wins within plies
// plies with one of moves, and with which.
func (w *winSearch) attack(p engine.Position, moves engine.Moves, plies int) (int, bool) {
	for _, pit := range moves.Pits() {
		if w.follows(p, pit, plies) {
			return pit, true
		}
		if w.out {
			break
		}
	}
	return 0, false
}

// defend reports whether every move of the opponent, to move at p, loses
// within plies plies.
func (w *winSearch) defend(p engine.Position, plies int) bool {
	for _, pit := range w.rules.LegalMoves(p).Pits() {
		if !w.follows(p, pit, plies) {
			return false
		}
	}
	return true
}

// follows reports whether the winner wins within plies plies after pit
// is played at p (plies counting this move).
func (w *winSearch) follows(p engine.Position, pit, plies int) bool {
	if w.left == 0 || (w.left%1024 == 0 && w.ctx.Err() != nil) {
		w.out = true
		return false
	}
	w.left--
	next, mv, err := w.rules.Play(p, pit)
	if err != nil {
		return false
	}
	captured := next.Captured != p.Captured
	if !mv.Over && !captured && w.repeats(next) {
		next = w.rules.Settle(next) // RULES.md 2.6: each takes their own row
		mv.Over = true
		mv.Result = resultOf(&next)
	}
	if mv.Over {
		return mv.Result == engine.Winner(w.me)
	}
	if plies <= 1 || w.lost(&next, captured) {
		return false
	}
	saved := w.path
	if captured {
		w.path = append(w.path[len(w.path):], next) // a fresh list: the capture made the others unreachable
	} else {
		w.path = append(w.path, next)
	}
	var won bool
	if next.ToMove == w.me {
		_, won = w.attack(next, w.rules.LegalMoves(next), plies-1)
	} else {
		won = w.defend(next, plies-1)
	}
	w.path = saved
	return won
}

// repeats reports whether q's pits and player to move occurred on the
// path since the last capture.
func (w *winSearch) repeats(q engine.Position) bool {
	for i := range w.path {
		if w.path[i].Pits == q.Pits && w.path[i].ToMove == q.ToMove {
			return true
		}
	}
	return false
}

// lost reports whether the table proves that the winner cannot win from
// q, reached by a capture (only then does the table's value hold).
func (w *winSearch) lost(q *engine.Position, captured bool) bool {
	if w.table == nil || !captured {
		return false
	}
	lo, hi, ok := w.table.Probe(q)
	if !ok {
		return false
	}
	d := int(q.Captured[w.me]) - int(q.Captured[w.me.Opponent()])
	if q.ToMove == w.me {
		return d+hi <= 0
	}
	return d-lo <= 0
}

// resultOf is the result of a finished game by its captures.
func resultOf(p *engine.Position) engine.Result {
	switch {
	case p.Captured[engine.South] > p.Captured[engine.North]:
		return engine.Winner(engine.South)
	case p.Captured[engine.North] > p.Captured[engine.South]:
		return engine.Winner(engine.North)
	}
	return engine.Draw
}
