package game

import (
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"

	"oware/engine"
)

// engineCacheSize bounds the engine games kept by a Service: a few KB each
// (the moves and the positions since the last capture).
const engineCacheSize = 1024

// engineCache keeps the engine's game of the games this instance stored
// last, each with the version it was stored at, so the next move of a game
// takes it as it is instead of replaying the steps of the row's resume
// point, whose repetition checks grow with the moves since the last
// capture. A version names one state of a game (every write increments
// it), so an entry of the row's version is that row's game; any other
// version, e.g. after another instance stored a move, is a miss.
type engineCache struct {
	games *lru.Cache[string, cachedEngine]
}

// cachedEngine is what resumeEngine would build from a row of the version.
type cachedEngine struct {
	version int
	engine  *engine.Game
	resume  resumePoint
	last    *Step
	rounds  []RoundEnd
}

func newEngineCache() engineCache {
	games, err := lru.New[string, cachedEngine](engineCacheSize)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return engineCache{games: games}
}

// take gives g, just read from its row, the engine's game kept for its
// version, and reports whether there was one.
func (c engineCache) take(g *Game) bool {
	e, ok := c.games.Get(g.ID)
	if !ok || e.version != g.Version || e.engine.Position != g.Position || len(e.engine.Moves) != len(g.labels) ||
		len(e.engine.Agreements) != len(g.agreements) {
		return false
	}
	g.Engine, g.resume, g.Last, g.Rounds = e.engine.Clone(), e.resume, e.last, slices.Clone(e.rounds)
	return true
}

// keep remembers the engine's game of g, just stored.
func (c engineCache) keep(g *Game) {
	c.games.Add(g.ID, cachedEngine{version: g.Version, engine: g.Engine.Clone(), resume: g.resume, last: g.Last, rounds: slices.Clone(g.Rounds)})
}
