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

func TestETA(t *testing.T) {
	for _, c := range []struct {
		took        time.Duration
		done, total uint64
		want        time.Duration
	}{
		{10 * time.Second, 25, 100, 30 * time.Second}, // a quarter in 10 s: three more quarters
		{time.Minute, 1, 2, time.Minute},
		{time.Minute, 0, 100, 0},   // no rate yet
		{time.Minute, 100, 100, 0}, // over
	} {
		if got := eta(c.took, c.done, c.total); got != c.want {
			t.Errorf("eta(%v, %d, %d) = %v, want %v", c.took, c.done, c.total, got, c.want)
		}
	}
}
