package endgame

import (
	"context"
	"fmt"
	"math/bits"

	"oware/engine"
)

// Progress tells how a build is going. Done and Total count boards; the
// levels (boards of 0, 1, 2 ... seeds) are built in order, each in three
// steps: its moves, then rounds of the repetition bound, then rounds of the
// forced lines (see the package documentation).
type Progress struct {
	Rules    string // "abapa", "wari" or "warri"
	MaxSeeds int
	Seeds    int    // the level being built
	Step     string // "moves", "repetition" or "forced", or "done" at the end of a level
	Round    int    // round of the step, from 1
	Pending  uint64 // boards to look at again in this round
	Done     uint64 // boards of the finished levels (with this one at "done")
	Total    uint64 // boards of the whole table
}

// Build computes the table of rules for every board of at most maxSeeds
// seeds (0..MaxSeedsLimit), in the calling goroutine: one core. progress,
// when not nil, is called at each step and round of each level. It returns
// ctx's error when ctx ends first.
func Build(ctx context.Context, rules engine.Oware, maxSeeds int, progress func(Progress)) (*Table, error) {
	if maxSeeds < 0 || maxSeeds > MaxSeedsLimit {
		return nil, fmt.Errorf("endgame: %d seeds: want 0..%d", maxSeeds, MaxSeedsLimit)
	}
	t := newTable(rules, maxSeeds, nil)
	t.codes = make([]byte, t.x.levelStart(maxSeeds+1))
	b := &builder{t: t, rules: rules, progress: progress}
	for n := 0; n <= maxSeeds; n++ {
		if err := b.level(ctx, n); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// builder builds one table level by level; a level only looks down into
// finished levels (a capture leaves fewer seeds) and across to its own.
type builder struct {
	t        *Table
	rules    engine.Oware
	progress func(Progress)
	// The current level: its number of seeds and, per board rank, the best
	// value of a move that leaves the level (capture or end of the game) for
	// each bound, then the two fixpoints of the level.
	n              int
	exitLo, exitHi []int8
	repLo, repHi   []int8 // repetition bounds (safety fixpoint)
	lo, hi         []int8 // the bounds (forced lines over the safety bounds)
}

// noExit marks a board whose every move stays in the level.
const noExit = -128

func (b *builder) report(step string, round int, pending uint64) {
	if b.progress == nil {
		return
	}
	x := b.t.x
	done := x.levelStart(b.n)
	if step == "done" {
		done = x.levelStart(b.n + 1)
	}
	b.progress(Progress{Rules: b.rules.Name(), MaxSeeds: b.t.maxSeeds, Seeds: b.n, Step: step,
		Round: round, Pending: pending, Done: done, Total: x.levelStart(b.t.maxSeeds + 1)})
}

// level builds the boards of n seeds.
func (b *builder) level(ctx context.Context, n int) error {
	x := b.t.x
	size := x.levelSize(n)
	b.n = n
	b.exitLo, b.exitHi = make([]int8, size), make([]int8, size)
	b.repLo, b.repHi = make([]int8, size), make([]int8, size)
	b.lo, b.hi = make([]int8, size), make([]int8, size)
	b.report("moves", 1, size)
	bd := first(n)
	for r := uint64(0); r < size; r++ {
		if r&0xFFFFF == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		b.exitLo[r], b.exitHi[r] = b.exits(&bd)
		s := int8(bd.settle())
		b.repLo[r], b.repHi[r] = s, s
		next(&bd)
	}
	if err := b.relax(ctx, "repetition", b.repetitionStep); err != nil {
		return err
	}
	copy(b.lo, b.repLo)
	copy(b.hi, b.repHi)
	if err := b.relax(ctx, "forced", b.forcedStep); err != nil {
		return err
	}
	codes := b.t.codes[x.levelStart(n):]
	for r := range size {
		codes[r] = encode(int(b.lo[r]), int(b.hi[r]), n)
	}
	b.report("done", 0, 0)
	return nil
}

// exits returns the best lower and upper bound of the moves of bd that leave
// its level: a capture (the seeds taken plus or minus the bounds of the
// board it leaves, from the finished levels) or the end of the game. A board
// where the mover has no legal move is an end: each side takes its row.
func (b *builder) exits(bd *Board) (lo, hi int8) {
	p := b.t.position(bd)
	legal := b.rules.LegalMoves(p)
	if legal == 0 {
		s := int8(bd.settle())
		return s, s
	}
	lo, hi = noExit, noExit
	for m := uint16(legal); m != 0; m &= m - 1 {
		q := p
		over := b.rules.Apply(&q, bits.TrailingZeros16(m))
		taken := int(q.Captured[engine.South]) - int(q.Captured[engine.North])
		var l, h int
		switch {
		case over:
			l, h = taken, taken
		case taken != 0:
			c := boardOf(&q)
			cb := b.t.bounds(&c)
			if q.ToMove == engine.South { // warri: the mover plays again
				l, h = taken+int(cb.lo), taken+int(cb.hi)
			} else {
				l, h = taken-int(cb.hi), taken-int(cb.lo)
			}
		default:
			continue
		}
		lo, hi = max(lo, int8(l)), max(hi, int8(h))
	}
	return lo, hi
}

// children appends the ranks of the boards that the moves of bd reach
// without leaving the level (no capture, no end).
func (b *builder) children(bd *Board, kids []uint32) []uint32 {
	p := b.t.position(bd)
	for m := uint16(b.rules.LegalMoves(p)); m != 0; m &= m - 1 {
		q := p
		if b.rules.Apply(&q, bits.TrailingZeros16(m)) || q.Captured != [2]uint8{} {
			continue
		}
		c := boardOf(&q)
		kids = append(kids, uint32(b.t.x.rank(&c, b.n)))
	}
	return kids
}

// parents calls fn with the rank of every board of the level that has a
// move to bd without leaving the level. It undoes a sowing from each empty
// pit of the opponent's row (the pit a move starts from is empty after it)
// for each number of seeds, and keeps the candidates whose move the engine
// plays back to bd.
func (b *builder) parents(bd *Board, fn func(r uint64)) {
	for from := engine.PitsPerRow; from < engine.NumPits; from++ {
		if bd[from] != 0 {
			continue
		}
		par, to := *bd, from
		for {
			if to = (to + 1) % engine.NumPits; to == from {
				to = (to + 1) % engine.NumPits
			}
			if par[to] == 0 {
				break
			}
			par[to]--
			par[from]++
			cand := par.turned()
			p := b.t.position(&cand)
			pit := from - engine.PitsPerRow
			if !b.rules.LegalMoves(p).Has(pit) {
				continue
			}
			if b.rules.Apply(&p, pit) || p.Captured != [2]uint8{} || boardOf(&p) != *bd {
				continue
			}
			fn(b.t.x.rank(&cand, b.n))
		}
	}
}

// repetitionStep recomputes the repetition bounds of board r from its
// children. repLo is the most the mover can keep the row difference at,
// for as long as the seeds circle without a capture, unless a move out of
// the level does better; repHi is the least the opponent can hold the
// mover to in the same way (a greatest fixpoint: both start at the board's
// own row difference and only move away from the mover's favour).
func (b *builder) repetitionStep(r uint64, bd *Board, kids []uint32) bool {
	lo, hi := int(b.exitLo[r]), int(b.exitHi[r])
	for _, c := range kids {
		lo, hi = max(lo, -int(b.repHi[c])), max(hi, -int(b.repLo[c]))
	}
	s := bd.settle()
	nl, nh := int8(min(s, lo)), int8(max(s, hi))
	if nl == b.repLo[r] && nh == b.repHi[r] {
		return false
	}
	b.repLo[r], b.repHi[r] = nl, nh
	return true
}

// forcedStep recomputes the bounds of board r from its children: the best
// move out of the level, the best move to a child whose bound is settled,
// or the repetition bound (a least fixpoint: lo only rises, hi only falls).
func (b *builder) forcedStep(r uint64, _ *Board, kids []uint32) bool {
	lo, hi := int(b.exitLo[r]), int(b.exitHi[r])
	for _, c := range kids {
		lo, hi = max(lo, -int(b.hi[c])), max(hi, -int(b.lo[c]))
	}
	nl, nh := int8(max(int(b.repLo[r]), lo)), int8(min(int(b.repHi[r]), hi))
	if nl == b.lo[r] && nh == b.hi[r] {
		return false
	}
	b.lo[r], b.hi[r] = nl, nh
	return true
}

// relax applies step to every board of the level, then again to the parents
// of every board that step changed, until nothing changes. The boards wait
// in two bit sets: a parent after the board at hand in this round's set, an
// earlier one in the next round's.
func (b *builder) relax(ctx context.Context, name string, step func(r uint64, bd *Board, kids []uint32) bool) error {
	size := b.t.x.levelSize(b.n)
	words := (size + 63) / 64
	now, later := make([]uint64, words), make([]uint64, words)
	for i := range now {
		now[i] = ^uint64(0)
	}
	if size%64 != 0 {
		now[words-1] = 1<<(size%64) - 1
	}
	kids := make([]uint32, 0, engine.PitsPerRow)
	var cur uint64
	// bd is the board of rank cur; the next rank is one step of next away.
	bd, bdRank := first(b.n), uint64(0)
	mark := func(p uint64) {
		if p > cur {
			now[p/64] |= 1 << (p % 64)
		} else {
			later[p/64] |= 1 << (p % 64)
		}
	}
	for round := 1; ; round++ {
		pending := uint64(0)
		for _, w := range now {
			pending += uint64(bits.OnesCount64(w))
		}
		if pending == 0 {
			return nil
		}
		b.report(name, round, pending)
		seen := 0
		for w := range now {
			for now[w] != 0 {
				bit := bits.TrailingZeros64(now[w])
				now[w] &^= 1 << bit
				cur = uint64(w)*64 + uint64(bit)
				if seen++; seen&0xFFFFF == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				if cur == bdRank+1 {
					next(&bd)
				} else if cur != bdRank {
					bd = b.t.x.unrank(cur, b.n)
				}
				bdRank = cur
				if step(cur, &bd, b.children(&bd, kids[:0])) {
					b.parents(&bd, mark)
				}
			}
		}
		now, later = later, now
	}
}
