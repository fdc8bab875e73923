package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for an engine program in the
// match tests: with OWARE_TEST_ENGINE=uci it runs `oware-engine uci` with
// the arguments, with =illegal a UCI engine that always answers "bestmove
// A" (illegal as soon as A is empty or North is to move), with =silent one
// that never answers go, with =log `oware-engine uci` that also writes the
// lines it is sent to the file $OWARE_TEST_ENGINE_LOG.
func TestMain(m *testing.M) {
	switch os.Getenv("OWARE_TEST_ENGINE") {
	case "uci":
		os.Exit(run(append([]string{"uci"}, os.Args[1:]...), os.Stdout, os.Stderr))
	case "log":
		f, err := os.Create(os.Getenv("OWARE_TEST_ENGINE_LOG"))
		if err != nil {
			os.Exit(3)
		}
		os.Exit(uciErr(uci(os.Args[1:], io.TeeReader(os.Stdin, f), os.Stdout)))
	case "illegal", "silent":
		fakeEngine(os.Getenv("OWARE_TEST_ENGINE") == "silent")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func uciErr(err error) int {
	if err != nil {
		return 1
	}
	return 0
}

func fakeEngine(silent bool) {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		switch f := strings.Fields(sc.Text()); {
		case len(f) == 0:
		case f[0] == "uci":
			fmt.Println("id name fake\nuciok")
		case f[0] == "isready":
			fmt.Println("readyok")
		case f[0] == "go" && !silent:
			fmt.Println("bestmove A")
		case f[0] == "quit":
			return
		}
	}
}

// engineCommand is a command line that runs the test binary as an engine.
func engineCommand(t *testing.T, kind string, args ...string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(append([]string{"env", "OWARE_TEST_ENGINE=" + kind, exe}, args...), " ")
}

// TestUCISession drives the protocol as a GUI would, through a pipe.
func TestUCISession(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error)
	go func() {
		done <- uci([]string{"--level", "8"}, inR, outW)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	send := func(s string) { fmt.Fprintln(inW, s) }
	expect := func(prefix string) []string {
		t.Helper()
		var seen []string
		for lines.Scan() {
			seen = append(seen, lines.Text())
			if strings.HasPrefix(lines.Text(), prefix) {
				return seen
			}
		}
		t.Fatalf("no %q line; got %q", prefix, seen)
		return nil
	}
	last := func(lines []string) []string { return strings.Fields(lines[len(lines)-1]) }
	send("uci")
	got := strings.Join(expect("uciok"), "\n")
	for _, want := range []string{"id name oware-engine", "option name Level type spin default 8 min 1 max 8", "option name Hash", "option name UseTables"} {
		if !strings.Contains(got, want) {
			t.Errorf("uci answer lacks %q:\n%s", want, got)
		}
	}
	send("isready")
	expect("readyok")
	send("setoption name Level value 3")
	send("ucinewgame")
	// Concatenated and space-separated moves give the same position:
	// after C d B the game in TestPlayJSON, South's pit A holds 5.
	send("position startpos moves CdB")
	send("d")
	// C sows D, E, F and a; d sows e, f, A and B; B, now 5, sows C to F
	// and a: 5-0-1-6-6-6-6-4-4-0-5-5, North to move, nothing captured.
	const afterCdB = "info string position 5-0-1-6-6-6-6-4-4-0-5-5-0-0-N moves C d B"
	if got := expect("info string")[0]; got != afterCdB {
		t.Errorf("after moves CdB: %q, want %q", got, afterCdB)
	}
	for _, moves := range []string{"C d B", "Cd B"} {
		send("position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves " + moves)
		send("d")
		if got := expect("info string")[0]; got != afterCdB {
			t.Errorf("after moves %s: %q, want %q", moves, got, afterCdB)
		}
	}
	send("go depth 2")
	best := expect("bestmove")
	info := regexp.MustCompile(`^info depth [12] score cp -?[0-9]+ pv( [a-fA-F])+$`)
	if !info.MatchString(best[0]) || !info.MatchString(best[2]) || !strings.HasPrefix(best[1], "info nodes ") {
		t.Errorf("info lines %q, want info depth D score cp X pv ..., then nodes", best)
	}
	if m := strings.Fields(best[len(best)-1]); len(m) != 2 || !strings.Contains("abcdef", m[1]) {
		t.Errorf("North to move answered %q", best[len(best)-1])
	}
	send("position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves C d B")
	send("setoption name Level value 8")
	send("go ponder")
	time.Sleep(50 * time.Millisecond)
	send("isready")
	expect("readyok")
	send("stop")
	if m := last(expect("bestmove")); len(m) != 2 || !strings.Contains("abcdef", m[1]) {
		t.Errorf("after ponder and stop: %q, want a move of North", m)
	}
	// Stopped at once, before a first iteration can end: still a move.
	for range 5 {
		send("go ponder")
		send("stop")
		if m := last(expect("bestmove")); len(m) != 2 || !strings.Contains("abcdef", m[1]) {
			t.Errorf("after ponder and an immediate stop: %q, want a move of North", m)
		}
	}
	send("setoption name Level value 8")
	send("go movetime 30")
	if m := last(expect("bestmove")); len(m) != 2 || !strings.Contains("abcdef", m[1]) {
		t.Errorf("go movetime 30: %q, want a move of North", m)
	}
	send("go wtime 1000 btime 1000 winc 0 binc 0")
	expect("bestmove")
	send("quit")
	if err := <-done; err != nil {
		t.Errorf("uci: %v", err)
	}
}

// TestMatchIllegalMoveLoses: an engine answering an illegal move loses
// every game, in both seats; a silent engine loses on time.
func TestMatchIllegalMoveLoses(t *testing.T) {
	good := engineCommand(t, "uci", "--level", "1")
	for _, kind := range []string{"illegal", "silent"} {
		code, out, errOut := runCmd("match", "--engine", good, "--engine", engineCommand(t, kind), "--games", "2", "--movetime", "50", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", kind, code, errOut)
		}
		var sum matchSummary
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatalf("%s: %v: %q", kind, err, out)
		}
		if sum.Games != 2 || sum.Wins != 2 || sum.Score != 1 {
			t.Errorf("%s: %+v\n%s", kind, sum, errOut)
		}
		want := map[string]string{"illegal": "illegal move", "silent": "no \"bestmove\""}[kind]
		if strings.Count(errOut, want) != 2 {
			t.Errorf("%s: stderr does not say %q twice:\n%s", kind, want, errOut)
		}
	}
}

