package search

import "oware/engine"

// keys are the Zobrist keys of a position: a random word for each count of
// each pit, for the captures of South (North's follow from the 48), the
// player to move, and for Nam-nam the owners and stores.
type keys struct {
	pit      [engine.NumPits][engine.TotalSeeds + 1]uint64
	captured [engine.TotalSeeds + 1]uint64
	north    uint64
	owner    [engine.NumPits][3]uint64
	store    [2][engine.TotalSeeds + 1]uint64
}

// splitmix64 steps a SplitMix64 generator: a fixed, well-mixed sequence.
func splitmix64(x *uint64) uint64 {
	*x += 0x9E3779B97F4A7C15
	z := *x
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func newKeys() *keys {
	k := &keys{}
	state := uint64(0x0A3A_1E5_0B17)
	for i := range k.pit {
		for c := range k.pit[i] {
			k.pit[i][c] = splitmix64(&state)
		}
		for o := range k.owner[i] {
			k.owner[i][o] = splitmix64(&state)
		}
	}
	for c := range k.captured {
		k.captured[c] = splitmix64(&state)
		k.store[0][c] = splitmix64(&state)
		k.store[1][c] = splitmix64(&state)
	}
	k.north = splitmix64(&state)
	return k
}

// board hashes what the repetition rule compares: the pits, their owners
// and the player to move (RULES.md 2.6, 4.5).
func (k *keys) board(p *engine.Position) uint64 {
	h := uint64(0)
	for i, c := range p.Pits {
		h ^= k.pit[i][c] ^ k.owner[i][p.Owner[i]&3]
	}
	if p.ToMove == engine.North {
		h ^= k.north
	}
	return h
}

// rulesKey returns a word that tells rule sets and their settings apart
// (Abapa, Wari, Warri; Nam-nam with either fours setting), mixed into the
// transposition table's keys: a position has a different value under each,
// and one searcher serves them all.
func rulesKey(r engine.Rules) uint64 {
	state := uint64(0x5EED_0F_0A3E)
	switch r := r.(type) {
	case engine.Oware:
		state += uint64(r.GrandSlam) + 1
	case engine.NamNam:
		state += 0x100 + uint64(r.Fours)
	default:
		for _, c := range r.Name() {
			state = state*31 + uint64(c)
		}
	}
	return splitmix64(&state)
}

// full hashes the whole position for the transposition table: the board,
// the captures and the stores.
func (k *keys) full(p *engine.Position, board uint64) uint64 {
	return board ^ k.captured[p.Captured[engine.South]] ^ k.store[0][p.Store[0]] ^ k.store[1][p.Store[1]]
}

// mixKey scrambles a board key (SplitMix64's finalizer), so that the XOR
// of a set of board keys does not collide as plain XORs do (a board key is
// linear in its pits' keys).
func mixKey(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
