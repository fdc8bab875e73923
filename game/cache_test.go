package game

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"oware/engine"
)

// TestCacheEqualsReplay plays random games of every rule set, with
// agreements in Nam-nam, and after every step rebuilds the game from its
// row twice: from the row's cache (a few steps replayed from the resume
// point) and from all its moves. The two engine games must be equal in
// every field, the repetition history included, so a game resumed from its
// cache plays on exactly as the replay would. One goroutine and no
// database: -short (CI's race step, where it took 6 CPU s against 1)
// skips it; the tests step runs it.
func TestCacheEqualsReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("one goroutine, no database: nothing for the race detector (-short)")
	}
	rng := rand.New(rand.NewPCG(10, 600))
	rules := []string{"abapa", "wari", "warri", "namnam", "namnam owner"}
	steps, resets, longest, rounds := 0, 0, 0, 0
	for n := range 50 {
		name, fours := rules[n%len(rules)], ""
		if name == "namnam owner" {
			name, fours = "namnam", "owner"
		}
		r, err := engine.NewRules(name, fours)
		if err != nil {
			t.Fatal(err)
		}
		g := newGame(r)
		g.Status = Playing
		for ply := 0; g.Status == Playing && ply < 300; ply++ {
			stepsBefore := g.resumeSteps()
			if legal := g.Engine.LegalMoves().Pits(); NamNam(r) && rng.IntN(40) == 0 || len(legal) == 0 {
				if err := g.agree(); err != nil {
					t.Fatal(err)
				}
			} else if err := g.play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
			steps++
			if g.resumeSteps() <= stepsBefore {
				resets++
			}
			longest = max(longest, g.resumeSteps())
			rounds = max(rounds, g.Engine.Round)
			checkRebuilt(t, g)
		}
	}
	// The resume point moves on: the steps to replay stay few.
	t.Logf("%d steps, %d resume points, longest replay %d steps", steps, resets, longest)
	if resets < steps/20 || longest > 200 || rounds < 3 {
		t.Errorf("%d resume points in %d steps, longest replay %d steps, %d rounds at most; want matches of 3 rounds or more",
			resets, steps, longest, rounds)
	}
}

// resumeSteps returns how many steps a rebuild of g replays after its
// resume point.
func (g *Game) resumeSteps() int {
	return len(g.Engine.Moves) - g.resume.Moves + len(g.Engine.Agreements) - g.resume.Agreed
}

// checkRebuilt rebuilds g from its row, from the cache and from the moves,
// and from the engine game an engineCache kept of it, and compares all
// three with g.
func checkRebuilt(t *testing.T, g *Game) {
	t.Helper()
	row := g.row()
	cached, err := readRow(row)
	if err != nil {
		t.Fatal(err)
	}
	replayed := *cached
	if err := cached.resumeEngine(row.Resume); err != nil {
		t.Fatalf("%s after %q: the cache does not rebuild the game: %v", g.Rules.Name(), g.labels, err)
	}
	if err := replayed.replay(g.Engine.Moves); err != nil {
		t.Fatal(err)
	}
	if err := sameState(cached, &replayed); err != nil {
		t.Fatalf("%s after %q: %v", g.Rules.Name(), g.labels, err)
	}
	if !reflect.DeepEqual(*g.Engine, *cached.Engine) || !reflect.DeepEqual(g.Rounds, cached.Rounds) {
		t.Fatalf("%s after %q: the rebuilt game differs from the game played", g.Rules.Name(), g.labels)
	}
	kept, _ := readRow(row)
	engines := newKeptGames()
	engines.keep(g, nil, "")
	if other, _ := readRow(row); func() bool { other.Version++; return engines.take(other) }() {
		t.Fatalf("%s after %q: the engine cache answers for another version", g.Rules.Name(), g.labels)
	}
	if !engines.take(kept) {
		t.Fatalf("%s after %q: the engine cache has no game of version %d", g.Rules.Name(), g.labels, g.Version)
	}
	if !reflect.DeepEqual(*kept.Engine, *replayed.Engine) || !reflect.DeepEqual(kept.Rounds, replayed.Rounds) ||
		!reflect.DeepEqual(kept.Last, replayed.Last) || kept.resume != replayed.resume {
		t.Fatalf("%s after %q: the game taken from the engine cache differs from the replay", g.Rules.Name(), g.labels)
	}
}

// TestResumeStoredBefore: a resume point is stored as the counts of the
// moves and agreements before it, whatever the steps since; one stored
// before 7 December 2026, with its steps, still rebuilds the game, and
// steps that are not the game's last are stale.
func TestResumeStoredBefore(t *testing.T) {
	r, _ := engine.NewRules("abapa", "")
	g := newGame(r)
	g.Status = Playing
	for _, pit := range []int{2, 8, 3} { // C c D: no capture
		if err := g.play(pit); err != nil {
			t.Fatal(err)
		}
	}
	const start = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S 1 S 0 "
	if got := g.row().Resume; got != start+"@0,0" {
		t.Errorf("stored resume point %q, want %q", got, start+"@0,0")
	}
	for _, c := range []struct {
		stored string
		stale  bool
	}{{start + "@0,0", false}, {start + "CcD", false}, {start + "cD", true}, {start + "CDc", true}, {start + "@4,0", true}} {
		cached, err := readRow(g.row())
		if err != nil {
			t.Fatal(err)
		}
		err = cached.resumeEngine(c.stored)
		if (err != nil) != c.stale {
			t.Errorf("resume point %q: %v, want stale %v", c.stored, err, c.stale)
		}
		if err == nil && !reflect.DeepEqual(*cached.Engine, *g.Engine) {
			t.Errorf("resume point %q rebuilds another game", c.stored)
		}
	}
}
