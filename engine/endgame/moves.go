package endgame

import (
	"cmp"
	"math/bits"
	"slices"

	"oware/engine"
)

// MoveDepth is how many plies ProbeMoves plays out, along the path, the
// moves that capture nothing before it takes the table's bounds (see
// ProbeMovesFrom): each ply tightens the bounds a repetition widens, at
// six times the cost (6^MoveDepth probes a move at most).
const MoveDepth = 4

// MoveBounds is the proven outcome of one move: bounds Lo <= Hi of the
// value of the game after it, from the side of the player who made it, in
// seeds (what the mover will gain from the seeds on the board before the
// move, this move's capture included, minus what the opponent will gain;
// equal when exact). The captures made before the position are not
// counted, and the game is played to its end without the 25-seed end, as
// in the tables (see the package documentation: this never changes who
// wins).
type MoveBounds struct {
	Pit    int // the pit sown, 0..11
	Lo, Hi int
}

// ProbeMoves returns every legal move of p with its proven bounds, best
// first (by Lo, then Hi, then pit), p taken as the start of a game (it is
// the only position seen for the repetition rule, RULES.md 2.6 and 3). ok
// is false when p holds more seeds than the table covers; the list is
// empty when p has no legal move (the game is over). The captures and
// Owner of p are ignored.
func (t *Table) ProbeMoves(p *engine.Position) (moves []MoveBounds, ok bool) {
	return t.ProbeMovesFrom(p, nil)
}

// ProbeMovesFrom is ProbeMoves for p reached after the positions seen,
// oldest first: those since the last capture, which the repetition rule
// makes part of p's value (RULES.md 2.6); p itself need not be in seen.
//
// A table's bounds hold for a position met fresh, right after a capture.
// A move that captures nothing leads to a position whose history also
// holds the path to it, and a position of the path that comes back ends
// the game at once with its row difference. So such a move is played out
// to MoveDepth plies along the path, with the repetition rule, and at the
// end of each line the table's bounds of the position there, widened to
// the row difference of every earlier position of the path (the game that
// the table's strategy plays is the same but for the lines the path's
// positions cut short, which end with their row difference). The bounds
// are therefore proven, but may be wider than the table's.
func (t *Table) ProbeMovesFrom(p *engine.Position, seen []engine.Position) (moves []MoveBounds, ok bool) {
	if p.BoardSeeds() > t.maxSeeds {
		return nil, false
	}
	root := bare(p)
	path := make([]engine.Position, 0, len(seen)+MoveDepth+1)
	for i := range seen {
		if seen[i].BoardSeeds() == root.BoardSeeds() {
			path = append(path, bare(&seen[i]))
		}
	}
	path = append(path, root)
	for m := uint16(t.rules.LegalMoves(root)); m != 0; m &= m - 1 {
		pit := bits.TrailingZeros16(m)
		lo, hi := t.moveBounds(&root, pit, path, MoveDepth)
		moves = append(moves, MoveBounds{Pit: pit, Lo: lo, Hi: hi})
	}
	slices.SortFunc(moves, func(a, b MoveBounds) int {
		return cmp.Or(cmp.Compare(b.Lo, a.Lo), cmp.Compare(b.Hi, a.Hi), cmp.Compare(a.Pit, b.Pit))
	})
	return moves, true
}

// bare returns p as the tables play it: no captures, Oware's owners.
func bare(p *engine.Position) engine.Position {
	q := *p
	q.Captured = [2]uint8{}
	return q
}

// moveBounds returns the bounds of the legal move pit of p (no captures),
// reached along path (ending with p), from p's mover's side, playing out
// depth plies of moves that capture nothing.
func (t *Table) moveBounds(p *engine.Position, pit int, path []engine.Position, depth int) (lo, hi int) {
	me := p.ToMove
	q := *p
	over := t.rules.Apply(&q, pit)
	taken := int(q.Captured[me]) - int(q.Captured[me.Opponent()])
	var clo, chi int
	switch {
	case over:
		return taken, taken
	case q.Captured != [2]uint8{}:
		// A capture: q is met fresh.
		fresh := bare(&q)
		clo, chi, _ = t.Probe(&fresh)
	case onPath(path, &q):
		s := rowDiff(&q, me)
		return s, s
	default:
		clo, chi = t.pathBounds(&q, append(path, q), depth-1)
	}
	if q.ToMove == me {
		return taken + clo, taken + chi
	}
	return taken - chi, taken - clo
}

// pathBounds returns the bounds of p (no captures), reached along path
// (ending with p, every position of it of the same seeds), for p's mover.
func (t *Table) pathBounds(p *engine.Position, path []engine.Position, depth int) (lo, hi int) {
	if depth <= 0 {
		lo, hi, _ = t.Probe(p)
		for i := range path[:len(path)-1] {
			s := rowDiff(&path[i], p.ToMove)
			lo, hi = min(lo, s), max(hi, s)
		}
		return lo, hi
	}
	legal := uint16(t.rules.LegalMoves(*p))
	if legal == 0 {
		s := rowDiff(p, p.ToMove)
		return s, s
	}
	lo, hi = -engine.TotalSeeds-1, -engine.TotalSeeds-1
	for m := legal; m != 0; m &= m - 1 {
		l, h := t.moveBounds(p, bits.TrailingZeros16(m), path, depth)
		lo, hi = max(lo, l), max(hi, h)
	}
	return lo, hi
}

// rowDiff is the row difference of p for side s: the seeds of s's row
// minus those of the other (what the game ending there gives s).
func rowDiff(p *engine.Position, s engine.Side) int {
	return p.RowSeeds(s) - p.RowSeeds(s.Opponent())
}

// onPath reports whether q's pits and player to move are those of a
// position of path (the repetition of RULES.md 2.6).
func onPath(path []engine.Position, q *engine.Position) bool {
	for i := range path {
		if path[i].Pits == q.Pits && path[i].ToMove == q.ToMove {
			return true
		}
	}
	return false
}
