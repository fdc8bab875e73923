package search

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"oware/engine"
)

func TestLevels(t *testing.T) {
	if _, err := ParseLevel("9"); err == nil {
		t.Error("level 9 accepted")
	}
	if _, err := ParseLevel("03"); err == nil {
		t.Error("level 03 accepted")
	}
	if l, err := ParseLevel("8"); err != nil || l.Name() != "master" || Level(1).Name() != "beginner" {
		t.Errorf("level 8: %v %v", l, err)
	}
	// Weaker levels search less deeply and with more noise; only 7 and 8
	// use the tables; level 8 is bounded by time alone.
	prev := MinLevel.Options(1)
	for l := MinLevel + 1; l <= MaxLevel; l++ {
		o := l.Options(1)
		if o.Noise >= prev.Noise || (o.Depth != 0 && o.Depth <= prev.Depth) || o.NoTables != (l < 7) {
			t.Errorf("level %d: %+v after %+v", l, o, prev)
		}
		prev = o
	}
	if o := MaxLevel.Options(1); o.Depth != 0 || o.MoveTime != time.Second {
		t.Errorf("level 8: %+v", o)
	}
}

// TestMove plays a whole game between levels 1 and 3 from the start: every
// move is legal and the game ends.
func TestMove(t *testing.T) {
	for _, rules := range []string{"abapa", "warri", "namnam"} {
		g := game(t, rules, map[bool]string{true: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0", false: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"}[rules == "namnam"])
		s := NewSearcher(4, nil)
		for ply := 0; !g.Over && ply < 300; ply++ {
			level := Level(1 + 2*(ply%2))
			pit, err := s.Move(context.Background(), g, level, uint64(ply), false)
			if err != nil {
				t.Fatalf("%s ply %d: %v", rules, ply, err)
			}
			if _, err := g.Play(pit); err != nil {
				t.Fatalf("%s ply %d: level %d chose an illegal move %s: %v", rules, ply, level, engine.Label(pit), err)
			}
		}
		if rules != "namnam" && !g.Over {
			t.Errorf("%s: not over after 300 plies", rules)
		}
		if _, err := s.Move(context.Background(), engine.NewGame(engine.Oware{}, engine.Oware{}.Start()), 9, 1, false); err == nil {
			t.Error("level 9 played")
		}
	}
	over := game(t, "abapa", "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S")
	if _, err := NewSearcher(1, nil).Move(context.Background(), over, 1, 1, false); !errors.Is(err, ErrGameOver) {
		t.Errorf("game over: %v", err)
	}
}

// TestMinThinkTime: asked to, Move takes at least MinThinkTime even for a
// forced move; asked not to, a forced move comes back at once (well under).
func TestMinThinkTime(t *testing.T) {
	g := game(t, "abapa", "0-0-0-0-0-1-0-0-0-0-0-0-23-24-S")
	s := NewSearcher(1, nil)
	start := time.Now()
	if _, err := s.Move(context.Background(), g, 1, 1, true); err != nil || time.Since(start) < MinThinkTime {
		t.Errorf("with minThink: %v after %v", err, time.Since(start))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Move(ctx, g, 8, 1, true); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestDeterministicAndVaried: the same seed and limits give the same
// move; over 40 positions, level 1's choice differs between two seeds.
func TestDeterministicAndVaried(t *testing.T) {
	s := NewSearcher(4, nil)
	differ := 0
	g := engine.NewGame(engine.Oware{}, engine.Oware{}.Start())
	for i := 0; i < 40 && !g.Over; i++ {
		a1, _ := s.Search(context.Background(), g, Level(1).Options(7))
		s.NewGame()
		a2, _ := s.Search(context.Background(), g, Level(1).Options(7))
		b, _ := s.Search(context.Background(), g, Level(1).Options(8))
		if a1.Best != a2.Best || a1.Score != a2.Score {
			t.Fatalf("position %d: seed 7 gave %v then %v", i, a1, a2)
		}
		if a1.Best != b.Best {
			differ++
		}
		d, _ := s.Search(context.Background(), g, Options{Limits: Limits{Depth: 4}})
		g.Play(d.Best)
	}
	if differ < 5 {
		t.Errorf("level 1 chose differently with another seed in %d of 40 positions", differ)
	}
}

// TestHints: the hint's move and reason in positions worked out by hand.
func TestHints(t *testing.T) {
	for _, c := range []struct {
		rules, position string
		labels          string // the moves the hint may give
		reason          Reason
		seeds           int
		why             string
	}{
		{"abapa", "2-0-0-0-0-1-1-3-0-0-0-4-24-13-S", "F", ReasonWins, 0,
			"F turns a into 2 and captures it: 26 seeds win at once"},
		{"warri", "3-2-2-1-1-3-1-2-1-0-0-0-14-18-S", "F", ReasonWins, 0,
			"the grand slam takes 7 and South, unable to feed, takes its own 9: 30 to 18"},
		{"abapa", "0-0-0-2-0-1-0-0-0-0-0-0-22-23-S", "F", ReasonOnlyFeed, 0,
			"North's row is empty; D's 2 seeds stop at F, F's seed reaches a: the only move that feeds"},
		{"abapa", "1-0-0-0-0-0-1-0-0-0-0-0-23-23-S", "A", ReasonOnlyMove, 0,
			"South's one seed is in A"},
		{"warri", "0-0-0-1-2-1-2-0-0-0-0-0-21-21-S", "EF", ReasonGrandSlam, 3,
			"E (F, a) and F (a) both turn a into 3, North's whole row: a grand slam that takes 3 under warri, and South moves again"},
		{"abapa", "0-0-0-0-3-1-2-0-0-0-0-1-20-21-S", "F", ReasonCaptures, 3,
			"F's seed turns a into 3 and captures it (f keeps it from being a grand slam); E's last seed lands in empty b and takes nothing"},
		{"abapa", "1-2-0-5-0-0-0-0-0-0-0-2-19-19-S", "AB", ReasonAvoidsLoss, 5,
			"North's f (2 seeds) would make A 2 and B 3 and take both, 5 seeds; A (making B 3, then 4) or B (emptying it) leaves f nothing to take, D does not"},
	} {
		g := game(t, c.rules, c.position)
		h, err := NewSearcher(4, nil).Hint(context.Background(), g)
		if err != nil || !strings.Contains(c.labels, h.Label) || h.Reason != c.reason || h.Seeds != c.seeds {
			t.Errorf("%s %s: hint %+v, %v; want one of %s, %s, %d: %s", c.rules, c.position, h, err, c.labels, c.reason, c.seeds, c.why)
		}
	}
}
