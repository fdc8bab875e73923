// Command loadtest measures a running oware server on this machine: the
// throughput, latency and CPU of moves, the cost of a move by ply, how
// fast a move reaches many spectators, and the rate of pages against a
// static file; and, for comparison, the same insert-and-update transaction
// run by pgbench.
//
//	go run ./scripts/loadtest -url http://127.0.0.1:8080 -workers 8 -duration 10s
//
// Modes (-mode):
//
//   - moves (the default): each worker creates a game (POST
//     /api/v1/games), takes the other seat and plays random legal moves,
//     chosen with package engine, for both seats until the game ends, then
//     starts another. It prints the move requests per second, their p50
//     and p99 latency and, with -pgdb, the CPU per move of the server, the
//     PostgreSQL backends of that database and this client.
//   - long: plays -games games of -plies moves each, one move at a time,
//     choosing moves that keep the game going, and prints the latency and
//     the server's CPU per move by ply.
//   - spectators: -spectators event streams watch one game while a player
//     moves; it prints, for each move, when the first and the last
//     spectator got it after the move's answer, and the server's memory per
//     idle stream. On Linux the streams are read with epoll (one set and
//     one goroutine per core), so that the readers take little of the
//     cores they share with the server.
//   - pages: fetches -page and a static file of about its size in turns,
//     -duration each, -rounds times, and prints both rates and their ratio.
//     -page "game" is a game page seen by a visitor, "rules" the rules page.
//   - computer: -workers players play -games games each against the
//     computer at -level and it prints the p50 and p99 of the time from a
//     move's answer until the computer's reply shows (without the minimum
//     thinking time unless -think) and the players' requests a second: a
//     player waits on the game's event stream as a browser does (-wait
//     stream), or polls GET /api/v1/games/{id} every -poll (-wait poll).
//   - notify: -listeners connections (the instances' brokers) LISTEN to
//     their share of -games game channels on -pg while -workers
//     publishers send batches of -batch pg_notify as fast as they can (or
//     -rate a second) for -duration; it prints the notifications sent and delivered a second
//     and the time to delivery (what one PostgreSQL's notification queue
//     carries).
//   - pgbench: runs pgbench on -pg with the transaction of a move (update
//     the game row, insert the move) and prints its rate and CPU per
//     transaction (pgbench and the backends of that database).
//
// It only talks to loopback addresses and stops by itself.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"oware/engine"
)

// options are the command's flags.
type options struct {
	base              string
	mode              string
	workers           int
	duration          time.Duration
	maxMoves          int64
	rules             engine.Rules
	pgdb              string // PostgreSQL database whose backends' CPU counts
	server            int    // the server's pid (0: the process named oware)
	games, plies      int
	quiet             bool
	spectators, moves int
	page              string
	rounds            int
	wrk               bool   // pages: measure with wrk
	pg                string // pgbench: the database URL
	pgbenchClients    int
	synchronousCommit string
	script            string
	level             int           // computer: the computer's level
	think             bool          // computer: with the minimum thinking time
	wait              string        // computer: how a player waits for the reply: "stream" or "poll"
	poll              time.Duration // computer: with -wait poll, how often a player asks whether the reply came
	listeners, batch  int           // notify: listening connections, notifications per statement
	rate              int           // notify: notifications a second in all (0: as fast as they can)
	clock             int           // moves, long: the games' initial time in seconds, 0 for none
}

