package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"oware/engine"
	"oware/engine/puzzle"
)

// TestPuzzlesCommand: puzzles writes a file that --verify proves (exit
// 0); the file with the hand-made Warri puzzle's solution changed to its
// drawing move E (engine/puzzle's TestSolveGrandSlam) fails (exit 1,
// naming the puzzle); a file that is no puzzle file is bad input (2).
func TestPuzzlesCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.txt")
	code, _, errOut := runCmd("puzzles", "--min-seeds", "4", "--max-seeds", "6", "--count", "12", "--out", file)
	if code != 0 {
		t.Fatalf("puzzles: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCmd("puzzles", "--verify", file)
	if code != 0 || !strings.Contains(out, "all 12 puzzles proven unique") {
		t.Fatalf("verify: exit %d: %s %s", code, out, errOut)
	}
	bad := filepath.Join(dir, "bad.txt")
	warri := engine.Oware{GrandSlam: engine.Warri}
	pos, _ := warri.ParsePosition("0-0-0-0-1-1-1-0-0-0-0-0-22-23-S")
	text := "oware-puzzles 1\n" + puzzle.IDOf(warri, pos) + " warri 0-0-0-0-1-1-1-0-0-0-0-0-22-23-S E endgame-win,grand-slam 1130 F:2:2,E:0:0\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCmd("puzzles", "--verify", bad); code != 1 || !strings.Contains(errOut, "move 1: E is not the only winning move") {
		t.Errorf("a wrong solution: exit %d: %s", code, errOut)
	}
	if err := os.WriteFile(bad, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCmd("puzzles", "--verify", bad); code != 2 {
		t.Errorf("not a puzzle file: exit %d, want 2", code)
	}
}

// TestPuzzlesMine: puzzles --mine reads game records and writes the
// puzzles of their endgames, which --verify proves: the Abapa game E d F
// from 0-0-0-0-1-1-1-0-0-1-0-0-23-21-S starts where F alone wins
// (engine/puzzle's TestMine); a file that is no record is bad input (2).
func TestPuzzlesMine(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "game.ogn")
	if err := os.WriteFile(game, []byte("[FEN \"0-0-0-0-1-1-1-0-0-1-0-0-23-21-S\"]\n1. E d 2. F\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "mined.txt")
	code, _, errOut := runCmd("puzzles", "--mine", "--max-seeds", "6", "--out", file, game)
	if code != 0 {
		t.Fatalf("mine: exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(file)
	abapa := engine.Oware{GrandSlam: engine.Abapa}
	pos, _ := abapa.ParsePosition("0-0-0-0-1-1-1-0-0-1-0-0-23-21-S")
	if !strings.Contains(string(b), puzzle.IDOf(abapa, pos)+" abapa 0-0-0-0-1-1-1-0-0-1-0-0-23-21-S F ") {
		t.Errorf("mined file without the game's first position solved by F:\n%s", b)
	}
	if code, out, errOut := runCmd("puzzles", "--verify", file); code != 0 || !strings.Contains(out, "proven unique") {
		t.Errorf("verify the mined file: exit %d: %s %s", code, out, errOut)
	}
	if code, _, _ := runCmd("puzzles", "--mine", "--max-seeds", "6", file); code != 2 {
		t.Errorf("a puzzle file as a record: exit %d, want 2", code)
	}
	if code, _, _ := runCmd("puzzles", "--mine"); code != 2 {
		t.Errorf("no records: exit %d, want 2", code)
	}
}

// TestPuzzlesDeep: puzzles beyond the tables. From a Warri record that
// starts at 0-0-0-0-4-2-1-2-2-0-0-0-19-18-S (11 seeds, above --max-seeds
// 6), where E keeps +9 and F 0 (every line played to its end, engine/puzzle's
// TestSolveDeepAgreesWithBruteForce), the file gets its middlegame puzzle
// E with those values, beside two drawn by --deep; --verify proves them
// again (exit 0) and fails the file whose F is said to keep +6 (exit 1),
// since the margin is then under 4 seeds and the values differ.
func TestPuzzlesDeep(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "warri.ogn")
	if err := os.WriteFile(game, []byte("[Variant \"Warri\"]\n[FEN \"0-0-0-0-4-2-1-2-2-0-0-0-19-18-S\"]\n1. E\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "deep.txt")
	code, _, errOut := runCmd("puzzles", "--count", "0", "--max-seeds", "6", "--deep", "2", "--deep-max-seeds", "13", "--out", file, game)
	if code != 0 {
		t.Fatalf("puzzles: exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(file)
	warri := engine.Oware{GrandSlam: engine.Warri}
	pos, _ := warri.ParsePosition("0-0-0-0-4-2-1-2-2-0-0-0-19-18-S")
	line := puzzle.IDOf(warri, pos) + " warri 0-0-0-0-4-2-1-2-2-0-0-0-19-18-S E middlegame,grand-slam "
	if !strings.Contains(string(b), line) || !strings.Contains(string(b), " E:9:9,F:0:0\n") || strings.Count(string(b), " middlegame") != 3 {
		t.Fatalf("the file without the record's puzzle E (+9, F 0) and two drawn:\n%s", b)
	}
	if code, out, errOut := runCmd("puzzles", "--verify", file); code != 0 || !strings.Contains(out, "all 3 puzzles proven unique") {
		t.Fatalf("verify: exit %d: %s %s", code, out, errOut)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(b), " E:9:9,F:0:0\n", " E:9:9,F:6:6\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCmd("puzzles", "--verify", bad); code != 1 || !strings.Contains(errOut, puzzle.IDOf(warri, pos)) {
		t.Errorf("F said to keep +6: exit %d: %s", code, errOut)
	}
	if code, _, _ := runCmd("puzzles", "--deep", "1", "--max-seeds", "10", "--deep-max-seeds", "10"); code != 2 {
		t.Errorf("--deep-max-seeds not above --max-seeds: exit %d, want 2", code)
	}
}