// TestMatchPlaysWholeGames: two real engines, pairs from one opening.
func TestMatchPlaysWholeGames(t *testing.T) {
	code, out, errOut := runCmd("match", "--engine", engineCommand(t, "uci", "--level", "2"),
		"--engine", engineCommand(t, "uci", "--level", "1"), "--games", "4", "--movetime", "20", "--openings", "2")
	if code != 0 || !strings.Contains(out, "4 games, +") || !strings.Contains(out, "score ") || !strings.Contains(out, "Elo ") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	if n := strings.Count(errOut, "game "); n != 4 {
		t.Errorf("%d game lines:\n%s", n, errOut)
	}
}

func TestMatchStatistics(t *testing.T) {
	mean, margin := meanAndMargin([]float64{1, 0, 1, 0})
	if mean != 0.5 || margin < 0.48 || margin > 0.5 {
		t.Errorf("mean %v margin %v, want 0.5 and 1.96*0.5/2 = 0.49", mean, margin)
	}
	if e := eloOf(0.75); e == nil || *e < 190.8 || *e > 190.9 {
		t.Errorf("Elo of 75 %% = %v, want 400 log10(3) = 190.85", e)
	}
	if eloOf(1) != nil {
		t.Error("Elo of 100 % is not infinite")
	}
	if w, err := splitWords(`a "b c" 'd'`); err != nil || strings.Join(w, "|") != "a|b c|d" {
		t.Errorf("splitWords: %q %v", w, err)
	}
}

