package endgame

import (
	"fmt"
	"math/bits"

	"oware/engine"
)

// Table is the endgame table of one rule set: the bounds of every board of
// at most MaxSeeds seeds. It is read-only and safe for concurrent use.
type Table struct {
	rules    engine.Oware
	maxSeeds int
	codes    []byte // one byte a board, in index order
	x        *indexer
	dec      *decoder
	close    func() error    // unmaps a table opened from a file
	start    engine.Position // the start position, for its owners
}

func newTable(rules engine.Oware, maxSeeds int, codes []byte) *Table {
	return &Table{rules: rules, maxSeeds: maxSeeds, codes: codes, x: newIndexer(), dec: newDecoder(), start: rules.Start()}
}

// position returns the real position of bd with South to move and no
// captures (the 25-seed end never comes, see the package documentation).
func (t *Table) position(bd *Board) engine.Position {
	p := t.start
	p.Pits = *bd
	return p
}

// Rules returns the rule set of the table.
func (t *Table) Rules() engine.Oware { return t.rules }

// MaxSeeds returns the largest number of seeds on the board the table covers.
func (t *Table) MaxSeeds() int { return t.maxSeeds }

// Boards returns the number of boards in the table: C(MaxSeeds+12, 12).
func (t *Table) Boards() uint64 { return uint64(len(t.codes)) }

// bounds returns the stored bounds of bd, which must hold at most MaxSeeds.
func (t *Table) bounds(bd *Board) bounds {
	return t.dec[bd.seeds()][t.codes[t.x.index(bd)]]
}

// Probe returns the bounds lo <= hi of the value of p for the player to
// move, in seeds: what the mover will gain from the seeds now on the board
// minus what the opponent will gain, the game played to its end as if it
// had just started from p (no earlier position counts for the repetition
// rule) and without the 25-seed end (see the package documentation). When
// lo == hi the value is exact. ok is false when p holds more seeds than the
// table covers. The captures and Owner of p are ignored.
func (t *Table) Probe(p *engine.Position) (lo, hi int, ok bool) {
	if p.BoardSeeds() > t.maxSeeds {
		return 0, 0, false
	}
	bd := boardOf(p)
	b := t.bounds(&bd)
	return int(b.lo), int(b.hi), true
}

// Verify checks every board of the table by one step of play from its
// successors: lo and hi have the parity of the seeds, lie in [-n, n] with
// lo <= hi, and are the best of the moves' bounds (a capture: the seeds
// taken plus or minus the bounds of the board it leaves; a move that keeps
// the seeds: minus the other bound of the board it leaves; the end of the
// game: its result), as the package documentation says. It returns the
// first board that fails, as an error naming its position string.
func (t *Table) Verify(progress func(done, total uint64)) error {
	x := t.x
	total := uint64(len(t.codes))
	for n := 0; n <= t.maxSeeds; n++ {
		bd := first(n)
		for r := uint64(0); r < x.levelSize(n); r++ {
			if err := t.verifyBoard(&bd, n); err != nil {
				return err
			}
			next(&bd)
		}
		if progress != nil {
			progress(x.levelStart(n+1), total)
		}
	}
	return nil
}

// verifyBoard checks one board of n seeds (see Verify).
func (t *Table) verifyBoard(bd *Board, n int) error {
	got := t.bounds(bd)
	lo, hi := int(got.lo), int(got.hi)
	p := t.position(bd)
	fail := func(why string, args ...any) error {
		return fmt.Errorf("endgame %s table: board %s: stored [%d, %d]: %s", t.rules.Name(),
			t.rules.FormatPosition(p), lo, hi, fmt.Sprintf(why, args...))
	}
	if lo > hi || lo < -n || hi > n || (lo+n)%2 != 0 || (hi+n)%2 != 0 {
		return fail("not an interval of values of %d seeds", n)
	}
	legal := t.rules.LegalMoves(p)
	wantLo, wantHi := bd.settle(), bd.settle()
	if legal != 0 {
		wantLo, wantHi = -n-1, -n-1
	}
	for m := uint16(legal); m != 0; m &= m - 1 {
		q := p
		over := t.rules.Apply(&q, bits.TrailingZeros16(m))
		taken := int(q.Captured[engine.South]) - int(q.Captured[engine.North])
		l, h := taken, taken
		if !over {
			c := boardOf(&q)
			cb := t.bounds(&c)
			if q.ToMove == engine.South {
				l, h = taken+int(cb.lo), taken+int(cb.hi)
			} else {
				l, h = taken-int(cb.hi), taken-int(cb.lo)
			}
		}
		wantLo, wantHi = max(wantLo, l), max(wantHi, h)
	}
	if lo != wantLo || hi != wantHi {
		return fail("its moves give [%d, %d]", wantLo, wantHi)
	}
	return nil
}

// Exact counts, for each number of seeds 0..MaxSeeds, the boards of the
// table and those whose bounds meet (an exact value).
func (t *Table) Exact() (boards, exact []uint64) {
	for n := 0; n <= t.maxSeeds; n++ {
		codes := t.codes[t.x.levelStart(n):t.x.levelStart(n+1)]
		var e uint64
		for _, c := range codes {
			if b := t.dec[n][c]; b.lo == b.hi {
				e++
			}
		}
		boards, exact = append(boards, uint64(len(codes))), append(exact, e)
	}
	return boards, exact
}
