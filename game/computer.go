package game

import (
	"fmt"
	"hash/fnv"

	"oware/engine"
)

// The computer opponent: a seat held by a level of package search. Its
// replies are durable jobs in the database (replies.go), never searched
// in a request: the hook of every stored change (OnStore) and every load
// of a game (build) ask for the reply of a game where the computer is to
// move, so a restart or a crash while it thinks leaves no game stuck. The
// workers of any process on the database (the site's own, or `oware
// worker` on other machines) take the jobs and search them on their Pool
// (pool.go). The reply is stored with Move like any move: the version
// check keeps one move per ply, whichever process searched it.

// ComputerSide returns the side the computer holds in g, or engine.Nobody
// in a game between people.
func (g *Head) ComputerSide() engine.Side {
	for _, s := range []engine.Side{engine.South, engine.North} {
		if g.Seats[s].Computer != 0 {
			return s
		}
	}
	return engine.Nobody
}

// VsComputer reports whether the computer holds a seat of g.
func (g *Head) VsComputer() bool { return g.ComputerSide() != engine.Nobody }

// ComputerToMove returns the computer's side when it is its turn in g, a
// game in play; engine.Nobody otherwise.
func (g *Game) ComputerToMove() engine.Side {
	side := g.ComputerSide()
	if g.Status != Playing || side == engine.Nobody || g.Engine == nil || g.Engine.Over || g.Position.ToMove != side {
		return engine.Nobody
	}
	return side
}

// seatComputer seats the computer of set, if any, at side of the new game
// g, which then starts at once. ErrComputerClock when set has a clock.
func (g *Game) seatComputer(side engine.Side, set Settings) error {
	if set.Computer == 0 {
		return nil
	}
	if !set.Computer.Valid() {
		return fmt.Errorf("%w: level %d", ErrBadSettings, set.Computer)
	}
	if set.Clock.On() {
		return ErrComputerClock
	}
	g.Seats[side].Computer = set.Computer
	g.Status, g.Instant = Playing, set.Instant
	return nil
}

// seedOf is the seed of the computer's play in game id: each game its
// own, the same for every instance that searches it.
func seedOf(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}