func main() {
	var o options
	var rules string
	flag.StringVar(&o.base, "url", "http://127.0.0.1:8080", "server URL (loopback only)")
	flag.StringVar(&o.mode, "mode", "moves", "moves, long, spectators, pages, computer, notify or pgbench")
	flag.IntVar(&o.workers, "workers", 8, "concurrent players or page clients (1..256)")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "how long a run lasts (at most 5m)")
	flag.Int64Var(&o.maxMoves, "max-moves", 1_000_000, "moves: stop after this many move requests")
	flag.StringVar(&rules, "rules", "abapa", "rule set of the games: abapa, wari, warri or namnam")
	flag.StringVar(&o.pgdb, "pgdb", "", "count the CPU of the PostgreSQL backends of this database (the server's)")
	flag.IntVar(&o.server, "pid", 0, "the server's pid, for its CPU and memory (default: the process named oware)")
	flag.IntVar(&o.games, "games", 4, "long: games to play; computer: games per player")
	flag.IntVar(&o.level, "level", 8, "computer: the computer's level, 1-8")
	flag.StringVar(&o.wait, "wait", "stream", "computer: how a player waits for the reply: \"stream\" (the game's event stream, as a browser) or \"poll\" (GET the game every -poll)")
	flag.DurationVar(&o.poll, "poll", 10*time.Millisecond, "computer: with -wait poll, how often a player asks whether the reply came (its requests load the site)")
	flag.BoolVar(&o.think, "think", false, "computer: keep the computer's minimum thinking time")
	flag.IntVar(&o.plies, "plies", 600, "long: moves per game")
	flag.BoolVar(&o.quiet, "quiet", false, "long: moves that capture nothing when they can (the longest repetition history)")
	flag.IntVar(&o.clock, "clock", 0, "moves, long: play with a clock of this many seconds and no increment (10..10800; 0: no clock), so each move changes the game's deadline")
	flag.IntVar(&o.spectators, "spectators", 1000, "spectators: event streams")
	flag.IntVar(&o.moves, "moves", 30, "spectators: moves to time")
	flag.StringVar(&o.page, "page", "rules", "pages: \"rules\", \"game\" or a path")
	flag.IntVar(&o.rounds, "rounds", 3, "pages: runs of each")
	flag.BoolVar(&o.wrk, "wrk", false, "pages: measure the rates with wrk (gzip, no cookies) instead of Go clients")
	flag.StringVar(&o.pg, "pg", "", "pgbench: URL of a scratch PostgreSQL database (its tables bench_games and bench_moves are replaced); moves: the server's database URL, for the share of HOT updates")
	flag.IntVar(&o.pgbenchClients, "clients", 8, "pgbench: clients")
	flag.StringVar(&o.synchronousCommit, "synchronous-commit", "on", "pgbench: synchronous_commit of its sessions (on or off)")
	flag.StringVar(&o.script, "script", "", "pgbench: run this pgbench script on -pg instead of the transaction of a move (no setup)")
	flag.IntVar(&o.listeners, "listeners", 8, "notify: listening connections, one per instance")
	flag.IntVar(&o.rate, "rate", 0, "notify: notifications a second in all (0: as fast as the publishers can)")
	flag.IntVar(&o.batch, "batch", 50, "notify: notifications per publisher statement (1..1000)")
	flag.Parse()

	u, err := url.Parse(o.base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		fail("-url %q: want an http:// URL", o.base)
	}
	if !loopback(u.Hostname()) {
		fail("-url %q: only loopback hosts (localhost, 127.0.0.0/8, ::1) may be load tested", o.base)
	}
	o.base = strings.TrimRight(u.String(), "/")
	if o.workers < 1 || o.workers > 256 || o.duration <= 0 || o.duration > 5*time.Minute || o.maxMoves < 1 {
		fail("-workers must be 1..256, -duration 0..5m, -max-moves positive")
	}
	if o.rules, err = engine.RulesByName(rules); err != nil {
		fail("%v", err)
	}
	if o.poll < time.Millisecond || o.poll > 10*time.Second || (o.wait != "stream" && o.wait != "poll") {
		fail("-poll must be 1ms..10s, -wait stream or poll")
	}
	if o.listeners < 1 || o.listeners > 64 || o.batch < 1 || o.batch > 1000 {
		fail("-listeners must be 1..64, -batch 1..1000")
	}
	if o.clock != 0 && (o.clock < 10 || o.clock > 10800) {
		fail("-clock must be 0 (none) or 10..10800 seconds")
	}
	if o.server == 0 && o.mode != "pgbench" && o.mode != "notify" {
		if pids := findProcs("oware", ""); len(pids) == 1 {
			o.server = pids[0]
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch o.mode {
	case "moves":
		err = runMoves(ctx, o)
	case "long":
		err = runLong(ctx, o)
	case "spectators":
		err = runSpectators(ctx, o)
	case "pages":
		err = runPages(ctx, o)
	case "computer":
		err = runComputer(ctx, o)
	case "notify":
		err = runNotify(ctx, o)
	case "pgbench":
		err = runPgbench(ctx, o)
	default:
		err = fmt.Errorf("unknown -mode %q", o.mode)
	}
	if err != nil {
		fail("%v", err)
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

// median returns the median of durations (sorting them).
func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return percentile(d, 0.5)
}

// api is a client of the JSON API.
type api struct {
	client *http.Client
	base   string
	clock  int // the initial time of the games it starts, seconds (0: no clock)
}

// call sends one API request and decodes the reply into out (when not
// nil); an answer other than want is an error naming the kind of path.
func (a *api) call(ctx context.Context, method, path, token string, body, out any, want int) error {
	var rd io.Reader = http.NoBody
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	kind := method + " " + pathKind(path)
	resp, err := a.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL and its game id
		}
		return fmt.Errorf("%s: %w", kind, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		io.Copy(io.Discard, resp.Body)
		return fmt.Errorf("%s: status %d", kind, resp.StatusCode)
	}
	if out == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("%s: bad JSON: %w", kind, err)
	}
	return nil
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

// state is what the load test reads of the API's view of a game.
type state struct {
	Status   string `json:"status"`
	Position string `json:"position"`
}

// table is a game with both seats taken by this client.
type table struct {
	id     string
	tokens map[string]string // by seat
	state  state
}

// newTable creates a game of rules and takes the other seat.
func (a *api) newTable(ctx context.Context, rules engine.Rules) (*table, error) {
	var created struct{ ID, Token, Seat string }
	body := map[string]any{"rules": rules.Name(), "seat": "south"}
	if a.clock > 0 {
		body["clock"] = map[string]int{"initial": a.clock, "increment": 0}
	}
	if err := a.call(ctx, "POST", "/api/v1/games", "", body, &created, http.StatusCreated); err != nil {
		return nil, err
	}
	var joined struct{ Token, Seat string }
	if err := a.call(ctx, "POST", "/api/v1/games/"+created.ID+"/join", "", struct{}{}, &joined, http.StatusOK); err != nil {
		return nil, err
	}
	t := &table{id: created.ID, tokens: map[string]string{created.Seat: created.Token, joined.Seat: joined.Token}}
	return t, a.call(ctx, "GET", "/api/v1/games/"+created.ID, "", nil, &t.state, http.StatusOK)
}
