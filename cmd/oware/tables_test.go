package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"oware/engine"
)

// TestMain lets the test binary stand in for the server's program: the
// tables re-execute it as "build-table" (os.Executable).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "build-table" {
		if err := buildTable(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestTablesConfig(t *testing.T) {
	t.Setenv("OWARE_TABLES", "/srv/oware/tables")
	t.Setenv("OWARE_TABLE_SEEDS", "12")
	c, err := parseConfig([]string{"-table-seeds", "8"})
	if err != nil {
		t.Fatal(err)
	}
	if c.tables != "/srv/oware/tables" || c.tableSeeds != 8 {
		t.Errorf("tables %q, seeds %d; want the environment's folder and the flag's 8", c.tables, c.tableSeeds)
	}
	if _, _, err := startComputer(nil, config{tableSeeds: 22}, slog.New(slog.DiscardHandler)); err == nil {
		t.Error("22 seeds accepted")
	}
}

// logBuffer is a log whose text can be read while it is written.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// waitDone waits (up to 5 minutes: the build runs at the lowest
// priority) until rules has its full table.
func waitDone(t *testing.T, tb *tables, rules engine.GrandSlamRule) {
	t.Helper()
	select {
	case <-tb.done[rules]:
	case <-time.After(5 * time.Minute):
		t.Fatalf("no %s table after 5 minutes", rules)
	}
}

var (
	abapa = engine.Oware{GrandSlam: engine.Abapa}
	wari  = engine.Oware{GrandSlam: engine.Wari}
	warri = engine.Oware{GrandSlam: engine.Warri}
)

// TestTablesStaged: a server without tables starts at once and builds
// Abapa's in the background, by child processes, the small table (4
// seeds here) first, then the full one (6); Wari's only once a search
// asks for it, Warri's never here. The next start loads them.
func TestTablesStaged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tables")
	var logs logBuffer
	first, err := openStaged(dir, 6, 4, true, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, first, engine.Abapa)
	if tb := first.Table(abapa); tb == nil || tb.MaxSeeds() != 6 {
		t.Fatalf("Abapa's table in use: %v, want the 6-seed one", tb)
	}
	for _, want := range []string{"rules=abapa seeds=4", "rules=abapa seeds=6"} {
		if !strings.Contains(logs.String(), "msg=\"endgame tables: built and in use\" "+want) {
			t.Errorf("the log does not say %q was built:\n%s", want, logs.String())
		}
	}
	if tb := first.Table(wari); tb != nil {
		t.Fatal("a Wari table before anyone asked for one")
	}
	waitDone(t, first, engine.Wari) // the Table call above asked for it
	if tb := first.Table(wari); tb == nil || tb.MaxSeeds() != 6 {
		t.Fatalf("Wari's table in use: %v, want the 6-seed one", tb)
	}
	if err := first.close(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"abapa-4.tbl": true, "abapa-6.tbl": true, "wari-4.tbl": true,
		"wari-6.tbl": true, "warri-4.tbl": false, "warri-6.tbl": false} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s: there %v, want %v", name, err == nil, want)
		}
	}

	second, err := openStaged(dir, 6, 4, false, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer second.close()
	if tb := second.Table(abapa); tb == nil || tb.MaxSeeds() != 6 {
		t.Errorf("the second start's Abapa table: %v, want the 6-seed file", tb)
	}
	if second.Table(warri) != nil {
		t.Error("a Warri table with -build-tables=false and no file")
	}

	// A build left unfinished (its temporary file) is cleared at start.
	stale := filepath.Join(dir, "warri-6.tbl.123.tmp")
	os.WriteFile(stale, []byte("half"), 0o644)
	third, err := openStaged(dir, 6, 4, true, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer third.close()
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale temporary file is still there")
	}

	none, err := openTables(dir, 0, true, slog.New(slog.DiscardHandler))
	if err != nil || none.Table(abapa) != nil {
		t.Errorf("without tables: %v", err)
	}
	none.close()
}

// TestTablesLarger: a table file with more seeds than the server's size,
// built ahead (oware-engine tables --max-seeds 20), is used where present,
// and nothing is built for that rule set.
func TestTablesLarger(t *testing.T) {
	dir := t.TempDir()
	if err := writeTable(context.Background(), abapa, 7, dir, nil); err != nil {
		t.Fatal(err)
	}
	tb, err := openStaged(dir, 6, 4, true, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.close()
	if got := tb.Table(abapa); got == nil || got.MaxSeeds() != 7 {
		t.Fatalf("Abapa's table in use: %v, want the 7-seed file", got)
	}
	if !isClosed(tb.done[engine.Abapa]) {
		t.Error("Abapa's table counts as missing")
	}
	for _, name := range []string{"abapa-4.tbl", "abapa-6.tbl"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was built though a larger table is there", name)
		}
	}
}

// TestBuildETA: the time left of a build, on a fake clock, counts down
// while the boards done stand still (the old estimate, from the rate so
// far, rose from 1m30s to 6m0s at 10 %), is unknown once that countdown is
// used up, and takes the smoothed rate when the count moves again.
func TestBuildETA(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	e := buildETA{at: t0}
	if d, ok := e.Left(t0, 1000); ok {
		t.Errorf("before any board: %v known", d)
	}
	for _, c := range []struct {
		at    time.Duration // since t0
		done  uint64
		left  time.Duration // rounded to the second
		known bool
	}{
		{10 * time.Second, 100, 90 * time.Second, true}, // 10 boards/s: 900 left in 90 s
		{40 * time.Second, 100, 60 * time.Second, true}, // 30 s later, still 100: 60 s
		{99 * time.Second, 100, time.Second, true},
		{100 * time.Second, 100, 0, false}, // the 90 s are used up: unknown
		{5 * time.Minute, 100, 0, false},
		// 300 boards in the 100 s since the last change: 3/s, smoothed with
		// 10/s to 6.5/s; 600 left: 92.3 s.
		{110 * time.Second, 400, 92 * time.Second, true},
		{170 * time.Second, 400, 32 * time.Second, true},
		{200 * time.Second, 1000, 0, true}, // all done
	} {
		now := t0.Add(c.at)
		e.Update(now, c.done)
		if d, ok := e.Left(now, 1000); d.Round(time.Second) != c.left || ok != c.known {
			t.Errorf("at %v, %d done: %v %v, want %v %v", c.at, c.done, d, ok, c.left, c.known)
		}
	}
}

// TestProgressLog: the build's log lines, on a fake clock, at most one
// every 30 s: the estimate counts down at the same percent, then says
// "estimating".
func TestProgressLog(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	now := t0
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == slog.LevelKey {
			return slog.Attr{}
		}
		return a
	}}))
	logf := progressLoggerAt(log, "abapa", 12, func() time.Time { return now })
	for _, s := range []struct {
		at   time.Duration
		done uint64
	}{{10 * time.Second, 100}, {40 * time.Second, 100}, {60 * time.Second, 100}, {100 * time.Second, 100}} {
		now = t0.Add(s.at)
		logf(s.done, 1000)
	}
	want := `msg="endgame tables: building" rules=abapa seeds=12
msg="endgame tables: building" rules=abapa seeds=12 percent=10 took=40s eta=1m0s
msg="endgame tables: building" rules=abapa seeds=12 percent=10 took=1m40s eta=estimating
`
	if buf.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", buf.String(), want)
	}
}
