package main

import (
	"strings"
	"testing"
	"time"

	"oware/engine"
	"oware/engine/search"
)

// TestGoOptions: "go" gives the player to move their own clock (wtime and
// winc for South, btime and binc for North: UCI's white and black), the
// tighter of the level's and the command's depth and time, and nodes
// alone in place of the level's time. The clock was read with the key of
// the argument after it (an evaluation order bug): South got binc as its
// time and North no clock at all.
func TestGoOptions(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	level8 := search.Level(8).Options(1)
	for _, c := range []struct {
		args   string
		toMove engine.Side
		want   search.Limits
		wait   bool
	}{
		{"wtime 60000 btime 1500 winc 1000 binc 50", engine.South, search.Limits{MoveTime: time.Second, Clock: search.Clock{Left: ms(60000), Increment: ms(1000)}}, false},
		{"wtime 60000 btime 1500 winc 1000 binc 50", engine.North, search.Limits{MoveTime: time.Second, Clock: search.Clock{Left: ms(1500), Increment: ms(50)}}, false},
		{"btime 900", engine.South, search.Limits{MoveTime: time.Second}, false},
		{"movetime 250 depth 6", engine.North, search.Limits{MoveTime: ms(250), Depth: 6}, false},
		{"movetime 5000", engine.South, search.Limits{MoveTime: time.Second}, false},
		{"nodes 20000", engine.South, search.Limits{Nodes: 20000}, false},
		{"ponder wtime 1000 btime 1000", engine.South, search.Limits{}, true},
	} {
		opt, wait := goOptions(level8, strings.Fields(c.args), c.toMove)
		if opt.Limits != c.want || wait != c.wait {
			t.Errorf("go %s, %v to move: %+v wait %v; want %+v wait %v", c.args, c.toMove, opt.Limits, wait, c.want, c.wait)
		}
	}
}
