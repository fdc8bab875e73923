package endgame

import (
	"testing"

	"oware/engine"
)

// TestKnownEndgames checks the tables on endgames worked out by hand, from
// RULES.md and the tutorials. Values are for the player to move: seeds
// gained from the board minus the opponent's.
func TestKnownEndgames(t *testing.T) {
	checkKnown(t, knownEndgames())
}

type knownEndgame struct {
	rules, position string
	lo, hi          int
	why             string
}

// checkKnown builds each table as far as the cases need and probes them.
func checkKnown(t *testing.T, cases []knownEndgame) {
	need := map[string]int{}
	for _, c := range cases {
		need[c.rules] = max(need[c.rules], seedsOf(t, c.rules, c.position))
	}
	tables := map[string]*Table{}
	for _, r := range allOware() {
		if n, ok := need[r.Name()]; ok {
			tab := builtTable(t, r, n)
			tables[r.Name()] = tab
		}
	}
	for _, c := range cases {
		r, _ := engine.RulesByName(c.rules)
		p, _ := r.ParsePosition(c.position)
		lo, hi, ok := tables[c.rules].Probe(&p)
		if !ok || lo != c.lo || hi != c.hi {
			t.Errorf("%s %s: table [%d, %d], want [%d, %d]: %s", c.rules, c.position, lo, hi, c.lo, c.hi, c.why)
		}
	}
}

func seedsOf(t *testing.T, rules, position string) int {
	r, err := engine.RulesByName(rules)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.ParsePosition(position)
	if err != nil {
		t.Fatal(err)
	}
	return p.BoardSeeds()
}

func knownEndgames() []knownEndgame {
	return []knownEndgame{
		{"abapa", "1-0-0-0-0-0-0-0-0-0-0-0-24-23-S", 1, 1,
			"A sows into B; North's row is empty and North has no move, so the game ends and South takes B's seed (RULES.md 2.6)"},
		{"abapa", "0-0-0-0-0-1-0-0-0-0-0-0-23-24-S", -1, -1,
			"F is forced and sows into a; South's row is then empty and a's single seed cannot reach it: North cannot feed, the game ends and North takes a (RULES.md 2.5, 2.6)"},
		{"abapa", "3-2-1-0-0-0-0-0-0-0-0-0-20-22-S", 6, 6,
			"tutorial 1, 'When nobody can move': North's row is empty and no pit of South reaches it; the game is over and South takes its 6 seeds, 26 to 22"},
		{"abapa", "0-0-0-0-0-1-1-0-0-0-0-0-23-23-S", -2, -2,
			"F makes a hold 2, all of North's row: a grand slam, which takes nothing under abapa (RULES.md 2.4); South's row is empty and a's 2 seeds reach only b and c, so North cannot feed and takes its 2"},
		{"wari", "0-0-0-0-0-1-1-0-0-0-0-0-23-23-S", 2, 2,
			"the same grand slam is South's only move, so wari allows it: South takes a's 2 and the game ends (RULES.md 3)"},
		{"warri", "0-0-0-0-0-1-1-0-0-0-0-0-23-23-S", 2, 2,
			"warri: the grand slam takes a's 2 and South moves again, but has no seed left to feed North: the game ends (RULES.md 3)"},
		{"abapa", "1-0-0-0-0-0-1-0-0-0-0-0-23-23-S", -2, 0,
			"every move is forced: the two seeds walk round the board (A, a, B, b ... F, f, and North must feed with f) until the start comes back after 12 moves; the game ends there, a seed each, value 0. The table does not follow one line of play: the row differences met on the way are 0 and, once South's row is empty, -2, and it proves only [-2, 0] (see the package documentation)"},
	}
}

// TestForcedCycleTrueValue: the brute force finds the value 0 worked out
// above for the walk of two seeds that comes back to its start.
func TestForcedCycleTrueValue(t *testing.T) {
	r := engine.Oware{}
	p, err := r.ParsePosition("1-0-0-0-0-0-1-0-0-0-0-0-23-23-S")
	if err != nil {
		t.Fatal(err)
	}
	p.Captured = [2]uint8{}
	bf := &bruteForce{rules: r, fresh: map[engine.Position]int{}, budget: 1000}
	if v, ok := bf.value(p); !ok || v != 0 {
		t.Errorf("value %d (solved %v), want 0", v, ok)
	}
}
