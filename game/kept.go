package game

import (
	"maps"
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"

	"oware/engine"
	"oware/models"
)

// keptGamesSize bounds the games kept by a Service: a few KB each (the
// engine's game: the moves and the positions since the last capture).
const keptGamesSize = 1024

// maxKeptVisitors bounds the visitors' seats kept with a game; past it
// they are forgotten and kept again as they are read.
const maxKeptVisitors = 8

// keptGames keeps the state of the games this instance stored or read
// last, each at its version: the next move of a game takes it as it is
// (MoveFor: nothing is read, the write checks that it is still so), and a
// read of the same version takes its engine's game instead of replaying
// the steps of the row's resume point, whose repetition checks grow with
// the moves since the last capture. A version names one state of a game
// (every write increments it), so an entry of the row's version is that
// row's game; any other version, e.g. after another instance stored a
// move, is a miss. The entries are never changed: a new one replaces
// them.
type keptGames struct {
	games *lru.Cache[string, *keptGame]
}

// keptGame is a game's state as kept: the game, which nobody changes,
// and what decided the seats of its visitors when it was last read.
type keptGame struct {
	game *Game
	// read: epochs are the seated accounts' session epochs as last read
	// (models.GameVisitor).
	read   bool
	epochs [2]int
	// seats are the token hashes of the seats kept for visitors
	// (models.GameVisitor.SeatHash, "" for none) by the hash of the
	// visitor id, as last read.
	seats map[string]string
}

func newKeptGames() keptGames {
	games, err := lru.New[string, *keptGame](keptGamesSize)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return keptGames{games: games}
}

// take gives g, just read from its row, the engine's game kept for its
// version, and reports whether there was one.
func (c keptGames) take(g *Game) bool {
	e, ok := c.games.Get(g.ID)
	if !ok {
		return false
	}
	k := e.game
	if k.Version != g.Version || k.Engine.Position != g.Position || len(k.Engine.Moves) != len(g.labels) ||
		len(k.Engine.Agreements) != len(g.agreements) {
		return false
	}
	g.Engine, g.resume, g.Last, g.Rounds = k.Engine.Clone(), k.resume, k.Last, slices.Clone(k.Rounds)
	return true
}

// keep keeps g, just stored or read, and what was read with it: gv and
// visitor (the hash of the visitor id the read asked for, "" for none)
// when read, else what was kept of the game before.
func (c keptGames) keep(g *Game, gv *models.GameVisitor, visitor string) {
	e := &keptGame{game: g.clone()}
	if old, ok := c.games.Peek(g.ID); ok {
		e.read, e.epochs, e.seats = old.read, old.epochs, old.seats
	}
	if gv != nil {
		e.read, e.epochs = true, [2]int{gv.SouthEpoch, gv.NorthEpoch}
		if visitor != "" {
			if len(e.seats) >= maxKeptVisitors {
				e.seats = nil
			}
			e.seats = maps.Clone(e.seats)
			if e.seats == nil {
				e.seats = map[string]string{}
			}
			e.seats[visitor] = gv.SeatHash
		}
	}
	c.games.Add(g.ID, e)
}

// forget drops what is kept of game id.
func (c keptGames) forget(id string) { c.games.Remove(id) }

// get returns what is kept of game id, nil for nothing.
func (c keptGames) get(id string) *keptGame {
	e, _ := c.games.Get(id)
	return e
}

// clone returns a copy of g that shares nothing with it that either may
// change.
func (g *Game) clone() *Game {
	c := *g
	c.Engine = g.Engine.Clone()
	c.Rounds = slices.Clone(g.Rounds)
	c.agreements = slices.Clone(g.agreements)
	return &c
}

// keptFor returns a private copy of the kept state of game id, the seat
// visitor v holds in it and what the move's write must check is still so
// (models.Seen); nil when nothing or not enough is kept: the game must be
// read. It never asks the database.
func (s *Service) keptFor(id string, v Visitor) (*Game, engine.Side, *models.Seen) {
	if s.outages.watch.Load() && !s.fresh() {
		return nil, engine.Nobody, nil // the clocks may have to move on first (caughtUp)
	}
	e := s.kept.get(id)
	if e == nil || e.game.Status != Playing {
		return nil, engine.Nobody, nil
	}
	seen := &models.Seen{}
	var gv models.GameVisitor
	if v.Token == "" { // a browser or an account token: the accounts decide too
		if !e.read {
			return nil, engine.Nobody, nil
		}
		gv.SouthEpoch, gv.NorthEpoch = e.epochs[0], e.epochs[1]
		if v.Account == 0 && v.ID != "" {
			hash := models.HashToken(v.ID)
			seat, ok := e.seats[hash]
			if !ok {
				return nil, engine.Nobody, nil
			}
			seen.Visitor, seen.SeatHash, gv.SeatHash = hash, seat, seat
		}
		seen.Accounts = true
		for side, st := range e.game.Seats {
			switch {
			case st.UserID == nil:
			case st.Deleted:
				seen.Epochs[side] = -1
			default:
				seen.Epochs[side] = e.epochs[side]
			}
		}
	}
	seat := e.game.seatFor(v, gv)
	if seat == engine.Nobody || e.game.botInBrowser(seat, v) {
		return nil, engine.Nobody, nil // a bot's seat in a browser: LoadSeated refuses it
	}
	return e.game.clone(), seat, seen
}
