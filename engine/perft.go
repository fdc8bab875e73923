package engine

import "math/bits"

// Perft counts the positions reached after exactly depth plies from p
// (RULES.md section 6), as chess programs define perft: a game that ends at
// ply k (also by a position that came back along the path, p counting as its
// first occurrence) is a leaf at depth k and is not counted at any deeper
// depth. Depth 0 counts p itself.
func (o Oware) Perft(p Position, depth int) uint64 {
	return o.perft(p, depth, true)
}

// perft counts leaves; with bulk, the last ply is counted from the legal
// moves without playing them (the same count, much faster).
func (o Oware) perft(p Position, depth int, bulk bool) uint64 {
	if depth <= 0 {
		return 1
	}
	if o.LegalMoves(p) == 0 {
		return 0
	}
	path := make([]Position, 0, depth)
	return o.perftNode(p, depth, path, bulk)
}

// perftNode counts below p, a position that is not over.
func (o Oware) perftNode(p Position, depth int, path []Position, bulk bool) uint64 {
	m := o.legal(&p)
	if depth == 1 && bulk {
		return uint64(bits.OnesCount16(uint16(m)))
	}
	path = append(path, p)
	var n uint64
	for ; m != 0; m &= m - 1 {
		q := p
		over := o.apply(&q, bits.TrailingZeros16(uint16(m)), nil)
		switch {
		case depth == 1:
			n++
		case !over && !onPath(path, &q): // a game over before depth counts nothing
			n += o.perftNode(q, depth-1, path, bulk)
		}
	}
	return n
}

// onPath reports whether q's pits and player to move occur on the path.
// Positions with other captures can never match.
func onPath(path []Position, q *Position) bool {
	for i := range path {
		a := &path[i]
		if a.Pits == q.Pits && a.Captured == q.Captured && a.ToMove == q.ToMove {
			return true
		}
	}
	return false
}
