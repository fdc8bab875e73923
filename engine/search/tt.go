package search

import (
	"runtime"
	"sync/atomic"
)

// Bound kinds of a transposition table entry.
const (
	boundUpper uint8 = 1 // the score is at most the stored one (no move reached alpha)
	boundLower uint8 = 2 // at least (a move reached beta)
	boundExact uint8 = 3
	// proven marks a score proven by play to the end (or the endgame
	// tables) in the direction of its bound; stored only for positions
	// right after a capture, whose value the path before cannot change.
	proven uint8 = 4
)

// entry is what the transposition table keeps of a position.
type entry struct {
	key   uint64
	score int32
	depth int8
	flags uint8 // bound kind | proven
	move  int8  // best pit, -1 for none
	age   uint8
}

// data packs the entry but its key in one word: score, depth, flags,
// move and age from the low bits up.
func (e entry) data() uint64 {
	return uint64(uint32(e.score)) | uint64(uint8(e.depth))<<32 | uint64(e.flags)<<40 | uint64(uint8(e.move))<<48 | uint64(e.age)<<56
}

// unpack is the entry of a slot's words.
func unpack(check, data uint64) entry {
	return entry{key: check ^ data, score: int32(uint32(data)), depth: int8(data >> 32), flags: uint8(data >> 40), move: int8(data >> 48), age: uint8(data >> 56)}
}

// slot is one entry of the table, 16 bytes: the entry's data and its key
// XOR the data, each written atomically, so that searches of several
// threads share the table (lazy SMP) and a slot two of them wrote at once
// reads as no entry (its key does not match) rather than a wrong one.
type slot struct {
	check, data atomic.Uint64
}

func (s *slot) load() entry { return unpack(s.check.Load(), s.data.Load()) }

func (s *slot) put(e entry) {
	d := e.data()
	s.data.Store(d)
	s.check.Store(e.key ^ d)
}

// table is the transposition table: one slot per index, a new entry
// replacing one from an older search or one searched less deeply. Its
// methods are safe for concurrent use (age changes between searches only).
// Its slots may be outside the Go heap (newSlots), freed with the table:
// only its methods touch them, each keeping the table alive to its end.
type table struct {
	slots []slot
	mask  uint64
	age   uint8
}

// newTable returns a table of about mb megabytes (at least 64 KB), a power
// of two of slots.
func newTable(mb int) *table {
	n := uint64(4096)
	for n*2*16 <= uint64(max(mb, 0))<<20 {
		n *= 2
	}
	t := &table{mask: n - 1}
	t.slots = newSlots(t, n)
	return t
}

func (t *table) probe(key uint64) (entry, bool) {
	e := t.slots[key&t.mask].load()
	runtime.KeepAlive(t)
	return e, e.key == key && e.flags != 0
}

func (t *table) store(key uint64, score int32, depth int, flags uint8, move int8) {
	s := &t.slots[key&t.mask]
	if e := s.load(); e.key != key && e.age == t.age && int(e.depth) > depth {
		return
	}
	s.put(entry{key: key, score: score, depth: int8(depth), flags: flags, move: move, age: t.age})
	runtime.KeepAlive(t)
}

// storeMove keeps the best move of a position whose value holds only on
// the path searched: in its entry if there is one, else in a new entry
// (replacing as store does) whose depth of -1 no search takes a value from.
func (t *table) storeMove(key uint64, move int8) {
	s := &t.slots[key&t.mask]
	if e := s.load(); e.key == key && e.flags != 0 {
		e.move = move
		s.put(e)
		runtime.KeepAlive(t)
		return
	}
	t.store(key, 0, -1, boundUpper, move)
}

// clear empties the table (a new game).
func (t *table) clear() {
	clear(t.slots)
	runtime.KeepAlive(t)
}
