package engine

import "fmt"

// Board constants of RULES.md section 1.
const (
	NumPits         = 12 // pits 0..11, counterclockwise
	PitsPerRow      = 6
	TotalSeeds      = 48
	WinningCaptures = 25 // RULES.md 2.6: 25 or more captured wins at once
)

// Side is a player. South (player 0) owns pits 0..5 and moves first; North
// (player 1) owns pits 6..11. Nobody is only used as the owner of a pit that
// belongs to no one (Nam-nam, RULES.md 4.6).
type Side uint8

// The sides.
const (
	South  Side = 0
	North  Side = 1
	Nobody Side = 2
)

// Opponent returns the other player. It is meaningless for Nobody.
func (s Side) Opponent() Side { return s ^ 1 }

// String returns "south", "north" or "nobody", the words of the API and of
// oware-engine.
func (s Side) String() string {
	switch s {
	case South:
		return "south"
	case North:
		return "north"
	case Nobody:
		return "nobody"
	}
	return fmt.Sprintf("side(%d)", uint8(s))
}

// Letter returns the letter of s in a position string: 'S', 'N' or 'x'.
func (s Side) Letter() byte {
	switch s {
	case South:
		return 'S'
	case North:
		return 'N'
	}
	return 'x'
}

// RowStart is the first pit of side s's row: 0 for South, 6 for North.
func RowStart(s Side) int { return int(s) * PitsPerRow }

// RowOf returns the side whose row holds pit (0..11).
func RowOf(pit int) Side { return Side(pit / PitsPerRow) }

// Position is a whole game state that a position string can hold
// (RULES.md section 1 and, for Nam-nam, section 4).
//
// In Oware, Owner[i] is always RowOf(i) and Store is zero; Nam-nam uses them
// for pit ownership and the stores of leftover seeds. The zero value is not a
// valid position: take one from Rules.Start or Rules.ParsePosition.
type Position struct {
	Pits     [NumPits]uint8 // seeds in each pit
	Captured [2]uint8       // seeds captured by South and by North
	ToMove   Side           // South or North
	Owner    [NumPits]Side  // who may sow from each pit
	Store    [2]uint8       // Nam-nam stores of South and North
}

// RowSeeds returns the number of seeds in side s's row.
func (p *Position) RowSeeds(s Side) int {
	n := 0
	for _, c := range p.Pits[RowStart(s) : RowStart(s)+PitsPerRow] {
		n += int(c)
	}
	return n
}

// BoardSeeds returns the number of seeds in all twelve pits.
func (p *Position) BoardSeeds() int { return p.RowSeeds(South) + p.RowSeeds(North) }

// rowOwners returns the ownership of the first round: each row to its side.
func rowOwners() [NumPits]Side {
	var o [NumPits]Side
	for i := PitsPerRow; i < NumPits; i++ {
		o[i] = North
	}
	return o
}

// Label returns the move label of pit: "A".."F" for pits 0..5, "a".."f" for
// pits 6..11 (RULES.md section 1), or "?" for a number out of range.
func Label(pit int) string {
	switch {
	case pit >= 0 && pit < PitsPerRow:
		return string(rune('A' + pit))
	case pit >= PitsPerRow && pit < NumPits:
		return string(rune('a' + pit - PitsPerRow))
	}
	return "?"
}

// ParseLabel reads a move label, "A".."F" or "a".."f", and returns its pit
// number 0..11. Anything else is an error wrapping ErrBadLabel.
func ParseLabel(s string) (int, error) {
	if len(s) == 1 {
		switch c := s[0]; {
		case c >= 'A' && c <= 'F':
			return int(c - 'A'), nil
		case c >= 'a' && c <= 'f':
			return int(c-'a') + PitsPerRow, nil
		}
	}
	return 0, fmt.Errorf("%w: %q (want one of A-F for South's pits, a-f for North's)", ErrBadLabel, s)
}

// Moves is a set of pits, bit i standing for pit i.
type Moves uint16

// Has reports whether pit is in the set.
func (m Moves) Has(pit int) bool { return pit >= 0 && pit < NumPits && m&(1<<pit) != 0 }

// Count returns the number of pits in the set.
func (m Moves) Count() int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// Pits returns the pits of the set in increasing order.
func (m Moves) Pits() []int {
	pits := make([]int, 0, NumPits)
	for i := 0; i < NumPits; i++ {
		if m.Has(i) {
			pits = append(pits, i)
		}
	}
	return pits
}

// Labels returns the move labels of the set, pits in increasing order.
func (m Moves) Labels() []string {
	var labels []string
	for _, pit := range m.Pits() {
		labels = append(labels, Label(pit))
	}
	return labels
}
