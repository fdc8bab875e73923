// Command loadtest plays games against a running oware server through its
// JSON API and reports the throughput and latency of move requests.
//
//	go run ./scripts/loadtest -url http://127.0.0.1:8080 -workers 8 -duration 10s
//
// Each worker creates a game (POST /api/v1/games), takes the other seat
// (POST /api/v1/games/{id}/join) and plays random legal moves, chosen with
// package engine from the game's position, for both seats (POST
// /api/v1/games/{id}/moves) until the game ends; then it starts another.
// It stops after -duration or -max-moves moves, whichever comes first, and
// only talks to loopback addresses.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"oware/engine"
)

const maxPlies = 400 // a game longer than this is abandoned

// state is the API's view of a game.
type state struct {
	ID       string   `json:"id"`
	Rules    string   `json:"rules"`
	Status   string   `json:"status"`
	Position string   `json:"position"`
	Moves    []string `json:"moves"`
}

// stats is what one worker measured.
type stats struct {
	moves    []time.Duration // latency of each successful move request
	requests int             // every request, moves included
	games    int             // games started
	finished int             // games played to their end
	errors   map[string]int  // failed requests by method, path kind and status
}

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "server URL (loopback only)")
	workers := flag.Int("workers", 8, "concurrent players (1..256)")
	duration := flag.Duration("duration", 10*time.Second, "how long to run (at most 5m)")
	maxMoves := flag.Int64("max-moves", 1_000_000, "stop after this many move requests")
	rules := flag.String("rules", "abapa", "rule set of the games: abapa, wari or warri")
	flag.Parse()

	u, err := url.Parse(*base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		fail("-url %q: want an http:// URL", *base)
	}
	if !loopback(u.Hostname()) {
		fail("-url %q: only loopback hosts (localhost, 127.0.0.0/8, ::1) may be load tested", *base)
	}
	if *workers < 1 || *workers > 256 || *duration <= 0 || *duration > 5*time.Minute || *maxMoves < 1 {
		fail("-workers must be 1..256, -duration 0..5m, -max-moves positive")
	}
	r, err := engine.RulesByName(*rules)
	if err != nil {
		fail("%v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *duration)
	defer cancel()

	client := &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: *workers},
	}
	var budget atomic.Int64
	budget.Store(*maxMoves)
	all := make([]stats, *workers)
	var wg sync.WaitGroup
	began := time.Now()
	for i := range all {
		w := &worker{client: client, base: u.String(), rules: r, budget: &budget, st: &all[i]}
		wg.Go(func() { w.run(ctx) })
	}
	wg.Wait()
	elapsed := time.Since(began)

	var total stats
	total.errors = map[string]int{}
	for _, s := range all {
		total.moves = append(total.moves, s.moves...)
		total.requests += s.requests
		total.games += s.games
		total.finished += s.finished
		for k, n := range s.errors {
			total.errors[k] += n
		}
	}
	slices.Sort(total.moves)
	secs := elapsed.Seconds()
	fmt.Printf("%s, %d workers, %.1fs, rules %s\n", u, *workers, secs, r.Name())
	fmt.Printf("move requests: %d ok (%.0f/s); all requests: %d (%.0f/s)\n",
		len(total.moves), float64(len(total.moves))/secs, total.requests, float64(total.requests)/secs)
	fmt.Printf("move latency: p50 %v, p99 %v, max %v\n",
		percentile(total.moves, 0.50), percentile(total.moves, 0.99), percentile(total.moves, 1))
	fmt.Printf("games: %d started, %d played to the end\n", total.games, total.finished)
	for k, n := range total.errors {
		fmt.Printf("errors: %s: %d\n", k, n)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "loadtest: "+format+"\n", args...)
	os.Exit(2)
}

// loopback reports whether host names this machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// percentile returns the p-quantile (0 < p <= 1) of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))].Round(10 * time.Microsecond)
}

type worker struct {
	client *http.Client
	base   string
	rules  engine.Rules
	budget *atomic.Int64
	st     *stats
}

func (w *worker) run(ctx context.Context) {
	w.st.errors = map[string]int{}
	for ctx.Err() == nil && w.budget.Load() > 0 {
		if !w.game(ctx) {
			// The server refused a new game: do not hammer it.
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}

// game plays one game from creation to its end (or until ctx is done,
// the budget is spent or a request fails). It reports whether the game
// could be created.
func (w *worker) game(ctx context.Context) bool {
	var created struct{ ID, Token, Seat string }
	if !w.call(ctx, "POST", "/api/v1/games", "", map[string]string{"rules": w.rules.Name(), "seat": "south"}, http.StatusCreated, &created) {
		return false
	}
	w.st.games++
	var joined struct{ Token, Seat string }
	if !w.call(ctx, "POST", "/api/v1/games/"+created.ID+"/join", "", struct{}{}, http.StatusOK, &joined) {
		return true
	}
	tokens := map[string]string{created.Seat: created.Token, joined.Seat: joined.Token}
	var s state
	if !w.call(ctx, "GET", "/api/v1/games/"+created.ID, "", nil, http.StatusOK, &s) {
		return true
	}
	for ply := 0; ply < maxPlies; ply++ {
		if s.Status == "over" {
			w.st.finished++
			return true
		}
		p, err := w.rules.ParsePosition(s.Position)
		if err != nil {
			w.st.errors["bad position from the server"]++
			return true
		}
		legal := w.rules.LegalMoves(p).Pits()
		if len(legal) == 0 {
			w.st.errors["no legal move but the game is not over"]++
			return true
		}
		if w.budget.Add(-1) < 0 {
			return true
		}
		pit := legal[rand.IntN(len(legal))]
		began := time.Now()
		if !w.call(ctx, "POST", "/api/v1/games/"+created.ID+"/moves", tokens[p.ToMove.String()],
			map[string]string{"pit": engine.Label(pit)}, http.StatusOK, &s) {
			return true
		}
		w.st.moves = append(w.st.moves, time.Since(began))
	}
	return true
}

// call sends one API request and decodes the reply into out; it counts
// the request and reports whether the status was want.
func (w *worker) call(ctx context.Context, method, path, token string, body any, want int, out any) bool {
	var rd io.Reader = http.NoBody
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, w.base+path, rd)
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	kind := method + " " + pathKind(path)
	resp, err := w.client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err // without the URL and its game id
			}
			w.st.errors[kind+": "+err.Error()]++
		}
		return false
	}
	defer resp.Body.Close()
	w.st.requests++
	if resp.StatusCode != want {
		w.st.errors[fmt.Sprintf("%s: status %d", kind, resp.StatusCode)]++
		return false
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		w.st.errors[kind+": bad JSON: "+err.Error()]++
		return false
	}
	return true
}

// pathKind names an API path without its game id, for error counts.
func pathKind(path string) string {
	switch {
	case path == "/api/v1/games":
		return "/api/v1/games"
	case strings.HasSuffix(path, "/join"):
		return "/api/v1/games/{id}/join"
	case strings.HasSuffix(path, "/moves"):
		return "/api/v1/games/{id}/moves"
	}
	return "/api/v1/games/{id}"
}
