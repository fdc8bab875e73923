package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"oware/engine"
	"oware/engine/endgame"
	"oware/engine/search"
	"oware/game"
	"oware/models"
)

// defaultTableSeeds is the size of the endgame tables a server builds when
// none is given: every board of up to 16 seeds, 30 MB a rule set, a few
// minutes of one core (see docs/engine.md for larger ones).
const defaultTableSeeds = 16

// smallTableSeeds is the size of the table built first, in seconds, so
// that the computer plays with a table soon after a first start.
const smallTableSeeds = 12

// tableNice is the nice value of the process that builds a table: it gets
// a core only when the site's requests leave one idle.
const tableNice = 19

// tables are the endgame tables of the server, one in use per Oware rule
// set. The missing ones are built in the background, each by a child
// process at the lowest priority (tableNice), in stages: the small table
// (smallTableSeeds) first, then the full size; Abapa's at once, Wari's and
// Warri's only once the computer is asked to play them. Each is used as
// soon as it is written. It implements search.Tables.
type tables struct {
	dir   string
	seeds int  // the full size; 0: no tables
	small int  // the size built first (smallTableSeeds)
	build bool // build the missing ones
	exe   string
	log   *slog.Logger

	inUse  [3]atomic.Pointer[endgame.Table] // by engine.GrandSlamRule
	wanted [3]atomic.Bool                   // asked for by a search, or Abapa
	demand chan struct{}                    // a rule set was asked for
	done   [3]chan struct{}                 // closed once a rule set has its full table

	mu     sync.Mutex
	opened []*endgame.Table // every table opened, closed by close

	stop    context.CancelFunc
	stopped chan struct{} // closed when the builder is over
}

// tableRules are the Oware rule sets with tables, in the order of their
// engine.GrandSlamRule.
var tableRules = [3]engine.Oware{{GrandSlam: engine.Abapa}, {GrandSlam: engine.Wari}, {GrandSlam: engine.Warri}}

// openTables opens the tables of up to seeds seeds in dir (none when seeds
// is 0; a table of smallTableSeeds stands in while the full one is
// missing) and, when build, starts the builder. It returns at once.
func openTables(dir string, seeds int, build bool, log *slog.Logger) (*tables, error) {
	return openStaged(dir, seeds, smallTableSeeds, build, log)
}

