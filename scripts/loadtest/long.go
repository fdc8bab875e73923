package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"oware/engine"
)

// bucket is the number of plies a row of the long mode's table covers.
const bucket = 50

// runLong is the long mode: games of -plies moves, one request at a time,
// timed by ply.
func runLong(ctx context.Context, o options) error {
	a := &api{client: &http.Client{Timeout: 10 * time.Second}, base: o.base, clock: o.clock}
	mv, err := newMover(o.base)
	if err != nil {
		return err
	}
	defer mv.close()
	rows := (o.plies + bucket - 1) / bucket
	lat := make([][]time.Duration, rows)
	cpu := make([]cpuSample, rows)
	m := &meter{server: o.server, database: o.pgdb}
	played := 0
	for played < o.games {
		t, err := a.newTable(ctx, o.rules)
		if err != nil {
			return err
		}
		keep := newKeeper(o.rules, o.quiet)
		var gameLat []time.Duration
		var gameCPU []cpuSample
		m.begin()
		for ply := 0; ply < o.plies && t.state.Status != "over"; ply++ {
			p, err := o.rules.ParsePosition(t.state.Position)
			if err != nil {
				return err
			}
			pit, ok := keep.choose(p)
			if !ok {
				break
			}
			d, err := mv.move(ctx, t, p, pit)
			if err != nil {
				return err
			}
			gameLat = append(gameLat, d)
			if len(gameLat)%bucket == 0 {
				gameCPU = append(gameCPU, m.since())
				m.begin()
			}
		}
		if len(gameLat) < o.plies {
			continue // the game ended early: play another
		}
		played++
		for i, d := range gameLat {
			lat[i/bucket] = append(lat[i/bucket], d)
		}
		for i, c := range gameCPU {
			cpu[i] = cpuSample{cpu[i].server + c.server, cpu[i].postgres + c.postgres, cpu[i].client + c.client}
		}
	}
	style := "random moves that do not end the game"
	if o.quiet {
		style = "moves that capture nothing when they can"
	}
	fmt.Printf("%s: %d %s games of %d moves, one request at a time, %s\n", o.base, o.games, o.rules.Name(), o.plies, style)
	fmt.Printf("%-10s %12s %12s %18s %18s\n", "plies", "latency p50", "latency p90", "server CPU/move", "postgres CPU/move")
	for i := range rows {
		d := lat[i]
		c := cpu[i].per(len(d))
		p50 := median(d)
		fmt.Printf("%4d-%-5d %12v %12v %15.0f µs %15.0f µs\n", i*bucket+1, (i+1)*bucket, p50, percentile(d, 0.9),
			float64(c.server)/1e3, float64(c.postgres)/1e3)
	}
	first, last := lat[0], lat[rows-1]
	fc, lc := cpu[0].per(len(first)), cpu[rows-1].per(len(last))
	fmt.Printf("last rows / first rows: latency p50 %.2f, server CPU %.2f\n",
		float64(median(last))/float64(median(first)), float64(lc.server)/float64(max(fc.server, 1)))
	return nil
}

// keeper chooses random moves that keep a game going: no move that ends
// it (or a Nam-nam round) and no position seen since the last capture
// when it can; when quiet, also no capture, which makes the history of
// the repetition rule (RULES.md 2.6) as long as it gets.
type keeper struct {
	r     engine.Rules
	quiet bool
	seen  map[engine.Position]bool
}

func newKeeper(r engine.Rules, quiet bool) *keeper {
	return &keeper{r: r, quiet: quiet, seen: map[engine.Position]bool{}}
}

// choose returns the move to play in p.
func (k *keeper) choose(p engine.Position) (int, bool) {
	legal := k.r.LegalMoves(p).Pits()
	if len(legal) == 0 {
		return 0, false
	}
	var quiet, going []int
	for _, pit := range legal {
		next, mv, err := k.r.Play(p, pit)
		if err != nil || mv.Over || mv.RoundOver || k.seen[key(next)] {
			continue
		}
		going = append(going, pit)
		if len(mv.Captures) == 0 {
			quiet = append(quiet, pit)
		}
	}
	pick := legal
	switch {
	case k.quiet && len(quiet) > 0:
		pick = quiet
	case len(going) > 0:
		pick = going
	}
	pit := pick[rand.IntN(len(pick))]
	next, mv, _ := k.r.Play(p, pit)
	if len(mv.Captures) > 0 || mv.RoundOver {
		clear(k.seen)
	}
	k.seen[key(next)] = true
	return pit, true
}

// key is what the repetition rule compares of a position: the pits, their
// owners and the player to move.
func key(p engine.Position) engine.Position {
	return engine.Position{Pits: p.Pits, Owner: p.Owner, ToMove: p.ToMove}
}
