package endgame

import (
	"context"
	"sync"
	"testing"

	"oware/engine"
)

// built holds the tables builtTable made, for the tests of this process.
var built struct {
	sync.Mutex
	tables map[tableKey]*Table
}

type tableKey struct {
	rules    engine.Oware
	maxSeeds int
}

// builtTable returns Build's table of rules up to maxSeeds seeds, built
// once per test process: the tests that need the same table share it
// (they only probe it; the slow step's 10-seed tables took a minute each
// time).
func builtTable(t *testing.T, rules engine.Oware, maxSeeds int) *Table {
	t.Helper()
	built.Lock()
	defer built.Unlock()
	k := tableKey{rules, maxSeeds}
	if tab, ok := built.tables[k]; ok {
		return tab
	}
	tab, err := Build(context.Background(), rules, maxSeeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if built.tables == nil {
		built.tables = map[tableKey]*Table{}
	}
	built.tables[k] = tab
	return tab
}
