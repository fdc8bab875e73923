package game

import (
	"fmt"
	"hash/fnv"
	"time"

	"oware/engine"
	"oware/engine/search"
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
// g, which then starts at once. With a clock, the computer's runs as the
// person's does and its searches take their share of it (replyClock).
func (g *Game) seatComputer(side engine.Side, set Settings) error {
	if set.Computer == 0 {
		return nil
	}
	if !set.Computer.Valid() {
		return fmt.Errorf("%w: level %d", ErrBadSettings, set.Computer)
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

// replyMargin is the time a reply keeps on its clock for what follows its
// search: the store of its move and the notification (replyClock).
const replyMargin = 150 * time.Millisecond

// replyClock is the clock of the computer's reply in g, a game where it is
// to move, at now: the time to its deadline less replyMargin, and the
// increment; the zero search.Clock when no clock runs. In the first moves
// of real time the deadline is the first move's (FirstMove), after them
// the computer's time left; in correspondence the days of the move.
func (g *Game) replyClock(now time.Time) search.Clock {
	if !g.Clock.On() || g.Clock.Deadline.IsZero() {
		return search.Clock{}
	}
	left := max(g.Clock.Deadline.Sub(now)-replyMargin, time.Millisecond)
	return search.Clock{Left: left, Increment: time.Duration(g.Clock.Increment) * time.Second}
}
