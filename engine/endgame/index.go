package endgame

import "oware/engine"

// MaxSeedsLimit is the largest number of seeds on the board a table may
// cover: the two bounds of a board of n seeds fit in one byte while
// (n+1)(n+2)/2 <= 256 (see code), and the builder plays from no captures,
// which keeps the 25-seed end out of the way.
const MaxSeedsLimit = 21

// Board is a position of the tables: the twelve pits with the player to
// move normalized to own pits 0..5 (the real board turned round when North
// is to move). Captures are not part of it.
type Board [engine.NumPits]uint8

// indexer ranks boards: all boards with fewer seeds first, then the boards
// of n seeds in lexicographic order of the pits (pit 0 most significant).
type indexer struct {
	// binom[n][k] is C(n, k) for n <= MaxSeedsLimit+12, k <= 12.
	binom [MaxSeedsLimit + engine.NumPits + 1][engine.NumPits + 1]uint64
	// below[i][left][a] counts the boards that agree with a board before
	// pit i, where left seeds remain for pits i..11, and hold fewer than a
	// seeds in pit i: C(left+k, k) - C(left-a+k, k) with k = 11-i (the
	// hockey-stick identity).
	below [engine.NumPits - 1][MaxSeedsLimit + 1][MaxSeedsLimit + 2]uint64
}

func newIndexer() *indexer {
	x := &indexer{}
	for n := range x.binom {
		x.binom[n][0] = 1
		for k := 1; k <= engine.NumPits && k <= n; k++ {
			x.binom[n][k] = x.binom[n-1][k-1] + x.binom[n-1][k]
		}
	}
	for i := range x.below {
		k := engine.NumPits - 1 - i
		for left := 0; left <= MaxSeedsLimit; left++ {
			for a := 0; a <= left+1; a++ {
				x.below[i][left][a] = x.binom[left+k][k] - x.binom[max(left-a+k, 0)][k]
			}
		}
	}
	return x
}

// levelStart is the index of the first board of n seeds: the number of
// boards with fewer, C(n+11, 12).
func (x *indexer) levelStart(n int) uint64 { return x.binom[n+engine.NumPits-1][engine.NumPits] }

// levelSize is the number of boards of n seeds, C(n+11, 11).
func (x *indexer) levelSize(n int) uint64 {
	return x.binom[n+engine.NumPits-1][engine.NumPits-1]
}

// rank returns the index of b, which holds n seeds, within its level.
func (x *indexer) rank(b *Board, n int) uint64 {
	var r uint64
	left := n
	for i := 0; i < engine.NumPits-1; i++ {
		r += x.below[i][left][b[i]]
		left -= int(b[i])
	}
	return r
}

// index returns the index of b in a table.
func (x *indexer) index(b *Board) uint64 {
	n := 0
	for _, c := range b {
		n += int(c)
	}
	return x.levelStart(n) + x.rank(b, n)
}

// first returns the first board of n seeds: all of them in pit 11.
func first(n int) Board {
	var b Board
	b[engine.NumPits-1] = uint8(n)
	return b
}

// next steps b to the following board of its level and reports false after
// the last one. The next board raises the last pit before pit 11 that has
// seeds after it and puts every remaining seed in pit 11.
func next(b *Board) bool {
	rest := int(b[engine.NumPits-1])
	for i := engine.NumPits - 2; i >= 0; i-- {
		if rest > 0 {
			b[i]++
			b[engine.NumPits-1] = uint8(rest - 1)
			return true
		}
		rest += int(b[i])
		b[i] = 0
	}
	return false
}

// boardOf returns the table board of p: p's pits turned round so that the
// player to move owns pits 0..5.
func boardOf(p *engine.Position) Board {
	b := Board(p.Pits)
	if p.ToMove == engine.North {
		return b.turned()
	}
	return b
}

// unrank returns the board of n seeds whose rank in its level is r
// (r < levelSize(n)); the inverse of rank.
func (x *indexer) unrank(r uint64, n int) Board {
	var b Board
	left := n
	for i := 0; i < engine.NumPits-1; i++ {
		below := &x.below[i][left]
		a := 0
		for a < left && below[a+1] <= r {
			a++
		}
		r -= below[a]
		b[i] = uint8(a)
		left -= a
	}
	b[engine.NumPits-1] = uint8(left)
	return b
}

// seeds returns the number of seeds on b.
func (b *Board) seeds() int {
	n := 0
	for _, c := range b {
		n += int(c)
	}
	return n
}

// settle is the row difference of b for the player to move: what the
// mover gains minus what the opponent gains if the game ended now (RULES.md
// 2.6: each player captures the seeds on their own row).
func (b *Board) settle() int {
	d := 0
	for i := 0; i < engine.PitsPerRow; i++ {
		d += int(b[i]) - int(b[i+engine.PitsPerRow])
	}
	return d
}

// turned returns b seen from the other player: the rows swapped.
func (b *Board) turned() Board {
	return Board{b[6], b[7], b[8], b[9], b[10], b[11], b[0], b[1], b[2], b[3], b[4], b[5]}
}