// openStaged is openTables with the small table of small seeds.
func openStaged(dir string, seeds, small int, build bool, log *slog.Logger) (*tables, error) {
	t := &tables{dir: dir, seeds: seeds, small: small, build: build, log: log, demand: make(chan struct{}, 1),
		stop: func() {}, stopped: make(chan struct{})}
	for i := range t.done {
		t.done[i] = make(chan struct{})
	}
	if seeds == 0 {
		close(t.stopped)
		return t, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var missing []string
	for _, r := range tableRules {
		if err := t.openFiles(r); err != nil {
			t.close()
			return nil, err
		}
		if tb := t.inUse[r.GrandSlam].Load(); tb != nil && tb.MaxSeeds() >= seeds {
			close(t.done[r.GrandSlam])
		} else {
			missing = append(missing, r.Name())
		}
	}
	if len(missing) == 0 {
		log.Info("endgame tables loaded", "dir", dir, "seeds", seeds)
		close(t.stopped)
		return t, nil
	}
	if !build {
		log.Warn("endgame tables missing: the computer plays those rules by search alone (-build-tables=false)",
			"dir", dir, "seeds", seeds, "rules", strings.Join(missing, ","))
		close(t.stopped)
		return t, nil
	}
	removeStale(dir, log)
	if exe, err := os.Executable(); err == nil {
		t.exe = exe
	} else {
		log.Warn("endgame tables: cannot find this program to build them at a low priority; building them in the server", "err", err)
	}
	log.Info("endgame tables missing: they are built in the background at a low priority (Abapa now, "+
		"Wari and Warri when the computer first plays them), small ones first; meanwhile the computer plays by search alone",
		"dir", dir, "seeds", seeds, "rules", strings.Join(missing, ","))
	t.wanted[engine.Abapa].Store(true)
	ctx, stop := context.WithCancel(context.Background())
	t.stop = stop
	go t.run(ctx)
	return t, nil
}

// removeStale removes the temporary files of builds that a stopped server
// left in dir (endgame's WriteFile writes FILE.*.tmp, then renames it).
func removeStale(dir string, log *slog.Logger) {
	stale, _ := filepath.Glob(filepath.Join(dir, "*.tbl.*.tmp"))
	for _, f := range stale {
		if err := os.Remove(f); err == nil {
			log.Info("endgame tables: removed the file of a build left unfinished", "file", f)
		}
	}
}

// stages returns the sizes the full table is built in: the small one
// first when it is smaller.
func (t *tables) stages() []int {
	if t.seeds > t.small {
		return []int{t.small, t.seeds}
	}
	return []int{t.seeds}
}

// openFiles opens r's largest table file in the folder, built ahead with
// more seeds than the full size (oware-engine tables --max-seeds 20: it is
// used where present), else the files of the stages there are.
func (t *tables) openFiles(r engine.Oware) error {
	for n := endgame.MaxSeedsLimit; n > t.seeds; n-- {
		if err := t.openFile(r, n); !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	for _, n := range t.stages() {
		if err := t.openFile(r, n); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// openFile opens the table of r with n seeds from its file and puts it in
// use when it is larger than the one in use.
func (t *tables) openFile(r engine.Oware, n int) error {
	tb, err := endgame.Open(filepath.Join(t.dir, endgame.FileName(r, n)))
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.opened = append(t.opened, tb)
	t.mu.Unlock()
	if cur := t.inUse[r.GrandSlam].Load(); cur == nil || cur.MaxSeeds() < n {
		t.inUse[r.GrandSlam].Store(tb)
	}
	return nil
}

// Table returns the table in use for rules, or nil (search.Tables). Asking
// for a rule set whose full table is missing has the builder build it.
func (t *tables) Table(rules engine.Oware) *endgame.Table {
	if rules.GrandSlam > engine.Warri {
		return nil
	}
	tb := t.inUse[rules.GrandSlam].Load()
	if t.build && (tb == nil || tb.MaxSeeds() < t.seeds) && !t.wanted[rules.GrandSlam].Swap(true) {
		select {
		case t.demand <- struct{}{}:
		default:
		}
	}
	return tb
}

// run builds the wanted tables, Abapa's first, until ctx ends.
func (t *tables) run(ctx context.Context) {
	defer close(t.stopped)
	for {
		for _, r := range tableRules {
			if !t.wanted[r.GrandSlam].Load() || isClosed(t.done[r.GrandSlam]) {
				continue
			}
			if err := t.buildRules(ctx, r); err != nil {
				if ctx.Err() != nil {
					t.log.Info("endgame tables: build stopped; it starts again at the next start")
				} else {
					t.log.Error("endgame tables: build failed; the computer plays without this table", "rules", r.Name(), "err", err)
					close(t.done[r.GrandSlam]) // not again in this process
				}
				if ctx.Err() != nil {
					return
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.demand:
		}
	}
}

// buildRules builds the missing stages of r's table and puts each in use.
func (t *tables) buildRules(ctx context.Context, r engine.Oware) error {
	for _, n := range t.stages() {
		if cur := t.inUse[r.GrandSlam].Load(); cur != nil && cur.MaxSeeds() >= n {
			continue
		}
		start := time.Now()
		if err := t.buildFile(ctx, r, n); err != nil {
			return err
		}
		if err := t.openFile(r, n); err != nil {
			return err
		}
		t.log.Info("endgame tables: built and in use", "rules", r.Name(), "seeds", n,
			"took", time.Since(start).Round(time.Second))
	}
	close(t.done[r.GrandSlam])
	return nil
}

// buildFile writes the table file of r with n seeds: by a child process
// ("oware build-table") at nice tableNice, whose progress it logs, or in
// this process when the program cannot be found.
func (t *tables) buildFile(ctx context.Context, r engine.Oware, n int) error {
	logf := progressLogger(t.log, r.Name(), n)
	if t.exe == "" {
		return writeTable(ctx, r, n, t.dir, func(p endgame.Progress) { logf(p.Done, p.Total) })
	}
	cmd := exec.CommandContext(ctx, t.exe, "build-table", "-rules", r.Name(), "-seeds", strconv.Itoa(n), "-out", t.dir)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := startNiced(cmd, tableNice); err != nil {
		return err
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var done, total uint64
		if _, err := fmt.Sscanf(sc.Text(), "progress %d %d", &done, &total); err == nil {
			logf(done, total)
		}
	}
	if err := cmd.Wait(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("oware build-table %s %d: %w", r.Name(), n, err)
	}
	return nil
}

// progressLogger returns the function that logs the progress of the build
// of a table (boards done of total): at most a line every 30 s, with the
// time it has taken and the time left (buildETA), or "estimating" while it
// is not known.
func progressLogger(log *slog.Logger, rules string, seeds int) func(done, total uint64) {
	return progressLoggerAt(log, rules, seeds, time.Now)
}

// progressLoggerAt is progressLogger on the clock now.
func progressLoggerAt(log *slog.Logger, rules string, seeds int, now func() time.Time) func(done, total uint64) {
	start := now()
	last, est := start, &buildETA{at: start}
	log.Info("endgame tables: building", "rules", rules, "seeds", seeds)
	return func(done, total uint64) {
		t := now()
		est.Update(t, done)
		if t.Sub(last) < 30*time.Second || done >= total {
			return
		}
		last = t
		left := "estimating"
		if d, ok := est.Left(t, total); ok {
			left = d.Round(time.Second).String()
		}
		log.Info("endgame tables: building", "rules", rules, "seeds", seeds, "percent", done*100/max(total, 1),
			"took", t.Sub(start).Round(time.Second), "eta", left)
	}
}

// buildETA estimates the time left of a table's build from its boards
// done. A build reports its boards done only as each level (boards of n
// seeds) ends, and the last levels take hours: between two reports the
// count stands still (at 57 % for a 12-seed table) while the time goes on,
// so the rate so far (done over all the time taken) would fall and the
// estimate rise with every line. Instead the rate is measured over each
// interval between two changes of the count, smoothed (each new interval
// weighs half: rate = (measured + rate) / 2), and the estimate counts down
// from the last change: (total - done) / rate minus the time since. When
// that reaches 0 the level at hand is slower than the rate said, and the
// time left is unknown until the count moves again.
// Its zero count is the build's start, at.
type buildETA struct {
	done uint64    // the count at its last change
	at   time.Time // when it changed
	rate float64   // boards a second, smoothed; 0 before the first change
}

// Update records the count done at time now.
func (e *buildETA) Update(now time.Time, done uint64) {
	if done > e.done {
		measured := float64(done-e.done) / max(now.Sub(e.at).Seconds(), 1e-9)
		if e.rate == 0 {
			e.rate = measured
		} else {
			e.rate = (measured + e.rate) / 2
		}
		e.done, e.at = done, now
	}
}

// Left returns the time left at now to reach total boards, and whether it
// is known: not before the count has first moved, nor once the time since
// its last change has used up the estimate made then; 0 and true when all
// is done.
func (e *buildETA) Left(now time.Time, total uint64) (time.Duration, bool) {
	if e.done >= total {
		return 0, true
	}
	if e.rate == 0 {
		return 0, false
	}
	left := time.Duration(float64(total-e.done)/e.rate*float64(time.Second)) - now.Sub(e.at)
	if left <= 0 {
		return 0, false
	}
	return left, true
}

// buildTable is the command "oware build-table -rules R -seeds N -out DIR"
// that the server runs at a low priority to build a table: it writes the
// file (endgame.FileName) into DIR and prints "progress DONE TOTAL" lines
// (boards) on stdout, at most one a second.
func buildTable(args []string) error {
	fs := flag.NewFlagSet("oware build-table", flag.ContinueOnError)
	rules := fs.String("rules", "abapa", "abapa, wari or warri")
	seeds := fs.Int("seeds", smallTableSeeds, "every board of up to this many seeds")
	dir := fs.String("out", "./data/tables", "folder of the table files")
	if err := fs.Parse(args); err != nil {
		return err
	}
	r, err := engine.RulesByName(*rules)
	o, ok := r.(engine.Oware)
	if err != nil || !ok {
		return fmt.Errorf("build-table: -rules %q: want abapa, wari or warri", *rules)
	}
	last := time.Time{}
	return writeTable(context.Background(), o, *seeds, *dir, func(p endgame.Progress) {
		if time.Since(last) >= time.Second {
			last = time.Now()
			fmt.Printf("progress %d %d\n", p.Done, p.Total)
		}
	})
}

// writeTable builds the table of r with n seeds and writes it into dir.
func writeTable(ctx context.Context, r engine.Oware, n int, dir string, progress func(endgame.Progress)) error {
	tb, err := endgame.Build(ctx, r, n, progress)
	if err != nil {
		return err
	}
	return tb.WriteFile(filepath.Join(dir, endgame.FileName(r, n)))
}

// isClosed reports whether c is closed.
func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// close stops a build under way (killing its process) and releases the
// tables; no search may use them after.
func (t *tables) close() error {
	t.stop()
	<-t.stopped
	t.mu.Lock()
	defer t.mu.Unlock()
	var errs []error
	for _, tb := range t.opened {
		errs = append(errs, tb.Close())
	}
	t.opened = nil
	for i := range t.inUse {
		t.inUse[i].Store(nil)
	}
	return errors.Join(errs...)
}

// startComputer returns the game service with the computer's pool (a
// worker per core at game.DefaultNice, the endgame tables of cfg; the
// computer's jobs worked here unless -computer-jobs=false) and the
// function that stops them; it asks, in the background, for the replies
// that games left by a stopped server wait for. The Go scheduler gets a
// processor more for each worker (GOMAXPROCS), so that a search never
// holds one the site's requests wait for: the kernel, by the workers'
// nice value, decides who runs.
func startComputer(db *models.DB, cfg config, log *slog.Logger) (*game.Service, func(), error) {
	t, err := openTables(cfg.tables, cfg.tableSeeds, cfg.buildTables, log)
	if err != nil {
		return nil, nil, fmt.Errorf("endgame tables: %w (remove a damaged file to have it built again)", err)
	}
	games := game.New(db, log)
	ctx, stop := context.WithCancel(context.Background())
	workers := workersOf(cfg)
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + workers)
	}
	pool, err := games.StartComputer(ctx, game.PoolConfig{Workers: workers, Nice: cfg.computerNice, Idle: cfg.computerIdle, NoJobs: !cfg.computerJobs,
		Tables: t, MinThink: search.MinThinkTime})
	if err != nil {
		stop()
		t.close()
		return nil, nil, err
	}
	go func() {
		n, err := pool.ScheduleWaiting(ctx, waitingReplies)
		if err != nil && ctx.Err() == nil {
			log.Error("computer: games waiting for a reply", "err", err)
		} else if n > 0 {
			log.Info("computer: replies scheduled for games left waiting", "games", n)
		}
	}()
	return games, func() {
		stop()
		pool.Wait()
		if err := t.close(); err != nil {
			log.Error("endgame tables: close", "err", err)
		}
	}, nil
}

// workersOf is the number of the computer's workers of cfg: -computer, at
// most one per core, or one per core.
func workersOf(cfg config) int {
	if cfg.computer <= 0 {
		return runtime.NumCPU()
	}
	return min(cfg.computer, runtime.NumCPU())
}

// waitingReplies bounds the games a server looks at, at start, for a
// computer's reply left waiting (the latest changed first; older ones get
// theirs when next loaded).
const waitingReplies = 500
