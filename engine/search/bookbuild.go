package search

import (
	"bytes"
	"context"
	"math/bits"
	"slices"

	"oware/engine"
)

// BookOptions set how BuildBook grows a book.
type BookOptions struct {
	Positions int    // positions to expand (each gets a record)
	Depth     int    // plies of the search that values each move of a position
	Seed      uint64 // seed of the searches (the same seed builds the same book)
	// DropOut is the cost of a ply, in centi-seeds, against the cost of
	// the moves on the way that are worse than the best (the expansion
	// goes first where the sum is smallest): larger makes the book wider
	// near the start, smaller deeper along the best lines.
	DropOut int
	// Progress, when not nil, is called after each expansion with the
	// number of positions so far.
	Progress func(positions int)
}

// bookNode is an expanded position of a book under construction: the
// value of each legal move, from a search of the position after it
// (leaf) until that position is expanded too.
type bookNode struct {
	pos   engine.Position
	legal engine.Moves
	leaf  [engine.NumPits]int
	value int // the best move's value, kept up to date by BuildBook
}

// BuildBook grows an Abapa opening book from the start by drop-out
// expansion (T. Lincke, "Strategies for the automatic construction of
// opening books", 2000): each step expands the position whose way from
// the start costs least (a DropOut for each ply, plus how much worse
// than the best each move on the way is), searching every move of it to
// opt.Depth; the values then go back to the start by minimax. It returns
// the book file (see Book). The searcher's tables and weights are used;
// the same searcher settings and options give the same file. ctx's end
// stops it with the book so far (the position being expanded left out).
func (s *Searcher) BuildBook(ctx context.Context, opt BookOptions) ([]byte, error) {
	o := engine.Oware{}
	nodes := map[[bookKey]byte]*bookNode{}
	start := o.Start()
	for len(nodes) < opt.Positions && ctx.Err() == nil {
		p, ok := cheapestLeaf(o, nodes, start, opt.DropOut)
		if !ok {
			break
		}
		n, err := s.expandBook(ctx, o, p, opt)
		if ctx.Err() != nil {
			break // a search cut short: leave the position out
		}
		if err != nil {
			return nil, err
		}
		nodes[bookKeyOf(&p)] = n
		revalue(o, nodes, &start, map[[bookKey]byte]bool{})
		if opt.Progress != nil {
			opt.Progress(len(nodes))
		}
	}
	keys := make([][bookKey]byte, 0, len(nodes))
	for k := range nodes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [bookKey]byte) int { return bytes.Compare(a[:], b[:]) })
	out := []byte(bookMagic)
	for _, k := range keys {
		n := nodes[k]
		var values [engine.NumPits]int
		for m := uint16(n.legal); m != 0; m &= m - 1 {
			pit := bits.TrailingZeros16(m)
			values[pit] = moveValue(o, nodes, &n.pos, pit, n.leaf[pit])
		}
		out = appendBookRecord(out, &n.pos, values, n.legal)
	}
	return out, nil
}

// expandBook searches every legal move of p.
func (s *Searcher) expandBook(ctx context.Context, o engine.Oware, p engine.Position, opt BookOptions) (*bookNode, error) {
	n := &bookNode{pos: p, legal: o.LegalMoves(p)}
	for m := uint16(n.legal); m != 0; m &= m - 1 {
		pit := bits.TrailingZeros16(m)
		c := p
		if o.Apply(&c, pit) {
			n.leaf[pit] = 100 * finalDiff(&c, p.ToMove)
			continue
		}
		res, err := s.Search(ctx, engine.NewGame(o, c), Options{Limits: Limits{Depth: opt.Depth}, Seed: opt.Seed, NoTables: s.tables == nil})
		if err != nil {
			return nil, err
		}
		n.leaf[pit] = res.Score
		if c.ToMove != p.ToMove {
			n.leaf[pit] = -res.Score
		}
	}
	return n, nil
}

// moveValue is the value of pit in p for p's mover: the expanded position
// after it, else its leaf value (also for a move that ends the game).
func moveValue(o engine.Oware, nodes map[[bookKey]byte]*bookNode, p *engine.Position, pit, leaf int) int {
	c := *p
	if o.Apply(&c, pit) {
		return leaf
	}
	child, ok := nodes[bookKeyOf(&c)]
	if !ok {
		return leaf
	}
	if c.ToMove != p.ToMove {
		return -child.value
	}
	return child.value
}

// revalue sets the value of the expanded position p and of those below it
// by minimax (seen: positions on the way, which a repetition could bring
// back) and returns it.
func revalue(o engine.Oware, nodes map[[bookKey]byte]*bookNode, p *engine.Position, seen map[[bookKey]byte]bool) int {
	k := bookKeyOf(p)
	n := nodes[k]
	if seen[k] {
		return n.value
	}
	seen[k] = true
	best := -1 << 30
	for m := uint16(n.legal); m != 0; m &= m - 1 {
		pit := bits.TrailingZeros16(m)
		c := *p
		v := n.leaf[pit]
		if !o.Apply(&c, pit) {
			if _, ok := nodes[bookKeyOf(&c)]; ok {
				v = revalue(o, nodes, &c, seen)
				if c.ToMove != p.ToMove {
					v = -v
				}
			}
		}
		best = max(best, v)
	}
	n.value = best
	return best
}

// cheapestLeaf returns the position not yet expanded whose way from start
// costs least (see BookOptions.DropOut); the start itself first. Ties go
// to the first found, pits in order: the same book every time.
func cheapestLeaf(o engine.Oware, nodes map[[bookKey]byte]*bookNode, start engine.Position, dropOut int) (engine.Position, bool) {
	if _, ok := nodes[bookKeyOf(&start)]; !ok {
		return start, true
	}
	var best engine.Position
	bestCost, found := 1<<30, false
	costs := map[[bookKey]byte]int{}
	var walk func(p *engine.Position, cost, ply int)
	walk = func(p *engine.Position, cost, ply int) {
		k := bookKeyOf(p)
		if c, ok := costs[k]; (ok && c <= cost) || cost >= bestCost || ply > 60 {
			return
		}
		costs[k] = cost
		n, expanded := nodes[k]
		if !expanded {
			best, bestCost, found = *p, cost, true
			return
		}
		for m := uint16(n.legal); m != 0; m &= m - 1 {
			pit := bits.TrailingZeros16(m)
			c := *p
			if o.Apply(&c, pit) {
				continue
			}
			walk(&c, cost+dropOut+n.value-moveValue(o, nodes, p, pit, n.leaf[pit]), ply+1)
		}
	}
	walk(&start, 0, 0)
	return best, found
}
