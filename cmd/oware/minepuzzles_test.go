package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"oware/engine"
	"oware/engine/puzzle"
	"oware/models"
)

// TestMinePuzzles: oware mine-puzzles adds the puzzles of the database's
// games and kept records: the start of the imported Abapa game E d F from
// 0-0-0-0-1-1-1-0-0-1-0-0-23-21-S, where F alone wins (engine/puzzle's
// TestMine), becomes the first puzzle numbered after the stored ones;
// running it again adds nothing.
func TestMinePuzzles(t *testing.T) {
	dir := t.TempDir()
	abapa := engine.Oware{GrandSlam: engine.Abapa}
	if err := writeTable(context.Background(), abapa, 6, dir, nil); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "oware.db")
	db, err := models.Open(t.Context(), file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveImport(t.Context(), "[FEN \"0-0-0-0-1-1-1-0-0-1-0-0-23-21-S\"]\n1. E d 2. F\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.LoadPuzzles(t.Context(), []models.Puzzle{{ID: "shipped", Number: 7, Rules: "abapa",
		Position: "0-0-0-0-0-1-1-0-0-0-1-0-23-22-S", Solution: "F", Themes: ",endgame-win,", FirstMoves: "F:1:1",
		Rating: 1500, Deviation: 300, Volatility: 0.06}}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	args := []string{"mine-puzzles", "-database", file, "-tables", dir}
	if out := captureStdout(t, func() error { return run(args) }); !strings.Contains(out, "1 games and records read") || strings.Contains(out, " 0 added") {
		t.Errorf("first run: %q", out)
	}
	if out := captureStdout(t, func() error { return run(args) }); !strings.Contains(out, " 0 added") {
		t.Errorf("second run: %q", out)
	}
	db, err = models.Open(t.Context(), file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pos, _ := abapa.ParsePosition("0-0-0-0-1-1-1-0-0-1-0-0-23-21-S")
	p, err := db.PuzzleByID(t.Context(), puzzle.IDOf(abapa, pos))
	if err != nil || p.Solution != "F" || p.Number != 8 {
		t.Errorf("the mined puzzle: %+v %v; want solution F, number 8", p, err)
	}
}
