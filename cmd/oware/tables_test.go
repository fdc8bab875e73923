package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"oware/engine"
)

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

// TestTablesBuiltThenLoaded: a server without tables starts at once and
// builds them in the background (here of 6 seeds); the next one loads
// them.
func TestTablesBuiltThenLoaded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tables")
	log := slog.New(slog.DiscardHandler)
	first, err := openTables(dir, 6, true, log)
	if err != nil {
		t.Fatal(err)
	}
	<-first.built
	abapa := engine.Oware{GrandSlam: engine.Abapa}
	if first.Table(abapa) == nil || first.Table(engine.Oware{GrandSlam: engine.Warri}) == nil {
		t.Fatal("the built tables are not in use")
	}
	if err := first.close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"abapa-6.tbl", "wari-6.tbl", "warri-6.tbl"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	second, err := openTables(dir, 6, true, log)
	if err != nil {
		t.Fatal(err)
	}
	defer second.close()
	select {
	case <-second.built:
	default:
		t.Fatal("the second start builds again")
	}
	if second.Table(abapa) == nil {
		t.Error("the second start did not load the tables")
	}
	other, err := openTables(filepath.Join(t.TempDir(), "empty"), 6, false, log)
	if err != nil || other.Table(abapa) != nil {
		t.Errorf("with -build-tables=false and no files: %v", err)
	}
	select {
	case <-other.built:
	default:
		t.Error("-build-tables=false builds")
	}
	none, err := openTables(dir, 0, true, log)
	if err != nil || none.Table(abapa) != nil {
		t.Errorf("without tables: %v", err)
	}
}
