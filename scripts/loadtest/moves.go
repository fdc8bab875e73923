package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"oware/engine"
)

// maxPlies bounds a game of the moves mode: a longer one is abandoned.
const maxPlies = 400

// moveStats is what one worker of the moves mode measured.
type moveStats struct {
	moves    []time.Duration // latency of each successful move request
	games    int             // games started
	finished int             // games played to their end
	errors   map[string]int  // failed requests by kind and status
}

// runMoves is the moves mode: workers play random games.
func runMoves(ctx context.Context, o options) error {
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	a := &api{client: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: o.workers}}, base: o.base, clock: o.clock}
	var budget atomic.Int64
	budget.Store(o.maxMoves)
	all := make([]moveStats, o.workers)
	m := &meter{server: o.server, database: o.pgdb}
	var wg sync.WaitGroup
	var db0 dbCount
	if o.pg != "" {
		db0 = dbCounts(o.pg)
	}
	m.begin()
	began := time.Now()
	for i := range all {
		st := &all[i]
		st.errors = map[string]int{}
		wg.Go(func() { playGames(ctx, a, o.rules, &budget, st) })
	}
	wg.Wait()
	elapsed := time.Since(began)
	cpu := m.since()

	var total moveStats
	total.errors = map[string]int{}
	for _, s := range all {
		total.moves = append(total.moves, s.moves...)
		total.games += s.games
		total.finished += s.finished
		for k, n := range s.errors {
			total.errors[k] += n
		}
	}
	slices.Sort(total.moves)
	secs := elapsed.Seconds()
	fmt.Printf("%s, %d workers, %.1fs, rules %s\n", o.base, o.workers, secs, o.rules.Name())
	fmt.Printf("move requests: %d ok (%.0f/s)\n", len(total.moves), float64(len(total.moves))/secs)
	fmt.Printf("move latency: p50 %v, p99 %v, max %v\n",
		percentile(total.moves, 0.50), percentile(total.moves, 0.99), percentile(total.moves, 1))
	fmt.Printf("games: %d started, %d played to the end\n", total.games, total.finished)
	if o.server != 0 || o.pgdb != "" {
		// The requests that set up games are counted in: about one in 50.
		fmt.Printf("CPU per move: %v\n", cpu.per(len(total.moves)))
	}
	if o.pg != "" {
		// Each backend sends its statistics at most once a second, when idle.
		time.Sleep(2 * time.Second)
		h := dbCounts(o.pg).minus(db0)
		fmt.Printf("HOT updates of games: %d of %d (%.1f %%)\n", h.hot, h.all, 100*float64(h.hot)/float64(max(h.all, 1)))
		h.printPer(len(total.moves), "move")
	}
	for k, n := range total.errors {
		fmt.Printf("errors: %s: %d\n", k, n)
	}
	return nil
}

// dbCount is what a run costs PostgreSQL, read from its statistics: the
// updates of the games table, all and HOT (pg_stat_user_tables: n_tup_upd,
// n_tup_hot_upd); the commits of the database (pg_stat_database:
// xact_commit); and, for the whole cluster (others' work counts in), the
// WAL records, bytes and flushes (pg_stat_wal: wal_records, wal_bytes,
// wal_sync).
type dbCount struct{ all, hot, commits, walRecords, walBytes, walSyncs int64 }

// minus returns the counts since b.
func (h dbCount) minus(b dbCount) dbCount {
	return dbCount{h.all - b.all, h.hot - b.hot, h.commits - b.commits,
		h.walRecords - b.walRecords, h.walBytes - b.walBytes, h.walSyncs - b.walSyncs}
}

// dbCounts reads the counts of the database at url (with psql) and its
// table games (none: 0); zero when they cannot be read.
func dbCounts(url string) dbCount {
	out, err := exec.Command("psql", "-Atc", `SELECT
		COALESCE((SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'games'), 0),
		COALESCE((SELECT n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games'), 0),
		(SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()),
		wal_records, wal_bytes, wal_sync FROM pg_stat_wal`, url).Output()
	var h dbCount
	if err == nil {
		fmt.Sscanf(strings.TrimSpace(string(out)), "%d|%d|%d|%d|%d|%d", &h.all, &h.hot, &h.commits, &h.walRecords, &h.walBytes, &h.walSyncs)
	}
	return h
}

// printPer prints the commits and WAL of c per one of n (moves or
// transactions).
func (h dbCount) printPer(n int, what string) {
	d := float64(max(n, 1))
	fmt.Printf("per %s: %.2f commits of the database; WAL of the cluster %.2f records, %.0f bytes, %.3f flushes\n",
		what, float64(h.commits)/d, float64(h.walRecords)/d, float64(h.walBytes)/d, float64(h.walSyncs)/d)
}

// playGames plays games until ctx is done or the budget of moves is spent.
func playGames(ctx context.Context, a *api, r engine.Rules, budget *atomic.Int64, st *moveStats) {
	mv, err := newMover(a.base)
	if err != nil {
		st.errors[err.Error()]++
		return
	}
	defer mv.close()
	for ctx.Err() == nil && budget.Load() > 0 {
		t, err := a.newTable(ctx, r)
		if err != nil {
			if ctx.Err() == nil {
				st.errors[err.Error()]++
			}
			// The server refused a new game: do not hammer it.
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		st.games++
		if playRandom(ctx, mv, r, t, budget, st) {
			st.finished++
		}
	}
}

// playRandom plays random legal moves of t until it ends (true), or until
// ctx is done, the budget is spent, maxPlies are played or a request fails.
func playRandom(ctx context.Context, mv *mover, r engine.Rules, t *table, budget *atomic.Int64, st *moveStats) bool {
	for range maxPlies {
		if t.state.Status == "over" {
			return true
		}
		p, err := r.ParsePosition(t.state.Position)
		if err != nil {
			st.errors["bad position from the server"]++
			return false
		}
		legal := r.LegalMoves(p).Pits()
		if len(legal) == 0 {
			st.errors["no legal move but the game is not over"]++
			return false
		}
		if budget.Add(-1) < 0 {
			return false
		}
		d, err := mv.move(ctx, t, p, legal[rand.IntN(len(legal))])
		if err != nil {
			if ctx.Err() == nil {
				st.errors[err.Error()]++
			}
			return false
		}
		st.moves = append(st.moves, d)
	}
	return false
}
