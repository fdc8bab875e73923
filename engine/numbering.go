package engine

import "strconv"

// MoveNumber is the one numbering of moves that game records, replays and
// the game page use. Moves are numbered in pairs counted from the first move
// of each round (of the game in Oware, of the record when it starts from a
// FEN position): the first and second moves of a round are number 1, the
// third and fourth number 2, whoever played them, so a warri extra turn or
// a round that North starts shifts no number. This is how the Aualé program
// numbers its records ("1. a B 2. c" when North starts).
type MoveNumber struct {
	Round  int  // the round, from 1 (always 1 in Oware)
	Number int  // from 1
	First  bool // the first move of its pair: records write "Number." before it
}

// NumberMove returns the number of a move of round round (from 1) that n
// earlier moves of the same round precede.
func NumberMove(round, n int) MoveNumber {
	return MoveNumber{Round: round, Number: n/2 + 1, First: n%2 == 0}
}

// String returns "7." for the first move of a pair and "7…" for the second,
// as a list of single moves shows them.
func (n MoveNumber) String() string {
	if n.First {
		return strconv.Itoa(n.Number) + "."
	}
	return strconv.Itoa(n.Number) + "…"
}

// NextNumber returns the number the next move of g will have.
func (g *Game) NextNumber() MoveNumber { return NumberMove(g.Round, g.RoundMoves) }
