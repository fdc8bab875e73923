package search

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

// entry is one slot of the transposition table, 16 bytes.
type entry struct {
	key   uint64
	score int32
	depth int8
	flags uint8 // bound kind | proven
	move  int8  // best pit, -1 for none
	age   uint8
}

// table is the transposition table: one slot per index, a new entry
// replacing one from an older search or one searched less deeply.
type table struct {
	slots []entry
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
	return &table{slots: make([]entry, n), mask: n - 1}
}

func (t *table) probe(key uint64) (entry, bool) {
	e := t.slots[key&t.mask]
	return e, e.key == key && e.flags != 0
}

func (t *table) store(key uint64, score int32, depth int, flags uint8, move int8) {
	e := &t.slots[key&t.mask]
	if e.key != key && e.age == t.age && int(e.depth) > depth {
		return
	}
	*e = entry{key: key, score: score, depth: int8(depth), flags: flags, move: move, age: t.age}
}

// storeMove keeps the best move of a position whose value holds only on
// the path searched: in its entry if there is one, else in a new entry
// (replacing as store does) whose depth of -1 no search takes a value from.
func (t *table) storeMove(key uint64, move int8) {
	if e := &t.slots[key&t.mask]; e.key == key && e.flags != 0 {
		e.move = move
		return
	}
	t.store(key, 0, -1, boundUpper, move)
}

// clear empties the table (a new game).
func (t *table) clear() { clear(t.slots) }
