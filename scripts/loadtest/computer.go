package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"time"

	"oware/engine"
)

// runComputer is the computer mode: -workers players each play -games
// games against the computer at -level through the API (random legal
// moves, South), for at most -duration, and it prints the time from each
// move's answer until the computer's reply shows in GET
// /api/v1/games/{id}: the reply time a player sees, without the minimum
// thinking time unless -think; and the replies per second.
func runComputer(ctx context.Context, o options) error {
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	a := &api{client: &http.Client{Timeout: 30 * time.Second}, base: o.base}
	var mu sync.Mutex
	var replies []time.Duration
	var wg sync.WaitGroup
	var firstErr error
	began := time.Now()
	for range o.workers {
		wg.Go(func() {
			for range o.games {
				got, err := playComputer(ctx, a, o)
				if ctx.Err() != nil {
					err = nil // the run is over
				}
				mu.Lock()
				replies = append(replies, got...)
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				if err != nil || ctx.Err() != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	slices.Sort(replies)
	took := time.Since(began).Seconds()
	fmt.Printf("%s, level %d, rules %s, %d players x %d games, %.0fs, minimum thinking time %v\n",
		o.base, o.level, o.rules.Name(), o.workers, o.games, took, o.think)
	fmt.Printf("computer replies: %d (%.2f/s), p50 %v, p99 %v, max %v\n", len(replies), float64(len(replies))/took,
		percentile(replies, 0.50), percentile(replies, 0.99), percentile(replies, 1))
	return firstErr
}

// playComputer plays one game against the computer and returns its reply
// times.
func playComputer(ctx context.Context, a *api, o options) ([]time.Duration, error) {
	var created struct{ ID, Token string }
	body := map[string]any{"rules": o.rules.Name(), "seat": "south",
		"opponent": map[string]any{"computer": o.level, "instant": !o.think}}
	if err := a.call(ctx, "POST", "/api/v1/games", "", body, &created, http.StatusCreated); err != nil {
		return nil, err
	}
	var st state
	var out []time.Duration
	path := "/api/v1/games/" + created.ID
	for range maxPlies {
		if err := a.call(ctx, "GET", path, "", nil, &st, http.StatusOK); err != nil {
			return out, err
		}
		if st.Status == "over" {
			return out, nil
		}
		p, err := o.rules.ParsePosition(st.Position)
		if err != nil {
			return out, err
		}
		if p.ToMove != engine.South {
			time.Sleep(2 * time.Millisecond) // the computer opens
			continue
		}
		legal := o.rules.LegalMoves(p).Pits()
		var moved struct {
			Status, Position string
			Moves            []string
		}
		if err := a.call(ctx, "POST", path+"/moves", created.Token, map[string]string{"pit": engine.Label(legal[rand.IntN(len(legal))])},
			&moved, http.StatusOK); err != nil {
			return out, err
		}
		if q, err := o.rules.ParsePosition(moved.Position); err != nil || moved.Status == "over" || q.ToMove == engine.South {
			continue // over, or the player moves again (warri)
		}
		sent, after := time.Now(), len(moved.Moves)
		for {
			var g struct {
				Status string
				Moves  []string
			}
			if err := a.call(ctx, "GET", path, "", nil, &g, http.StatusOK); err != nil {
				return out, err
			}
			if len(g.Moves) > after {
				out = append(out, time.Since(sent))
				break
			}
			if g.Status == "over" {
				return out, nil
			}
			// 10 ms by default: 20 players asking every 2 ms kept the
			// server busy with 10,000 requests a second of their own; a
			// browser waits on its event stream instead, so measuring
			// others' moves beside them wants a longer -poll.
			time.Sleep(o.poll)
		}
	}
	return out, nil
}