func TestBest(t *testing.T) {
	code, out, errOut := runCmd("best", "--rules", "abapa", "--position", "2-0-0-0-0-1-1-3-0-0-0-4-24-13-S", "--depth", "3", "--json")
	var a struct {
		Best   string   `json:"best"`
		Value  float64  `json:"value"`
		Depth  int      `json:"depth"`
		PV     []string `json:"pv"`
		Exact  *bool    `json:"exact"`
		Result string   `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &a); code != 0 || err != nil {
		t.Fatalf("exit %d %v: %s %s", code, err, out, errOut)
	}
	// F captures a's 2 seeds: 26 to 13, a win at once.
	if a.Best != "F" || a.Value != 13 || a.Depth != 3 || len(a.PV) == 0 || a.PV[0] != "F" || a.Exact == nil || a.Result != "win" {
		t.Errorf("best: %s", out)
	}
	code, out, _ = runCmd("best", "--rules", "abapa", "--level", "1", "C", "d")
	if code != 0 || !strings.HasPrefix(out, "best ") || !strings.Contains(out, "\npv ") {
		t.Errorf("best --level 1: %d %q", code, out)
	}
	for _, args := range [][]string{
		{"best", "--rules", "abapa", "--level", "9"},
		{"best", "--rules", "abapa", "--level", "2", "--depth", "3"},
		{"best", "--rules", "abapa", "--position", "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S"},
		{"best", "--rules", "abapa", "Z"},
	} {
		if code, _, errOut := runCmd(args...); code != 2 || errOut == "" {
			t.Errorf("%q: exit %d, want 2 and a message", args, code)
		}
	}
}

func TestTablesCommand(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCmd("tables", "--rules", "wari", "--max-seeds", "5", "--out", dir, "--verify")
	if code != 0 || !strings.Contains(out, "6188 boards of up to 5 seeds") || !strings.Contains(out, "every board verified") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "wari: 5 seeds, moves") {
		t.Errorf("no progress on stderr: %q", errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "wari-5.tbl")); err != nil {
		t.Error(err)
	}
	// The search reads the folder: with the table, a 5-seed position after
	// a capture is decided by it.
	code, out, _ = runCmd("best", "--rules", "wari", "--tables", dir, "--position", "0-0-0-0-0-1-1-0-0-0-0-0-23-23-S", "--depth", "1")
	if code != 0 || !strings.Contains(out, "best F") || !strings.Contains(out, "exact true") {
		t.Errorf("best with tables: %d %q", code, out)
	}
	if code, _, _ := runCmd("tables", "--rules", "namnam", "--max-seeds", "5", "--out", dir); code != 2 {
		t.Errorf("namnam tables: exit %d", code)
	}
}

// TestMatchOnTheClock: with --clock each engine gets its own clock in
// "go wtime/btime/winc/binc"; engines that answer in time finish their
// games, a silent one loses each game when its clock is gone.
func TestMatchOnTheClock(t *testing.T) {
	code, out, errOut := runCmd("match", "--engine", engineCommand(t, "uci", "--level", "2"),
		"--engine", engineCommand(t, "uci", "--level", "1"), "--games", "2", "--clock", "20+0.1", "--openings", "2", "--json")
	var sum matchSummary
	if code != 0 || json.Unmarshal([]byte(out), &sum) != nil || sum.Games != 2 || strings.Contains(errOut, "lost on time") {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	code, out, errOut = runCmd("match", "--engine", engineCommand(t, "uci", "--level", "1"),
		"--engine", engineCommand(t, "silent"), "--games", "2", "--clock", "1+0", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &sum) != nil || sum.Wins != 2 {
		t.Errorf("against a silent engine on a 1 s clock: exit %d: %s\n%s", code, out, errOut)
	}
	for _, c := range []struct {
		arg        string
		clock, inc int
		ok         bool
	}{{"10+0.1", 10000, 100, true}, {"300+5", 300000, 5000, true}, {"0.5+0", 0, 0, false}, {"10", 0, 0, false}, {"10+61", 0, 0, false}} {
		clock, inc, err := parseMatchClock(c.arg)
		if (err == nil) != c.ok || clock != c.clock || inc != c.inc {
			t.Errorf("parseMatchClock(%q) = %d, %d, %v", c.arg, clock, inc, err)
		}
	}
}
